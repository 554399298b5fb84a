// The runner is driven the way production drives it, through workspace_run_command: each test checks
// that the processes a command started are gone, and the sentence the result gives for how it ended.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { groupAlive } from '../../../../../src/core/process/node/processGroup';
import { startAhead, startProcess, stopAllCommands } from '../../../../../src/core/process/node/processRunner';
import { NEVER_CANCELLED } from '../../../../../src/core/errors';
import { runCommandTool } from '../../../../../src/core/tools/command/runCommand';
import { commandWorkspace, readWhenWritten, shown } from '../../../support/commandWorkspace';
import { alive, processesWithCommandLine } from '../../../../support/procfs';
import { resultText } from '../../../support/context';
import { invokeTool } from '../../../../../src/core/tools/invoke';
import { requireProgram } from '../../../support/programs';

describe('process/node/processRunner', () => {
  const workspace = commandWorkspace();
  // These tests watch the processes from outside (pid files beside the workspace), which the sandbox
  // would forbid and its pid namespace would hide; the sandboxed tree is checked at the end.
  const unsandboxed = { runCommandSandbox: 'off' } as const;
  const setup: typeof workspace.setup = (options = {}) => workspace.setup({ ...options, settings: { ...unsandboxed, ...options.settings } });
  const run: typeof workspace.run = (input, options = {}) => workspace.run(input, { ...options, settings: { ...unsandboxed, ...options.settings } });

  it('kills a TERM-ignoring child and a background grandchild on timeout with on_timeout "kill", and says so', async () => {
    const pids = path.join(workspace.parent, 'timeout-pids');
    const command = `sh -c 'trap "" TERM; sleep 300' & echo $! > ${pids}; (sleep 300 & echo $! >> ${pids}; wait) & echo started; wait`;
    const { text } = await run({ command, timeout: 1, on_timeout: 'kill' }, { approve: true });
    assert.match(text, /^Timed out after 1 s/);
    assert.match(text, /--- stdout ---\nstarted\n/);
    const started = (await readWhenWritten(pids)).trim().split('\n').map(Number);
    assert.deepEqual(started.filter(alive), []);
  });

  it('stops background processes left behind when the shell exits', async () => {
    const pids = path.join(workspace.parent, 'leftover-pids');
    const { text } = await run({ command: `sleep 300 > /dev/null & echo $! > ${pids}; echo $! >> ${pids}` }, { approve: true });
    assert.match(text, /Background processes still running/);
    const started = (await readWhenWritten(pids)).trim().split('\n').map(Number);
    assert.deepEqual(started.filter(alive), []);
  });

  it('kills the process group when the user presses Ctrl+C in the terminal', async () => {
    const { ctx, terminal } = setup({ approve: true });
    const pending = invokeTool(runCommandTool, { command: 'echo go; sleep 300' }, ctx);
    await shown(terminal, 'go');
    terminal.interrupt();
    assert.match(resultText(await pending), /^Stopped by the user/);
  });

  it('stops running commands when the extension shuts down', async () => {
    const { ctx, terminal } = setup({ approve: true });
    const pending = invokeTool(runCommandTool, { command: 'echo go; sleep 300' }, ctx);
    await shown(terminal, 'go');
    await stopAllCommands(1000);
    assert.match(resultText(await pending), /^Killed by signal SIGTERM/);
  });

  it('kills the whole sandboxed tree on timeout with on_timeout "kill": a background child that would write and a TERM-ignoring one are gone', async () => {
    // The sandbox's pid namespace hides the pids: each sleep is found on the host by its unique length, so no wait for the write is needed.
    const child = 700 + Math.floor(Math.random() * 100);
    const stubborn = child + 100;
    const late = path.join(workspace.root, 'late.txt');
    const { text } = await workspace.run({ command: `(sleep ${child}; echo late > late.txt) & sh -c 'trap "" TERM; sleep ${stubborn}' & echo started; wait`, timeout: 3, on_timeout: 'kill' }, { approve: true });
    assert.match(text, /^Timed out after 3 s/);
    assert.match(text, /Sandbox: bubblewrap/);
    assert.match(text, /--- stdout ---\nstarted\n/, 'both were started before the timeout');
    assert.deepEqual([...processesWithCommandLine(`sleep ${child}`), ...processesWithCommandLine(`sleep ${stubborn}`)], []);
    assert.equal(fs.existsSync(late), false);
  });

  it('gives the launcher its input on fd 3, bytes as they are, and leaves the command\'s stdin (end of file), stdout and stderr as they were', async () => {
    // A launcher that copies its fd 3 into a file, then runs the command as bubblewrap does.
    const copied = path.join(workspace.parent, 'launcher-input');
    const started = startProcess({
      shell: '/bin/sh',
      commandLine: 'read line || echo "out: end of file"; echo err >&2',
      launcher: ['/bin/sh', '-c', `cat <&3 > '${copied}'; exec 3<&-; exec "$@"`, 'launcher'],
      launcherInput: '--ro-bind\0/dev/null\0/ws/a b\nc/.env\0',
      cwd: workspace.root,
      env: process.env,
      killGraceMs: 1000,
      logPath: path.join(workspace.parent, 'logs', 'launcher-input.log'),
      headChars: 1000,
      tailChars: 1000,
      maxLogChars: 10_000,
      token: NEVER_CANCELLED,
    });
    const outcome = await started.outcome;
    assert.equal(fs.readFileSync(copied, 'utf8'), '--ro-bind\0/dev/null\0/ws/a b\nc/.env\0');
    assert.equal(outcome.stdout.text, 'out: end of file\n');
    assert.equal(outcome.stderr.text, 'err\n');
    assert.equal(outcome.exitCode, 0);
  });

  it('holds a launcher that reports its command\'s end on fd 4: the hold runs while it waits, a stop meanwhile does nothing, and the outcome comes after', async () => {
    // A launcher that runs the command, reports its exit code on fd 4, waits for a line there, then writes a file.
    const after = path.join(workspace.parent, 'hold-after');
    const request = {
      shell: '/bin/sh',
      commandLine: 'echo ran; exit 5',
      launcher: ['/bin/sh', '-c', `"$@" 4<&-; status=$?; echo $status >&4; read -r _ <&4; echo released > '${after}'; exit $status`, 'launcher'],
      cwd: workspace.root,
      env: process.env,
      killGraceMs: 1000,
      logPath: path.join(workspace.parent, 'logs', 'hold.log'),
      headChars: 1000,
      tailChars: 1000,
      maxLogChars: 10_000,
      token: NEVER_CANCELLED,
    };
    const seen: { pid: number | undefined; released: boolean }[] = [];
    const handle: { started?: ReturnType<typeof startProcess> } = {};
    const started = startProcess({
      ...request,
      hold: async (pid) => {
        handle.started?.stop('timeout');
        await new Promise((resolve) => setTimeout(resolve, 200));
        seen.push({ pid, released: fs.existsSync(after) });
      },
    });
    handle.started = started;
    const outcome = await started.outcome;
    assert.deepEqual(seen, [{ pid: started.pgid, released: false }]);
    assert.equal(outcome.exitCode, 5);
    assert.equal(outcome.stopped, undefined);
    assert.equal(outcome.stdout.text, 'ran\n');
    assert.equal(fs.readFileSync(after, 'utf8'), 'released\n');
  });

  it('calls the hold once, without a pid, when the launcher ends without reporting (it was stopped)', async () => {
    const pids: (number | undefined)[] = [];
    const started = startProcess({
      shell: '/bin/sh',
      commandLine: 'sleep 300',
      launcher: ['/bin/sh', '-c', '"$@" 4<&-; echo $? >&4; read -r _ <&4', 'launcher'],
      cwd: workspace.root,
      env: process.env,
      killGraceMs: 1000,
      logPath: path.join(workspace.parent, 'logs', 'hold-stopped.log'),
      headChars: 1000,
      tailChars: 1000,
      maxLogChars: 10_000,
      token: NEVER_CANCELLED,
      hold: async (pid) => void pids.push(pid),
    });
    setTimeout(() => started.stop('timeout'), 200);
    const outcome = await started.outcome;
    assert.equal(outcome.stopped, 'timeout');
    assert.deepEqual(pids, [undefined]);
  });

  describe('adopting a launcher started ahead (ProcessRequest.adopt)', () => {
    // What a staged launch started ahead does (overlayLaunch.ts stagedLaunchAhead), without the
    // overlay: wait for the line on fd 4, read the argv NUL-separated from fd 5, run it with fd 3
    // (the launcher's input) open, report its exit code on fd 4, hold for a line there.
    const bashLauncher = (): string[] => [requireProgram('bash'), '-c', `set -eu; read -r _ <&4; mapfile -d '' -u 5 launcher; exec 5<&-; set +e; "\${launcher[@]}" 4<&-; status=$?; { echo "$status" >&4 && read -r _ <&4; } 2>/dev/null; exit $status`];
    const request = (commandLine: string, name: string) => ({
      shell: '/bin/sh',
      commandLine,
      // Its "launcher": sh that prints its input (fd 3) first, then runs the line; the env and cwd it was started with, not the request's.
      launcher: ['/bin/sh', '-c', 'cat <&3; exec 3<&-; cd "$1" && shift && exec "$@"', 'launcher', workspace.root],
      launcherInput: 'input on fd 3\n',
      cwd: workspace.root,
      env: process.env,
      killGraceMs: 1000,
      logPath: path.join(workspace.parent, 'logs', `${name}.log`),
      headChars: 1000,
      tailChars: 1000,
      maxLogChars: 10_000,
      token: NEVER_CANCELLED,
    });

    it("hands it the argv and the launcher's input, lets it go, and reports its output, stdin at its end and exit code; the hold runs with its pid", async () => {
      const ahead = startAhead(bashLauncher(), { PATH: '/usr/bin:/bin' });
      assert.equal(ahead.waiting(), true);
      const held: (number | undefined)[] = [];
      const started = startProcess({ ...request('pwd; cat; echo "stdin $?"; echo err >&2; exit 7', 'ahead-run'), adopt: ahead, hold: async (pid) => void held.push(pid) });
      assert.equal(ahead.waiting(), false);
      const outcome = await started.outcome;
      assert.equal(outcome.exitCode, 7);
      assert.equal(outcome.stdout.text, `input on fd 3\n${workspace.root}\nstdin 0\n`);
      assert.equal(outcome.stderr.text, 'err\n');
      assert.deepEqual(held, [started.pgid]);
    });

    it("stops its whole tree, and one discarded unused ends having run nothing", async () => {
      const pids = path.join(workspace.parent, 'ahead-pids');
      const ahead = startAhead(bashLauncher(), { PATH: '/usr/bin:/bin' });
      const started = startProcess({ ...request(`sleep 300 & echo $! > ${pids}; echo $$ >> ${pids}; wait`, 'ahead-stop'), adopt: ahead, hold: async () => undefined });
      const [sleeper, shell] = (await readWhenWritten(pids)).trim().split('\n').map(Number);
      started.stop('timeout');
      const outcome = await started.outcome;
      assert.equal(outcome.stopped, 'timeout');
      assert.deepEqual([sleeper, shell].filter(alive), []);
      const unused = startAhead(bashLauncher(), { PATH: '/usr/bin:/bin' });
      unused.discard();
      assert.equal(unused.waiting(), false);
    });

    it('runs nothing when the launcher started ahead is no longer waiting: its argv is never spawned as a plain launcher', async () => {
      const ran = path.join(workspace.parent, 'ahead-ran');
      const ahead = startAhead(bashLauncher(), { PATH: '/usr/bin:/bin' });
      ahead.discard();
      const held: (number | undefined)[] = [];
      const outcome = await startProcess({ ...request(`touch ${ran}`, 'ahead-gone'), adopt: ahead, hold: async (pid) => void held.push(pid) }).outcome;
      assert.match(outcome.spawnError ?? '', /launch started ahead .* nothing ran/);
      assert.equal(fs.existsSync(ran), false);
      assert.deepEqual(held, []);
    });
  });

  describe('with a terminal as stdin (interactive: true)', () => {
    before(() => requireProgram('python3'));

    it('gives the shell a terminal on fd 0 only, and passes its exit code and its signal on', async () => {
      const { text } = await run({ command: '[ -t 0 ] && echo "stdin tty"; [ -t 1 ] || echo "stdout pipe"; [ -t 2 ] || echo "stderr pipe"; exit 3', interactive: true }, { approve: true });
      assert.match(text, /^Exit code: 3/);
      assert.match(text, /--- stdout ---\nstdin tty\nstdout pipe\nstderr pipe\n/);
      const killed = await run({ command: 'kill -TERM $$', interactive: true }, { approve: true });
      assert.match(killed.text, /^Killed by signal SIGTERM/);
    });

    it('kills the helper, the shell and a background grandchild on timeout with on_timeout "kill"', async () => {
      const pids = path.join(workspace.parent, 'terminal-pids');
      const command = `echo $PPID > ${pids}; (sleep 300 & echo $! >> ${pids}; wait) & echo started; wait`;
      const { text } = await run({ command, timeout: 1, on_timeout: 'kill', interactive: true }, { approve: true });
      assert.match(text, /^Timed out after 1 s/);
      const started = (await readWhenWritten(pids)).trim().split('\n').map(Number);
      // The first pid is the helper's (the shell's parent).
      assert.equal(started.length, 2);
      assert.deepEqual(started.filter(alive), []);
    });
  });

  it('reports a group as gone once its processes ended', () => {
    assert.equal(groupAlive(2 ** 22 + 12345), false);
  });
});
