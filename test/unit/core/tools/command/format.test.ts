import * as assert from 'node:assert/strict';
import type { BackgroundCommand, KeptOutput, ProcessOutcome } from '../../../../../src/core/ports/process';
import { commandLabel } from '../../../../../src/core/process/backgroundCommands';
import { formatBackground } from '../../../../../src/core/tools/command/backgroundResults';
import { couldNotRun, couldNotStart, formatOutcome, movedHeadline, movedTerminalNote, sandboxFailureHint, SINCE_LAST_READ, stoppedAtTimeoutNote, streamSection, WHOLE_RUN } from '../../../../../src/core/tools/command/format';

const kept = (text: string, totalChars = text.length, omittedChars = 0): KeptOutput => ({ text, totalChars, omittedChars });

describe('tools/command/format', () => {
  describe('streamSection: one stream, as the foreground and background results write it', () => {
    it('says a whole run printed nothing, and a background command nothing new', () => {
      assert.deepEqual(streamSection('stdout', kept(''), WHOLE_RUN), ['', '--- stdout ---', '(empty)']);
      assert.deepEqual(streamSection('stderr', kept(''), SINCE_LAST_READ), ['', '--- stderr ---', '(no new output)']);
    });

    it('drops one final newline and keeps the rest', () => {
      assert.deepEqual(streamSection('stdout', kept('a\nb\n\n'), WHOLE_RUN), ['', '--- stdout ---', 'a\nb\n']);
    });

    it('says how much was left out of the middle, for what span, and where the rest is', () => {
      const [, , , note] = streamSection('stdout', kept('head…tail', 5000, 4000), WHOLE_RUN);
      assert.equal(note, '[stdout was 5000 characters; 4000 in the middle were left out. The full output is in the log below: read it with workspace_read_file (offset and limit), or search it with workspace_grep.]');
      const [, , , since] = streamSection('stderr', kept('x', 300, 200), SINCE_LAST_READ);
      assert.match(since, /^\[stderr since the last read was 300 characters; 200 in the middle were left out\./);
    });

    it('names what the reduction rules left out, and counts the cut against the reduced text', () => {
      const reduced: KeptOutput = { text: 'FAIL x\n', totalChars: 90_000, omittedChars: 700, reduction: { summary: '812 passing test lines dropped', keptChars: 30_700 } };
      const [, , , rules, note] = streamSection('stdout', reduced, WHOLE_RUN);
      assert.equal(rules, 'reduced: 812 passing test lines dropped (the full log below has every line)');
      assert.match(note, /^\[stdout was 90000 characters \(30700 after reduction\); 700 in the middle were left out\./);
      assert.equal(streamSection('stdout', { ...reduced, omittedChars: 0 }, WHOLE_RUN).length, 4);
    });

    it('is what both results are made of', () => {
      const outcome: ProcessOutcome = { exitCode: 0, signal: null, leftoversStopped: false, durationMs: 1200, stdout: kept('out', 900, 600), stderr: kept(''), logPath: '/logs/x.log', logTruncated: false };
      const foreground = formatOutcome(outcome, 'Exit code: 0', '.', 'Sandbox: none', undefined);
      assert.ok(foreground.text.includes([...streamSection('stdout', outcome.stdout, WHOLE_RUN), ...streamSection('stderr', outcome.stderr, WHOLE_RUN)].join('\n')));
      const command = { id: 'bg4', commandLine: 'npm run dev', cwdShown: '.', sandboxLine: 'Sandbox: none', logPath: '/logs/y.log', status: () => ({ state: 'running' }), waitingForInput: () => undefined, inputClosed: false, ports: () => [] } as unknown as BackgroundCommand;
      const taken = { stdout: kept('ready', 700, 100), stderr: kept('') };
      const background = formatBackground(command, 'Started.', taken);
      assert.ok(background.text.includes([...streamSection('stdout', taken.stdout, SINCE_LAST_READ), ...streamSection('stderr', taken.stderr, SINCE_LAST_READ)].join('\n')));
    });
  });

  it('says first where the whole output is when some of it was left out, and nothing when none was', () => {
    const outcome: ProcessOutcome = { exitCode: 0, signal: null, leftoversStopped: false, durationMs: 1200, stdout: kept('out', 900, 600), stderr: kept('err', 50, 20), logPath: '/logs/x.log', logTruncated: false };
    const foreground = formatOutcome(outcome, 'Exit code: 0', '.', 'Sandbox: none', undefined);
    assert.equal(foreground.continuation, '[620 characters of output were left out. All of it is in /logs/x.log: read it with workspace_read_file (offset and limit), or search it with workspace_grep.]');
    assert.equal(formatOutcome({ ...outcome, stdout: kept('out'), stderr: kept('') }, 'Exit code: 0', '.', 'Sandbox: none', undefined).continuation, undefined);
    const command = { id: 'bg4', commandLine: 'npm run dev', cwdShown: '.', sandboxLine: 'Sandbox: none', logPath: '/logs/y.log', status: () => ({ state: 'running' }), waitingForInput: () => undefined, inputClosed: false, ports: () => [] } as unknown as BackgroundCommand;
    assert.match(formatBackground(command, 'Started.', { stdout: kept('ready', 700, 100), stderr: kept('') }).continuation ?? '', /^\[100 characters of output were left out\. All of it is in \/logs\/y\.log: /);
    assert.equal(formatBackground(command, 'Started.', { stdout: kept('ready'), stderr: kept('') }).continuation, undefined);
  });

  it('explains a refusal of the proxy to an approved command, and a missing network to an unasked one', () => {
    const failed = (stderr: string): ProcessOutcome => ({ exitCode: 22, signal: null, leftoversStopped: false, durationMs: 10, stdout: kept(''), stderr: kept(stderr), logPath: '/l', logTruncated: false });
    const refused = failed('curl: (56) CONNECT tunnel failed, response 403');
    assert.match(sandboxFailureHint(refused, true) ?? '', /only through the extension's proxy .*tell the user which domain it needs/);
    assert.match(sandboxFailureHint(failed('Workspace Agent Tools proxy: x.example is in workspaceAgentTools.runCommand.deniedDomains'), true) ?? '', /extension's proxy/);
    assert.match(sandboxFailureHint(failed('getaddrinfo ENOTFOUND registry.npmjs.org'), false) ?? '', /permissions: "network"/);
    assert.equal(sandboxFailureHint(failed('error: the proxy setting of the app is wrong'), true), undefined);
    assert.equal(sandboxFailureHint({ ...refused, exitCode: 0 }, true), undefined);
  });

  it('labels a running command by its id and the start of its line', () => {
    assert.equal(commandLabel({ id: 'bg2', commandLine: 'npm run dev' }), 'bg2 (npm run dev)');
    assert.equal(commandLabel({ id: 'bg3', commandLine: `echo ${'x'.repeat(100)}\nrm -rf y` }).length < 80, true);
  });

  describe('what a foreground command that moved, or could not start, says', () => {
    const asks = { prompt: 'Password:', reader: 'sudo', since: 0 };
    it('heads its result by why it moved and whether it waits for input', () => {
      assert.equal(movedHeadline('timeout', '60 s', undefined), 'Still running after 60 s: moved to the background at the timeout instead of being stopped (on_timeout: "kill" stops it instead).');
      assert.equal(movedHeadline('due', '2.0 s', undefined), 'Still running after 2.0 s: moved to the background because the client needs an answer now; the command was not stopped.');
      assert.equal(movedHeadline('waiting', '3.0 s', asks), 'Still running after 3.0 s and waiting for input: Password: (sudo reads its input): moved to the background; the command was not stopped.');
      assert.equal(movedHeadline('timeout', '60 s', asks), 'Still running after 60 s and waiting for input: Password: (sudo reads its input): moved to the background at the timeout; the command was not stopped.');
    });

    it('tells its terminal where it went and how to stop it', () => {
      assert.equal(movedTerminalNote('timeout', '60 s', 'bg1', undefined), 'Still running after 60 s: moved to the background as bg1 at its timeout. It keeps running here; Ctrl+C stops it.');
      assert.equal(movedTerminalNote('due', '2.0 s', 'bg2', undefined), 'Still running after 2.0 s: moved to the background as bg2 because the client needs an answer now. It keeps running here; Ctrl+C stops it.');
      assert.equal(movedTerminalNote('waiting', '3.0 s', 'bg3', asks), 'Waiting for input after 3.0 s: moved to the background as bg3 because it waits for input. It keeps running here; Ctrl+C stops it.');
      assert.equal(stoppedAtTimeoutNote(60), 'It will be stopped at its timeout, 60 s after it started (on_timeout: "kill").');
    });

    it('says a start that failed started nothing, and what to check when the spawn failed', () => {
      assert.deepEqual(couldNotRun('spawn E2BIG'), { terminal: 'Could not run the command: spawn E2BIG', message: 'The command could not be run: spawn E2BIG. Nothing was started.' });
      assert.equal(couldNotStart('spawn /bin/nosh ENOENT', '/bin/nosh', 'sub'), 'The command could not be started: spawn /bin/nosh ENOENT. Check that /bin/nosh exists and that the folder sub is readable.');
    });
  });
});
