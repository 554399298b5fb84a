import * as assert from 'node:assert/strict';
import { BackgroundCommandRegistry } from '../../../../../src/core/process/backgroundCommands';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { manifestEntry } from '../../../../../src/core/tools/manifest';
import { readFileTool } from '../../../../../src/core/tools/readFile';
import { commandConfirmation } from '../../../../../src/core/tools/command/approve';
import { runCommandTool } from '../../../../../src/core/tools/command/runCommand';
import { commandWorkspace, TEST_INPUT_TIMING } from '../../../support/commandWorkspace';
import { CANARY, SEEDED_SECRETS } from '../../../../support/seededSecrets';
import { resultText } from '../../../support/context';
import { invokeTool } from '../../../../../src/core/tools/invoke';
import { requireProgram } from '../../../support/programs';
import { systemClock } from '../../../../../src/core/time';

describe('tools/runCommand', () => {
  const workspace = commandWorkspace();
  const { setup, run } = workspace;

  it('returns the exit code and stdout and stderr separately', async () => {
    const { text } = await run({ command: 'echo out; echo err >&2' });
    assert.match(text, /^Exit code: 0/);
    assert.match(text, /--- stdout ---\nout\n/);
    assert.match(text, /--- stderr ---\nerr\n/);
  });

  it('returns a failing exit code as a result, not an error', async () => {
    const { text } = await run({ command: 'ls does-not-exist' });
    assert.match(text, /^Exit code: 2/);
    assert.match(text, /does-not-exist/);
  });

  it('runs in the cwd given, relative to the workspace', async () => {
    const { text } = await run({ command: 'pwd', cwd: 'sub' });
    assert.match(text, new RegExp(`--- stdout ---\\n${fs.realpathSync(path.join(workspace.root, 'sub'))}\\n`));
  });

  it('refuses a cwd outside the workspace', async () => {
    await assert.rejects(run({ command: 'ls', cwd: workspace.parent }), /outside the workspace/);
  });

  it('ignores extra input fields such as a model-supplied safe flag: the command still asks', async () => {
    const { ctx, approver } = setup();
    await assert.rejects(invokeTool(runCommandTool, { command: 'rm -rf sub', safe: true }, ctx), /The user declined to run `rm -rf sub`/);
    assert.equal(approver.asked.length, 1);
    assert.ok(fs.existsSync(path.join(workspace.root, 'sub')));
    const { text } = await run({ command: 'echo hi', safe: true });
    assert.match(text, /--- stdout ---\nhi\n/);
    assert.match(text, /\[workspace_run_command ignored a field it does not take: "safe"\. Its fields: command, cwd, timeout, permissions, writable_path, background, wait_for, interactive, on_timeout\.\]$/);
  });

  it('shows the live output in the terminal and the status at the end', async () => {
    const { terminal } = await run({ command: 'echo visible' });
    assert.match(terminal.text, /^Sandbox: bubblewrap: .*\nvisible\n$/);
    assert.match(terminal.summary, /^Exit code: 0/);
  });

  it('gives the command a non-interactive environment and end of file as stdin: cat and a program that sniffs stdin end at once', async () => {
    requireProgram('python3');
    const sniff = 'python3 -c \'import sys; print(sys.stdin.isatty()); print(repr(sys.stdin.read()))\'';
    const { text } = await run({ command: `echo "$PAGER $GIT_PAGER $GIT_TERMINAL_PROMPT $DEBIAN_FRONTEND $NO_COLOR $TERM"; cat; ${sniff}; bash -c 'read -p "Name? " x; echo "read: $? x=$x"'`, timeout: 60 }, { approve: true });
    assert.match(text, /^Exit code: 0/);
    assert.match(text, /--- stdout ---\ncat cat 0 noninteractive 1 dumb\nFalse\n''\nread: 1 x=\n/);
    assert.doesNotMatch(text, /Name\?|waiting for input/, 'read -p prints its prompt only to a terminal');
  });

  it('runs rg with no path over the folder, not over its stdin, and finds the needle (sandbox on and off)', async () => {
    requireProgram('rg');
    fs.writeFileSync(path.join(workspace.root, 'sub', 'haystack.txt'), 'hay\nthe needle-7f3a is here\nhay\n');
    for (const runCommandSandbox of ['auto', 'off'] as const) {
      const { text } = await run({ command: 'rg needle-7f3a', timeout: 60 }, { approve: true, settings: { runCommandSandbox } });
      assert.match(text, /^Exit code: 0/, runCommandSandbox);
      assert.match(text, /--- stdout ---\nsub\/haystack\.txt:the needle-7f3a is here\n/, runCommandSandbox);
    }
  });

  it('with interactive: true gives stdin a terminal it waits on: the call returns with its id and the prompt', async () => {
    const background = new BackgroundCommandRegistry({ clock: systemClock, inputTiming: TEST_INPUT_TIMING });
    try {
      const { text } = await run({ command: 'echo "$PAGER $TERM"; bash -c \'read -p "Name? " x; echo "hi $x"\'', timeout: 60, interactive: true }, { background, approve: true });
      assert.match(text, /--- stdout ---\ncat dumb\n/);
      assert.match(text, /^Status: running, waiting for input: Name\? \(bash reads its input\)$/m);
      // Node reads its terminal through epoll: the probe finds it there too.
      const node = await run({ command: 'node -i', timeout: 60, interactive: true }, { background, approve: true });
      assert.match(node.text, /^Status: running, waiting for input: > \(node reads its input\)$/m);
    } finally {
      await background.stopAll();
    }
  });

  for (const sandbox of ['auto', 'off'] as const) {
    it(`gives commands no secret from the host's environment (sandbox ${sandbox}), and says how many were withheld`, async () => {
      const environment = { ...process.env, ...SEEDED_SECRETS };
      const { text } = await run({ command: 'env; printenv; set; node -e \'console.log(JSON.stringify(process.env)); console.log(require("fs").readFileSync("/proc/self/environ", "utf8"))\'', timeout: 30 }, { approve: true, environment, settings: { runCommandSandbox: sandbox, redactSecrets: false } });
      assert.match(text, /^Exit code: 0/m);
      assert.doesNotMatch(text, new RegExp(CANARY));
      assert.match(text, /secret environment variables? withheld \(runCommand\.passEnvironment lets named ones through\)/);
      const count = Number(/; (\d+) secret environment variables? withheld/.exec(text)?.[1]);
      assert.ok(count >= 20, `withheld ${count}`);
      assert.match(text, /^HOME=/m);
      assert.match(text, /^PATH=/m);
    });
  }

  it('hides the host\'s processes, and so their /proc/<pid>/environ, from a sandboxed command', async () => {
    const probe = `node -e 'console.log("host environ readable: " + require("fs").existsSync("/proc/${process.pid}/environ"))'`;
    const { text } = await run({ command: probe, timeout: 30 }, { approve: true });
    assert.match(text, /host environ readable: false/);
  });

  it('passes a secret the user names in runCommand.passEnvironment', async () => {
    const { text } = await run({ command: 'printenv NPM_TOKEN' }, { environment: { ...process.env, ...SEEDED_SECRETS }, settings: { runCommandPassEnvironment: ['NPM_TOKEN'] } });
    assert.match(text, /--- stdout ---\ncanary-env-06-npm\n/);
  });

  it('keeps head and tail of long output within the budget', async () => {
    const { text } = await run({ command: 'seq 1 200000' });
    const stdout = /--- stdout ---\n([\s\S]*?)\n\[stdout was/.exec(text)?.[1] ?? '';
    assert.ok(stdout.length < 31_000, `kept ${stdout.length} characters`);
    assert.match(stdout, /^1\n2\n3\n/);
    assert.match(stdout, /\n200000$/);
  });

  it('saves the full log of long output, where workspace_read_file can read it', async () => {
    const { text, ctx } = await run({ command: 'seq 1 200000' });
    const logPath = /Full log: (.*)/.exec(text)?.[1] ?? '';
    const log = fs.readFileSync(logPath, 'utf8');
    assert.match(log, /\n100000\n/);
    const read = resultText(await invokeTool(readFileTool, { file_path: logPath, offset: 100002, limit: 1 }, ctx));
    assert.match(read, /100000/);
  });

  it('keeps as much of each stream as workspaceAgentTools.output.commandOutputChars says', async () => {
    const { text } = await run({ command: 'seq 1 200000' }, { settings: { commandOutputChars: 5_000 } });
    const stdout = /--- stdout ---\n([\s\S]*?)\n\[stdout was/.exec(text)?.[1] ?? '';
    assert.ok(stdout.length > 4_900 && stdout.length < 5_200, `kept ${stdout.length} characters`);
    assert.match(stdout, /^1\n2\n/);
    assert.match(stdout, /\n200000$/);
  });

  it('strips ANSI escapes for the model but not for the terminal', async () => {
    const { text, terminal } = await run({ command: "printf '\\033[31mred\\033[0m\\n'" });
    assert.match(text, /--- stdout ---\nred\n/);
    assert.ok(terminal.text.includes('\u001b[31m'));
  });

  it('asks before a command the policy does not allow, and runs it when approved', async () => {
    const { text, approver } = await run({ command: 'touch made.txt' }, { approve: true });
    assert.equal(approver.asked.length, 1);
    assert.equal(approver.asked[0].kind, 'command');
    assert.match(text, /^Exit code: 0/);
    assert.ok(fs.existsSync(path.join(workspace.root, 'made.txt')));
  });

  it('does not run a command the user declined', async () => {
    await assert.rejects(run({ command: 'touch declined.txt' }, { approve: false }), /declined/);
    assert.equal(fs.existsSync(path.join(workspace.root, 'declined.txt')), false);
  });

  it('records a checkpoint before every command the policy does not judge read-only, after its approval', async () => {
    const taken: string[] = [];
    const checkpointed = async (command: string, approve: boolean): Promise<void> => {
      const { ctx, approver } = setup({ approve });
      // As CallCheckpoints: only a call's first beforeChange records (a staged command's merge asks again).
      let recorded = false;
      const beforeChange = async (): Promise<void> => {
        if (!recorded) {
          recorded = true;
          taken.push(`${command} (asked ${approver.asked.length})`);
        }
      };
      const checkpoint = { beforeChange, deferAfter: () => ({ finish: async () => undefined }) };
      await invokeTool(runCommandTool, { command }, { ...ctx, call: { ...ctx.call, checkpoint } }).catch(() => undefined);
    };
    await checkpointed('ls -la', true);
    await checkpointed('touch declined.txt', false);
    await checkpointed('touch made.txt', true);
    await checkpointed('echo x > written.txt', true);
    assert.deepEqual(taken, ['touch made.txt (asked 1)', 'echo x > written.txt (asked 0)']);
  });

  it('refuses a denied command without asking', async () => {
    const { ctx, approver } = setup({ approve: true });
    await assert.rejects(invokeTool(runCommandTool, { command: 'rm -rf /' }, ctx), /refused by the command policy/);
    assert.equal(approver.asked.length, 0);
  });

  it('does not ask again when the chat showed this very question and the user accepted it', async () => {
    const { ctx, approver } = setup({ approve: false });
    const shown = await commandConfirmation({ command: 'touch chat.txt' }, ctx);
    assert.ok(shown);
    const result = await invokeTool(runCommandTool, { command: 'touch chat.txt' }, { ...ctx, call: { ...ctx.call, chatConfirmation: shown.message } });
    assert.match(resultText(result), /^Exit code: 0/);
    assert.equal(approver.asked.length, 0);
  });

  it('asks its own question when chat showed none (the line asks only by the time it runs) or another question', async () => {
    // A hostile model's line that chat judged allowed, which asks once it runs (a link swapped
    // meanwhile): chat showed nothing, so nothing was accepted.
    const { ctx, approver } = setup({ approve: false });
    const fromChat = { ...ctx, call: { ...ctx.call } };
    await assert.rejects(invokeTool(runCommandTool, { command: 'touch unshown.txt' }, fromChat), /The user declined/);
    // Chat showed the question of another line (or of this line for another reason).
    const other = await commandConfirmation({ command: 'touch other.txt' }, ctx);
    assert.ok(other);
    await assert.rejects(invokeTool(runCommandTool, { command: 'touch shown-other.txt' }, { ...ctx, call: { ...ctx.call, chatConfirmation: other.message } }), /The user declined/);
    assert.equal(approver.asked.length, 2);
    assert.ok(!fs.existsSync(path.join(ctx.workspace.folders[0].location.path, 'unshown.txt')));
    assert.ok(!fs.existsSync(path.join(ctx.workspace.folders[0].location.path, 'shown-other.txt')));
  });

  it('prepares a chat confirmation with the command, cwd and reason when the policy asks', async () => {
    const { ctx } = setup();
    const confirmation = await commandConfirmation({ command: 'rm -r sub' }, ctx);
    assert.match(confirmation?.message ?? '', /rm -r sub[\s\S]*in `\.`[\s\S]*rm deletes/);
  });

  it('prepares no chat confirmation for a command the policy runs without asking', async () => {
    const { ctx } = setup();
    assert.equal(await commandConfirmation({ command: 'ls' }, ctx), undefined);
  });

  it('is refused on a virtual workspace, where no process can run', async () => {
    const { ctx } = setup();
    const virtual = { ...ctx, workspace: { ...ctx.workspace, folders: [{ name: 'mem', location: { scheme: 'memfs', authority: '', path: '/' } }] } };
    await assert.rejects(invokeTool(runCommandTool, { command: 'ls' }, virtual), /not available here[\s\S]*virtual workspace/);
  });

  it('is hidden from chat on virtual workspaces by its when clause', () => {
    assert.equal(manifestEntry(runCommandTool).when, '!virtualWorkspace');
  });

  it('is refused in plan mode before anything runs', async () => {
    const { ctx, terminal } = setup({ approve: true });
    await assert.rejects(invokeTool(runCommandTool, { command: 'touch plan.txt' }, { ...ctx, settings: { ...ctx.settings, planMode: true } }), /plan mode/);
    assert.equal(terminal.text, '');
  });
});
