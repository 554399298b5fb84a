// workspace_run_command with runCommand.stageChanges, in the real bubblewrap sandbox over real
// overlays (Linux 5.11+, util-linux's unshare): what a command changes is merged when it ends, and
// execution config it created is held, never merged, whatever git or VS Code do afterwards.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCall, type CallOrigin } from '../../../../../src/core/calls/runCall';
import { checkpointLimits } from '../../../../../src/core/checkpoints/callCheckpoint';
import { GitCheckpointStore } from '../../../../../src/core/checkpoints/node/git/gitCheckpointStore';
import { planRestore } from '../../../../../src/core/checkpoints/restore';
import type { Checkpoint, CheckpointLimits, TouchedPaths } from '../../../../../src/core/ports/checkpoints';
import { runCommandTool } from '../../../../../src/core/tools/command/runCommand';
import { commandOutputTool } from '../../../../../src/core/tools/command/commandOutput';
import { invokeTool } from '../../../../../src/core/tools/invoke';
import { backgroundId } from '../../../../support/commandResults';
import { until } from '../../../../support/until';
import { MemoryActivityLog } from '../../../support/activityLog';
import { alive } from '../../../../support/procfs';
import { commandWorkspace } from '../../../support/commandWorkspace';
import { resultText } from '../../../support/context';
import { childProcesses } from '../../../support/leftoverProcesses';
import { waitingAhead as waitingUnder, type LaunchAhead } from '../../../support/launchesAhead';
import { describeOnlyOn } from '../../../support/platforms';
import { requireProgram } from '../../../support/programs';

describeOnlyOn('linux', 'overlayfs in a user namespace under bubblewrap')('tools/runCommand with staged changes (runCommand.stageChanges)', function () {
  this.timeout(60_000);
  const workspace = commandWorkspace({ staging: true });
  const stagingRoot = (): string => path.join(workspace.privateFolder, 'staged');

  beforeEach(() => {
    const root = workspace.root;
    for (const entry of fs.readdirSync(root)) {
      fs.rmSync(path.join(root, entry), { recursive: true, force: true });
    }
    fs.writeFileSync(path.join(root, 'a.txt'), 'a\n');
    fs.writeFileSync(path.join(root, 'gone.txt'), 'gone\n');
    fs.writeFileSync(path.join(root, 'tool.sh'), 'echo tool\n', { mode: 0o644 });
    fs.mkdirSync(path.join(root, 'remade'));
    fs.writeFileSync(path.join(root, 'remade', 'old.txt'), 'old\n');
  });

  async function run(input: Record<string, unknown>): Promise<string> {
    const { ctx } = workspace.setup({ approve: true, settings: { runCommandStageChanges: true } });
    return resultText(await invokeTool(runCommandTool, input, ctx));
  }

  it('merges what the command changed when it ends (edits, new files, deletions, modes, links, a folder made again) and lists it', async () => {
    const text = await run({ command: 'echo b >> a.txt && echo new > new.txt && rm gone.txt && chmod +x tool.sh && ln -s a.txt link && ln new.txt hard.txt && rm -r remade && mkdir remade && echo n > remade/n.txt' });
    const root = workspace.root;
    assert.match(text, /^Sandbox: bubblewrap: .*changes staged in an overlay and merged when it ends/m);
    assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'a\nb\n');
    assert.equal(fs.readFileSync(path.join(root, 'new.txt'), 'utf8'), 'new\n');
    assert.equal(fs.existsSync(path.join(root, 'gone.txt')), false);
    assert.equal(fs.statSync(path.join(root, 'tool.sh')).mode & 0o111, 0o111);
    assert.equal(fs.readlinkSync(path.join(root, 'link')), 'a.txt');
    assert.equal(fs.statSync(path.join(root, 'hard.txt')).ino, fs.statSync(path.join(root, 'new.txt')).ino);
    assert.deepEqual(fs.readdirSync(path.join(root, 'remade')), ['n.txt']);
    for (const line of ['- M a.txt', '- A new.txt', '- D gone.txt', '- M tool.sh', '- A link', '- A hard.txt']) {
      assert.ok(text.includes(line), `${line} in:\n${text}`);
    }
    // Nothing is kept: every change was merged (what is left is the launch started ahead for the next command, its layers empty).
    assert.doesNotMatch(text, /\(held:|kept in/);
    await workspace.sandbox.staging?.aheadReady();
    assert.ok(fs.readdirSync(stagingRoot()).length <= 1);
    for (const left of fs.readdirSync(stagingRoot())) {
      assert.deepEqual(fs.readdirSync(path.join(stagingRoot(), left, 'upper0')), []);
    }
  });

  it('holds a new repository with a planted core.fsmonitor: git run afterwards outside any sandbox never runs it', async () => {
    const git = requireProgram('git');
    const marker = path.join(workspace.parent, 'fsmonitor-ran');
    const text = await run({ command: `mkdir pkg && cd pkg && git init -q && git config core.fsmonitor "touch ${marker}" && echo code > main.c` });
    const root = workspace.root;
    assert.match(text, /- A pkg\/\.git \(held: /);
    assert.match(text, /- A pkg\/main\.c$/m);
    assert.equal(fs.existsSync(path.join(root, 'pkg', '.git')), false);
    assert.equal(fs.readFileSync(path.join(root, 'pkg', 'main.c'), 'utf8'), 'code\n');
    // As VS Code's git extension does, with the person's own rights.
    spawnSync(git, ['status'], { cwd: path.join(root, 'pkg'), env: { ...process.env, GIT_CEILING_DIRECTORIES: workspace.parent } });
    assert.equal(fs.existsSync(marker), false);
    // Held, not lost: kept for the person's review.
    const kept = /kept in (\S+)\./.exec(text)?.[1];
    assert.ok(kept && fs.existsSync(path.join(kept, 'upper0', 'pkg', '.git', 'config')), text);
    assert.match(fs.readFileSync(path.join(kept, 'upper0', 'pkg', '.git', 'config'), 'utf8'), /fsmonitor/);
  });

  it('holds nested execution config (a .vscode/tasks.json in a subfolder, a *.code-workspace) and merges the rest', async () => {
    const text = await run({ command: 'mkdir -p pkg/.vscode && echo {} > pkg/.vscode/tasks.json && echo {} > pkg/app.code-workspace && echo ok > pkg/ok.txt' });
    const root = workspace.root;
    assert.match(text, /- A pkg\/\.vscode \(held: /);
    assert.match(text, /- A pkg\/app\.code-workspace \(held: /);
    assert.equal(fs.existsSync(path.join(root, 'pkg', '.vscode')), false);
    assert.equal(fs.existsSync(path.join(root, 'pkg', 'app.code-workspace')), false);
    assert.equal(fs.readFileSync(path.join(root, 'pkg', 'ok.txt'), 'utf8'), 'ok\n');
  });

  it("runs the next command over fresh layers while the last one's are still being let go: it never sees what the last one wrote and kept", async () => {
    const keptTasks = (): string[] => fs.readdirSync(stagingRoot()).filter((name) => fs.existsSync(path.join(stagingRoot(), name, 'upper0', 'pkg', '.vscode', 'tasks.json')));
    const keptBefore = keptTasks();
    const first = await run({ command: 'mkdir -p pkg/.vscode && echo {} > pkg/.vscode/tasks.json' });
    assert.match(first, /- A pkg\/\.vscode \(held: /);
    // At once, its layers' removal and the next launch ahead not awaited.
    const second = await run({ command: 'ls pkg/.vscode 2>&1; echo two > two.txt' });
    assert.match(second, /No such file or directory/);
    assert.match(second, /- A two\.txt$/m);
    assert.doesNotMatch(second, /tasks\.json|\(held:/);
    await workspace.sandbox.staging?.aheadReady();
    assert.equal(keptTasks().filter((name) => !keptBefore.includes(name)).length, 1, "the first command's held change is still kept");
  });

  it("keeps the person's own edit made while the command ran: the conflict is held, not resolved silently", async () => {
    const root = workspace.root;
    // The command waits for the gate's content: a file it has not written is read from the folder
    // itself, where a new name would stay unseen (overlayfs keeps the lookup that missed it).
    fs.writeFileSync(path.join(root, 'gate'), 'wait\n');
    const running = run({ command: 'touch started; while [ "$(cat gate)" != go ]; do sleep 0.05; done; echo command > a.txt; echo other > b.txt' });
    // Once the command runs (its first write is in its upper layer), an edit is the person's, made while it ran.
    const started = (): boolean => fs.existsSync(stagingRoot()) && fs.readdirSync(stagingRoot()).some((run) => fs.existsSync(path.join(stagingRoot(), run, 'upper0', 'started')));
    while (!started()) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    fs.writeFileSync(path.join(root, 'a.txt'), 'person\n');
    fs.writeFileSync(path.join(root, 'gate'), 'go\n');
    const text = await running;
    assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'person\n');
    assert.equal(fs.readFileSync(path.join(root, 'b.txt'), 'utf8'), 'other\n');
    assert.match(text, /- M a\.txt \(held: changed in the folder while the command ran/);
  });

  it('merges what a command stopped at its timeout had written', async () => {
    const text = await run({ command: 'echo partial > partial.txt; sleep 30', timeout: 1, on_timeout: 'kill' });
    assert.match(text, /stopped/i);
    assert.equal(fs.readFileSync(path.join(workspace.root, 'partial.txt'), 'utf8'), 'partial\n');
    assert.match(text, /- A partial\.txt/);
  });

  it('merges a command that moved to the background at its timeout when it ends, and says what it changed in its last output', async () => {
    const { ctx } = workspace.setup({ approve: true, settings: { runCommandStageChanges: true } });
    const moved = resultText(await invokeTool(runCommandTool, { command: 'sleep 2; echo late > late.txt', timeout: 1 }, ctx));
    const id = backgroundId(moved);
    assert.equal(fs.existsSync(path.join(workspace.root, 'late.txt')), false);
    const ended = resultText(await invokeTool(commandOutputTool, { id, timeout: 30 }, ctx));
    assert.match(ended, /Changes \(staged, merged when the command ended\):\n- A late\.txt/, ended);
    assert.equal(fs.readFileSync(path.join(workspace.root, 'late.txt'), 'utf8'), 'late\n');
  });

  /** The launch started ahead for the next command, once it waits: its pid and its staging folder. */
  async function waitingAhead(): Promise<LaunchAhead> {
    assert.equal(await workspace.sandbox.staging?.aheadReady(), true, 'no launch started ahead');
    return waitingUnder(stagingRoot());
  }

  async function gone(pid: number): Promise<void> {
    while (alive(pid)) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('runs a command through the launch started ahead as through the plain one: output, exit code, cwd, stdin at its end, environment, merge', async () => {
    const root = workspace.root;
    fs.mkdirSync(path.join(root, 'sub'));
    fs.writeFileSync(path.join(root, 'gate'), 'go\n');
    const line = (name: string): string => `touch ../started; while [ "$(cat ../gate)" != go ]; do sleep 0.05; done; pwd; cat; echo "stdin $?"; echo err >&2; env | sort > ../${name}.env; echo ${name} > ../${name}.txt; exit 5`;
    // A plain launch first: the one waiting is ended, and is then discarded as stale.
    await run({ command: 'echo warm > warm.txt' });
    const stale = await waitingAhead();
    process.kill(stale.pid, 'SIGKILL');
    await gone(stale.pid);
    const plain = await run({ command: line('plain'), cwd: 'sub' });
    assert.equal(fs.existsSync(stale.staging), false);
    fs.rmSync(path.join(root, 'started'));
    // Then through the one started after it, held at its gate until the host sees it ran there.
    const ahead = await waitingAhead();
    fs.writeFileSync(path.join(root, 'gate'), 'wait\n');
    const running = run({ command: line('ahead'), cwd: 'sub' });
    while (!fs.existsSync(path.join(ahead.staging, 'upper0', 'started'))) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(childProcesses(ahead.pid).length > 0, 'the launch started ahead runs the command');
    fs.writeFileSync(path.join(root, 'gate'), 'go\n');
    const adopted = await running;
    const shown = (text: string): string => text.replace(/^Duration: .*$/m, '').replace(/^Full log: .*$/m, '').replace(/(plain|ahead)\.(env|txt)/g, 'NAME.$2');
    assert.match(adopted, /^Exit code: 5$/m);
    assert.match(adopted, new RegExp(`^${path.join(root, 'sub')}\nstdin 0$`, 'm'));
    assert.equal(shown(adopted), shown(plain));
    assert.equal(fs.readFileSync(path.join(root, 'ahead.env'), 'utf8'), fs.readFileSync(path.join(root, 'plain.env'), 'utf8'));
    assert.equal(fs.readFileSync(path.join(root, 'ahead.txt'), 'utf8'), 'ahead\n');
    await gone(ahead.pid);
  });

  it('stops the whole tree of a command run through the launch started ahead', async () => {
    await run({ command: 'echo warm > warm.txt' });
    const ahead = await waitingAhead();
    const text = await run({ command: 'sleep 313 & echo $! > bg.pid; echo partial > partial.txt; sleep 314', timeout: 1, on_timeout: 'kill' });
    assert.match(text, /stopped/i);
    assert.equal(fs.readFileSync(path.join(workspace.root, 'partial.txt'), 'utf8'), 'partial\n');
    await gone(ahead.pid);
    const sleeps = fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).filter((pid) => {
      try {
        return /^sleep\0(313|314)\0$/.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      } catch {
        return false;
      }
    });
    assert.deepEqual(sleeps, []);
  });

  it('discards a launch started ahead whose layers are not as made, and runs the command without it', async () => {
    await run({ command: 'echo warm > warm.txt' });
    const ahead = await waitingAhead();
    fs.writeFileSync(path.join(ahead.staging, 'upper0', 'planted.txt'), 'planted\n');
    const text = await run({ command: 'echo ran > ran.txt' });
    assert.match(text, /- A ran\.txt/);
    assert.doesNotMatch(text, /planted/);
    assert.equal(fs.existsSync(path.join(workspace.root, 'planted.txt')), false);
    await gone(ahead.pid);
    assert.equal(fs.existsSync(ahead.staging), false);
  });

  describe("the call's checkpoints", () => {
    const MCP: CallOrigin = { client: 'mcp:test' };

    /** The real store, telling the test when each checkpoint starts and ends; the first (the call's "before") waits for `gate` first. */
    class ObservedStore extends GitCheckpointStore {
      readonly events: string[] = [];
      gate: (() => Promise<void>) | undefined;

      override async take(folders: readonly string[], limits: CheckpointLimits, keep?: readonly string[], touched?: readonly TouchedPaths[]): Promise<Checkpoint> {
        const n = this.events.filter((event) => event.startsWith('start')).length;
        this.events.push(`start ${n}`);
        if (n === 0) {
          await this.gate?.();
        }
        const taken = await super.take(folders, limits, keep, touched);
        this.events.push(`end ${n}`);
        return taken;
      }
    }

    let store: ObservedStore;
    let log: MemoryActivityLog;
    // The test's signal to a waiting command, outside the workspace: a file made in a folder while an overlay of it is mounted may never show there.
    let signals: string;
    beforeEach(() => {
      store = new ObservedStore(path.join(workspace.parent, `store-${Date.now()}`));
      log = new MemoryActivityLog();
      signals = fs.mkdtempSync(path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : os.homedir(), 'wat-signals-'));
    });
    afterEach(async () => {
      await store.endAhead();
      fs.rmSync(signals, { recursive: true, force: true });
    });
    const waitForGo = (): string => `while [ ! -e ${signals}/go ]; do sleep 0.05; done`;
    const go = (): void => fs.writeFileSync(path.join(signals, 'go'), '');

    function call(input: Record<string, unknown>) {
      const { ctx } = workspace.setup({ approve: true, settings: { runCommandStageChanges: true } });
      return { ctx, result: runCall(runCommandTool, input, { context: ctx, activity: log, checkpoints: store }, MCP).then(resultText) };
    }

    /** Every file under the folder with its mode and bytes (folders left out: git records none). */
    function files(dir = workspace.root, relative = ''): Record<string, string> {
      const out: Record<string, string> = {};
      for (const name of fs.readdirSync(dir)) {
        const full = path.join(dir, name);
        const stat = fs.lstatSync(full);
        if (stat.isDirectory()) Object.assign(out, files(full, `${relative}${name}/`));
        else out[`${relative}${name}`] = `${(stat.mode & 0o777).toString(8)}:${fs.readFileSync(full, 'utf8')}`;
      }
      return out;
    }

    const changed = (): string[] => (log.only().changedPaths ?? []).map((change) => `${change.kind} ${change.path}`).sort();

    it("takes the \"before\" while the command runs, and the merge waits for it", async () => {
      // The command's write lands in its own layer: seen there, the command is running.
      const inLayer = (): boolean => fs.existsSync(stagingRoot()) && fs.readdirSync(stagingRoot()).some((run) => fs.existsSync(path.join(stagingRoot(), run, 'upper0', 'started.txt')));
      let running = false;
      store.gate = async () => {
        // Bounded only so that a "before" taken ahead of the command (the order without staging) fails the test instead of hanging it.
        running = await until(inLayer, 'the command').then(() => true, () => false);
      };
      const text = await call({ command: 'echo started > started.txt' }).result;
      assert.ok(running, `the "before" was taken once the command had written to its layer:\n${text}`);
      assert.equal(fs.readFileSync(path.join(workspace.root, 'started.txt'), 'utf8'), 'started\n');
      // Merged after the "before": the call's change.
      assert.deepEqual(changed(), ['created started.txt']);
    });

    it("records what the merge wrote: the person's own edit elsewhere meanwhile is not the command's; Restore to Before This Call is exact", async () => {
      const root = workspace.root;
      const { ctx, result } = call({ command: `${waitForGo()}; echo command >> a.txt; echo new > new.txt; rm gone.txt; rm -r remade` });
      await until(() => store.events.includes('end 0'), 'the "before"');
      const atBefore = files();
      // The person's edits while the command runs, after its "before".
      fs.writeFileSync(path.join(root, 'person.txt'), 'mine\n');
      fs.writeFileSync(path.join(root, 'tool.sh'), 'echo edited\n');
      go();
      const text = await result;
      assert.match(text, /- A new\.txt/);
      assert.deepEqual(changed(), ['created new.txt', 'deleted gone.txt', 'deleted remade/old.txt', 'modified a.txt']);
      assert.deepEqual(store.events, ['start 0', 'end 0', 'start 1', 'end 1']);
      const before = store.get(log.only().checkpoint!.before);
      assert.ok(before);
      const plan = await planRestore(before, store, ctx.workspace, checkpointLimits(ctx.settings), { unsaved: () => [] });
      assert.ok('steps' in plan, JSON.stringify(plan));
      for (const step of plan.steps) {
        const target = path.join(step.folder, step.path);
        fs.rmSync(target, { force: true });
        if (step.action === 'write') {
          fs.mkdirSync(path.dirname(target), { recursive: true });
          fs.writeFileSync(target, await step.entry!.read(), { mode: step.entry!.executable ? 0o755 : 0o644 });
        }
      }
      assert.deepEqual(files(), atBefore);
    });

    it('takes the deferred "after" of a command that moved to the background over what its merge wrote', async () => {
      const root = workspace.root;
      const { ctx, result } = call({ command: `${waitForGo()}; echo late > late.txt`, timeout: 1 });
      const id = backgroundId(await result);
      await until(() => store.events.includes('end 0'), 'the "before"');
      fs.writeFileSync(path.join(root, 'person.txt'), 'mine\n');
      go();
      assert.match(resultText(await invokeTool(commandOutputTool, { id, timeout: 30 }, ctx)), /- A late\.txt/);
      await until(() => log.only().checkpoint?.after !== undefined, 'the deferred "after"');
      assert.deepEqual(changed(), ['created late.txt']);
    });
  });

  it('runs read-only lines unstaged, as before', async () => {
    const text = await run({ command: 'cat a.txt' });
    assert.doesNotMatch(text, /staged|Changes/);
    assert.equal(execFileSync('cat', [path.join(workspace.root, 'a.txt')], { encoding: 'utf8' }), 'a\n');
  });
});
