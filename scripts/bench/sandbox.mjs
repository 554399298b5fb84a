// @ts-check
// What the command sandbox costs per command: workspace_run_command with runCommand.sandbox off
// against the same call sandboxed (bubblewrap), on a small project and on the kernel tree, with the
// index of secret and protected files warm (sandbox/scanIndex.ts: no walk per command) and, for
// comparison, with today's walk per command (no index); and bubblewrap's own start against sh alone,
// the floor of what a sandbox can cost. Then the command's standard input (DESIGN's "stdin is a terminal
// or end of file"): sh started with today's pipe, with end of file (/dev/null, every command's now), and
// through the pseudoterminal helper (interactive: true), alone and inside bare bwrap; and the tool's call
// with and without interactive: true.
import { mkdirSync, mkdtempSync, promises as fs, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { compiled, ourCommandHost, ourContext, ourTool, runTool } from './ourContext.mjs';
import { printTable, ratio } from './measure.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { ensureTree } from './search.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RIPGREP = path.join(repo, 'node_modules/@vscode/ripgrep-linux-x64/bin/rg');
const RUNS = 21;

/** A project of a few hundred files with a .env, a .git folder and a .vscode folder. */
function smallProject() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'wat-bench-sandbox-'));
  for (let folder = 0; folder < 20; folder += 1) {
    mkdirSync(path.join(root, 'src', `m${folder}`), { recursive: true });
    for (let file = 0; file < 20; file += 1) writeFileSync(path.join(root, 'src', `m${folder}`, `f${file}.ts`), 'export {};\n');
  }
  mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
  writeFileSync(path.join(root, '.git', 'config'), '[core]\n');
  mkdirSync(path.join(root, '.vscode'));
  writeFileSync(path.join(root, '.env'), 'A=1\n');
  return root;
}

/**
 * A subject timed alone, or one with untimed work around it: `ahead` before the timer starts (what
 * the extension can do before the command comes), `after` once it stops (after the result).
 * @typedef {(() => Promise<void>) | { ahead: () => any, run: (prepared: any) => Promise<void>, after: (prepared: any) => Promise<void> }} Subject
 */

/**
 * The median of each subject's wall time, the subjects run in turn RUNS times after one warm-up
 * round, with each one's quartiles (the spread).
 * @template {string} K
 * @param {Record<K, Subject>} subjects
 * @returns {Promise<Record<K, number> & { quartiles: Record<K, [number, number]> }>}
 */
async function interleavedMedians(subjects) {
  const names = /** @type {K[]} */ (Object.keys(subjects));
  /** @type {Record<string, number[]>} */
  const times = {};
  for (let round = -1; round < RUNS; round += 1) {
    for (const name of names) {
      /** @type {Subject} */
      const subject = subjects[name];
      const prepared = typeof subject === 'function' ? undefined : await subject.ahead();
      const start = performance.now();
      await (typeof subject === 'function' ? subject() : subject.run(prepared));
      if (round >= 0) (times[name] ??= []).push(performance.now() - start);
      if (typeof subject !== 'function') await subject.after(prepared);
    }
  }
  /** @type {Record<string, number>} */
  const medians = {};
  /** @type {Record<string, [number, number]>} */
  const quartiles = {};
  for (const name of names) {
    const sorted = times[name].sort((a, b) => a - b);
    medians[name] = sorted[Math.floor(RUNS / 2)];
    quartiles[name] = [sorted[Math.floor(RUNS / 4)], sorted[Math.floor((3 * RUNS) / 4)]];
  }
  return /** @type {Record<K, number> & { quartiles: Record<K, [number, number]> }} */ ({ ...medians, quartiles });
}

/** @param {string} command @param {string[]} args */
function spawnOk(command, args) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${command} exited ${result.status}: ${result.stderr}`);
}

/**
 * Runs argv to its end with stdin a pipe left open (before), end of file, or through the terminal helper.
 * @param {string[]} argv @param {'pipe' | 'ignore'} stdin
 */
function spawnDone(argv, stdin) {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: [stdin, 'pipe', 'pipe'], detached: true });
    child.stdin?.on('error', () => undefined);
    child.stdout?.resume();
    child.stderr?.resume();
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(undefined) : reject(new Error(`${argv.join(' ')} exited ${code}`))));
  });
}

/** @param {string} ms */
const plus = (ms) => `+${ms}`;

/** @type {typeof import('../../src/core/sandbox/node/overlayLaunch.js')} */
const overlayLaunch = compiled('core/sandbox/node/overlayLaunch');
/** @type {typeof import('../../src/core/sandbox/node/upperLayer.js')} */
const upperLayer = compiled('core/sandbox/node/upperLayer');
/** @type {typeof import('../../src/core/sandbox/staging.js')} */
const staging = compiled('core/sandbox/staging');
const UNSHARE = '/usr/bin/unshare';
const BASH = '/bin/bash';

/**
 * A staging folder for `root`, made ahead of its command as the extension can keep one ready (a
 * volatile overlay's work folder serves one mount only).
 * @param {string} root
 */
function stagingAhead(root) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wat-bench-staged-'));
  const [layer] = overlayLaunch.stagingLayout(dir, [root]);
  for (const each of [layer.lower, layer.upper, layer.work]) mkdirSync(each);
  return { dir, layer, ahead: /** @type {{ child: import('node:child_process').ChildProcess, closed: Promise<unknown> } | undefined} */ (undefined) };
}

/**
 * A staging folder and its launch started ahead (stagedLaunchAhead), once its shell waits on the hold.
 * @param {string} root
 */
async function launchAhead(root) {
  const staged = stagingAhead(root);
  const [program, ...args] = overlayLaunch.stagedLaunchAhead(UNSHARE, BASH, [staged.layer]);
  const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
  const closed = new Promise((resolve) => child.once('close', resolve));
  // Waiting means bash asleep on its first read (the only place it blocks before the line).
  for (;;) {
    const stat = await fs.readFile(`/proc/${child.pid}/stat`, 'utf8').catch(() => '');
    if (stat.includes('(bash) S')) break;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return { ...staged, ahead: { child, closed } };
}

/** Removes a staging folder once its command's result is given. @param {ReturnType<typeof stagingAhead>} staged */
async function removeStaging({ dir, layer }) {
  await overlayLaunch.openWorkFolder(layer.work);
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Issue 40's staged command, as far as it is built: bare bubblewrap nested over an overlay of `root`
 * (in a staging folder made ahead), the upper layer read, planned and merged. Returns how many
 * entries the command changed.
 * @param {string[]} bare bubblewrap's argv up to `--` @param {string} root @param {string} script
 * @param {ReturnType<typeof stagingAhead>} staged
 */
async function stagedRun(bare, root, script, { layer, ahead }) {
  const { uid, gid } = os.userInfo();
  const nested = [bare[0], ...overlayLaunch.nestedBubblewrapOptions(uid, gid), ...bare.slice(1).filter((arg) => arg !== '--'), '--bind', root, root, '--chdir', root, '--', '/bin/sh', '-c', script];
  let child = ahead?.child;
  if (child) {
    /** @type {import('node:stream').Duplex[]} */ (/** @type {unknown} */ (child.stdio))[overlayLaunch.ARGS_FD].end(`${nested.join('\0')}\0`);
    /** @type {import('node:stream').Duplex} */ (child.stdio[overlayLaunch.HOLD_FD]).write('go\n');
  } else {
    const [program, ...args] = overlayLaunch.stagedLaunch(UNSHARE, [layer], nested);
    child = spawn(program, args, { stdio: ['ignore', 'ignore', 'ignore', 'ignore', 'pipe'] });
  }
  const closed = ahead?.closed ?? new Promise((resolve) => child.once('close', resolve));
  const hold = /** @type {import('node:stream').Duplex} */ (child.stdio[overlayLaunch.HOLD_FD]);
  const exit = await overlayLaunch.commandEnded(hold);
  const plain = await upperLayer.readUpperLayer(layer.upper);
  const opaque = await overlayLaunch.opaqueFoldersThrough(/** @type {number} */ (child.pid), layer, plain);
  hold.end('\n');
  if (exit !== 0 || (await closed) !== 0) throw new Error(`the staged command exited ${exit}`);
  const entries = await upperLayer.readUpperLayer(layer.upper, opaque);
  const plan = staging.planMerge(entries, await upperLayer.lowerFactsOf(root, entries, Infinity));
  await upperLayer.applyMerge(plan, layer.upper, root);
  return plan.changes.length;
}

/** @param {import('./measure.mjs').BenchContext} context */
export async function benchSandbox({ log, scratchDir }) {
  const logs = mkdtempSync(path.join(os.tmpdir(), 'wat-bench-logs-'));
  const indexed = ourCommandHost(logs, RIPGREP);
  const walking = ourCommandHost(logs, RIPGREP, { scanIndex: false });
  const availability = await indexed.host.sandbox.availability('');
  if (availability.kind === 'none') {
    log(`No sandbox on this machine (${availability.reason}); nothing to measure.`);
    indexed.dispose();
    walking.dispose();
    return;
  }
  /** @type {typeof import('../../src/core/guard/protectedNames.js')} */
  const { workspaceScanGlobs } = compiled('core/guard/protectedNames');
  const index = indexed.sandbox.scanIndex;
  const small = smallProject();
  const tree = await ensureTree(scratchDir, log);
  const tool = ourTool('workspace_run_command');
  /** @type {typeof import('../../src/core/process/node/terminalInput.js')} */
  const { terminalHelperArgv, terminalHelperPython } = compiled('core/process/node/terminalInput');
  const python = terminalHelperPython(process.env);
  /** @param {string} root @param {'off' | 'auto'} mode @param {import('../../src/core/ports/process.js').CommandHost} host @param {boolean} [interactive] */
  const call = (root, mode, host, interactive = false) => async () => {
    const ctx = ourContext({ root, ripgrepPath: RIPGREP, commands: host, settings: { runCommandSandbox: mode } });
    const result = await runTool(tool, { command: 'true', interactive }, ctx);
    const text = result.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
    if (!text.startsWith('Exit code: 0')) throw new Error(`the call failed: ${text}`);
  };
  const cases = /** @type {const} */ ([['small project (400 files)', 'small'], [tree.label, 'tree']]);
  const roots = { small, tree: tree.root };
  /** @type {(string | number)[][]} */
  const rows = [];
  /** @type {string[]} */
  const notes = [];
  /** @type {string[][]} */
  const stdinRows = [];
  /** @type {string[][]} */
  const stagedRows = [];
  try {
    for (const [label, key] of cases) {
      const root = roots[key];
      // The index is built in the background (the extension starts it at activation); timed here once.
      const start = performance.now();
      index?.track([root]);
      await index?.settled();
      const status = index?.status().find((each) => each.folder === root);
      if (status?.state !== 'ready') throw new Error(`the index of ${root} is ${status?.state}: ${status?.reason}`);
      // The index must list exactly what the walk lists.
      const fromIndex = (await index?.lookup([root]))?.files ?? [];
      const fromWalk = ((await walking.host.sandbox.listFiles([root], workspaceScanGlobs(), { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) })) ?? []).sort();
      if (JSON.stringify(fromIndex) !== JSON.stringify(fromWalk)) throw new Error(`the index of ${root} lists ${fromIndex.length} files, the walk ${fromWalk.length}`);
      notes.push(`${label}: index built in ${(performance.now() - start).toFixed(0)} ms (background, once), ${status.watched} folders watched, ${fromIndex.length} files listed, the same as the walk's.`);
    }
    // Every subject in one interleaved loop, one run of each in turn: the machine's load drifts
    // between rounds, not between subjects, so the rows compare.
    const bare = [availability.executable, '--die-with-parent', '--unshare-pid', '--unshare-net', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--'];
    const helper = python ? terminalHelperArgv(python) : [];
    const m = await interleavedMedians({
      sh: async () => spawnOk('/bin/sh', ['-c', 'true']),
      bwrap: async () => spawnOk(availability.executable, [...bare.slice(1), '/bin/sh', '-c', 'true']),
      shPipe: () => spawnDone(['/bin/sh', '-c', 'true'], 'pipe'),
      shEof: () => spawnDone(['/bin/sh', '-c', 'true'], 'ignore'),
      shTerminal: () => (python ? spawnDone([...helper, '/bin/sh', '-c', 'true'], 'pipe') : Promise.resolve()),
      bwrapPipe: () => spawnDone([...bare, '/bin/sh', '-c', 'true'], 'pipe'),
      bwrapEof: () => spawnDone([...bare, '/bin/sh', '-c', 'true'], 'ignore'),
      bwrapTerminal: () => (python ? spawnDone([...bare, ...helper, '/bin/sh', '-c', 'true'], 'pipe') : Promise.resolve()),
      smallOnInteractive: call(small, 'auto', indexed.host, true),
      smallOff: call(small, 'off', indexed.host),
      smallOn: call(small, 'auto', indexed.host),
      smallWalk: call(small, 'auto', walking.host),
      treeOff: call(tree.root, 'off', indexed.host),
      treeOn: call(tree.root, 'auto', indexed.host),
      treeWalk: call(tree.root, 'auto', walking.host),
      stagedSmall: { ahead: () => stagingAhead(small), run: async (staged) => void (await stagedRun(bare, small, 'true', staged)), after: removeStaging },
      stagedTree: { ahead: () => stagingAhead(tree.root), run: async (staged) => void (await stagedRun(bare, tree.root, 'true', staged)), after: removeStaging },
      stagedTreeAhead: { ahead: () => launchAhead(tree.root), run: async (staged) => void (await stagedRun(bare, tree.root, 'true', staged)), after: removeStaging },
      stagingFolder: () => removeStaging(stagingAhead(small)),
    });
    // Issue 40's merge: ten files, then an install's churn (10,000 new files), made in a folder
    // removed after each run so every run merges the same.
    const ten = 'mkdir .wat-bench-ten && for i in 1 2 3 4 5 6 7 8 9 10; do echo "$i" > .wat-bench-ten/f$i; done';
    const churn = 'mkdir .wat-bench-churn && cd .wat-bench-churn && i=0 && while [ $i -lt 100 ]; do mkdir d$i && (cd d$i && touch a0 a1 a2 a3 a4 a5 a6 a7 a8 a9 b0 b1 b2 b3 b4 b5 b6 b7 b8 b9 c0 c1 c2 c3 c4 c5 c6 c7 c8 c9 d0 d1 d2 d3 d4 d5 d6 d7 d8 d9 e0 e1 e2 e3 e4 e5 e6 e7 e8 e9 f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 g0 g1 g2 g3 g4 g5 g6 g7 g8 g9 h0 h1 h2 h3 h4 h5 h6 h7 h8 h9 i0 i1 i2 i3 i4 i5 i6 i7 i8 i9 j0 j1 j2 j3 j4 j5 j6 j7 j8 j9); i=$((i + 1)); done';
    /** @param {string} root @param {string} script @param {string} made @param {number} runs */
    const timedMerge = async (root, script, made, runs) => {
      const times = [];
      let changed = 0;
      for (let run = 0; run < runs; run += 1) {
        const staged = stagingAhead(root);
        const start = performance.now();
        changed = await stagedRun(bare, root, script, staged);
        times.push(performance.now() - start);
        await removeStaging(staged);
        rmSync(path.join(root, made), { recursive: true, force: true });
      }
      return { ms: times.sort((a, b) => a - b)[Math.floor(runs / 2)], changed };
    };
    const tenInTree = await timedMerge(tree.root, ten, '.wat-bench-ten', RUNS);
    const churnInSmall = await timedMerge(small, churn, '.wat-bench-churn', 3);
    const bwrapAdded = m.bwrap - m.sh;
    for (const [label, key] of cases) {
      const off = key === 'small' ? m.smallOff : m.treeOff;
      const on = key === 'small' ? m.smallOn : m.treeOn;
      const walk = key === 'small' ? m.smallWalk : m.treeWalk;
      rows.push([`run_command 'true', ${label}, index warm`, off.toFixed(1), on.toFixed(1), ratio(on, off), plus((on - off).toFixed(1)), plus((on - off - bwrapAdded).toFixed(1))]);
      rows.push([`run_command 'true', ${label}, walk per command (no index)`, off.toFixed(1), walk.toFixed(1), ratio(walk, off), plus((walk - off).toFixed(1)), plus((walk - off - bwrapAdded).toFixed(1))]);
    }
    rows.push(['sh -c true alone vs inside bare bwrap', m.sh.toFixed(1), m.bwrap.toFixed(1), ratio(m.bwrap, m.sh), plus(bwrapAdded.toFixed(1)), '+0.0']);
    /** @param {'bwrap' | 'stagedSmall' | 'stagedTree' | 'stagedTreeAhead' | 'stagingFolder'} name */
    const spread = (name) => `${m.quartiles[name][0].toFixed(1)}-${m.quartiles[name][1].toFixed(1)}`;
    stagedRows.push(['bare bwrap vs staged over an overlay, small project (budget +10 ms)', m.bwrap.toFixed(1), m.stagedSmall.toFixed(1), ratio(m.stagedSmall, m.bwrap), plus((m.stagedSmall - m.bwrap).toFixed(1))]);
    stagedRows.push([`bare bwrap vs staged over an overlay, ${tree.label} (budget +10 ms)`, m.bwrap.toFixed(1), m.stagedTree.toFixed(1), ratio(m.stagedTree, m.bwrap), plus((m.stagedTree - m.bwrap).toFixed(1))]);
    stagedRows.push([`bare bwrap vs staged, unshare and bash started ahead, ${tree.label}`, m.bwrap.toFixed(1), m.stagedTreeAhead.toFixed(1), ratio(m.stagedTreeAhead, m.bwrap), plus((m.stagedTreeAhead - m.bwrap).toFixed(1))]);
    stagedRows.push([`  quartiles: bare bwrap ${spread('bwrap')}, staged small ${spread('stagedSmall')}, staged tree ${spread('stagedTree')}, ahead ${spread('stagedTreeAhead')}`, '', '', '', '']);
    stagedRows.push(['staging folder made ahead and removed after the result (not in the rows above)', '', m.stagingFolder.toFixed(1), '', `${spread('stagingFolder')} quartiles`]);
    stagedRows.push([`staged 'true' vs staged, 10 new files merged, ${tree.label} (${tenInTree.changed} changes)`, m.stagedTree.toFixed(1), tenInTree.ms.toFixed(1), ratio(tenInTree.ms, m.stagedTree), `${((tenInTree.ms - m.stagedTree) / tenInTree.changed).toFixed(2)} per change`]);
    stagedRows.push([`staged 'true' vs staged, install-like churn merged (${churnInSmall.changed} changes, p50 of 3)`, m.stagedSmall.toFixed(1), churnInSmall.ms.toFixed(1), ratio(churnInSmall.ms, m.stagedSmall), `${((churnInSmall.ms - m.stagedSmall) / churnInSmall.changed).toFixed(3)} per change`]);
    /** @param {string} label @param {number} before @param {number} now */
    const stdinRow = (label, before, now) => [label, before.toFixed(1), now.toFixed(1), ratio(now, before), `${now >= before ? '+' : ''}${(now - before).toFixed(1)}`];
    stdinRows.push(stdinRow('sh -c true: pipe (before) vs end of file (every command now)', m.shPipe, m.shEof));
    stdinRows.push(stdinRow('inside bare bwrap: pipe vs end of file', m.bwrapPipe, m.bwrapEof));
    if (python) {
      stdinRows.push(stdinRow(`sh -c true: pipe vs pty helper (interactive: true; ${python})`, m.shPipe, m.shTerminal));
      stdinRows.push(stdinRow('inside bare bwrap: pipe vs pty helper', m.bwrapPipe, m.bwrapTerminal));
      stdinRows.push(stdinRow('run_command \'true\', small project, sandboxed: default vs interactive: true', m.smallOn, m.smallOnInteractive));
    } else {
      notes.push('No python3 here: interactive: true gives a pipe, and the pty helper rows are left out.');
    }
  } finally {
    indexed.dispose();
    walking.dispose();
    rmSync(small, { recursive: true, force: true });
    rmSync(logs, { recursive: true, force: true });
  }
  printTable(log, ['case (p50 of ' + RUNS + ')', 'unsandboxed ms', 'sandboxed ms', 'ratio', 'added ms', 'added over bare bwrap ms'], rows);
  log('');
  printTable(log, ['stdin (p50 of ' + RUNS + ')', 'before ms', 'now ms', 'ratio', 'added ms'], stdinRows);
  log('');
  printTable(log, ["staged changes (issue 40, the launch without the tool; p50 of " + RUNS + ')', 'before ms', 'now ms', 'ratio', 'added ms'], stagedRows);
  notes.forEach((note) => log(note));
  log(`Load average at the end: ${os.loadavg().map((load) => load.toFixed(2)).join(', ')} on ${os.cpus().length} cores.`);
}

/** The user and system CPU seconds of this process's ended children (they are waited for), from /proc/self/stat. */
async function childrenCpu() {
  const fields = (await fs.readFile('/proc/self/stat', 'utf8')).split(') ')[1].split(' ');
  // cutime and cstime, fields 16 and 17, in clock ticks (100 a second on Linux).
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/**
 * `npm run bench -- staged`: the staged rows alone, the wired path among them: workspace_run_command
 * with runCommand.stageChanges through the launch started ahead (the extension's own, waited for
 * before the timer starts as it is between an agent's commands), against the same call in today's
 * sandbox and bare bubblewrap, on the kernel tree; with the CPU seconds of each subject's processes
 * (the launch started ahead counted with the command it served) and of the extension host itself
 * (until the layers are removed and the next launch ahead started), which the machine's load changes less.
 * @param {import('./measure.mjs').BenchContext} context
 */
export async function benchStaged({ log, scratchDir }) {
  const logs = mkdtempSync(path.join(os.tmpdir(), 'wat-bench-logs-'));
  const stagingRoot = mkdtempSync(path.join(os.tmpdir(), 'wat-bench-staging-'));
  const indexed = ourCommandHost(logs, RIPGREP, { stagingRoot: path.join(stagingRoot, 'staged') });
  const availability = await indexed.host.sandbox.availability('');
  const staging = indexed.sandbox.staging;
  if (availability.kind !== 'bubblewrap' || !staging) {
    log(`No bubblewrap staging here; nothing to measure.`);
    indexed.dispose();
    return;
  }
  const found = await ensureTree(scratchDir, log);
  // Its real path: bubblewrap binds a writable folder at the path it is given, which a link in it would break.
  const tree = { ...found, root: realpathSync(found.root) };
  indexed.sandbox.scanIndex?.track([tree.root]);
  await indexed.sandbox.scanIndex?.settled();
  const tool = ourTool('workspace_run_command');
  // A line that may write (so it is staged) and changes nothing: the launch alone, no merge.
  const line = 'mkdir -p scripts';
  /** @param {boolean} staged */
  const call = (staged) => async () => {
    const ctx = ourContext({ root: tree.root, ripgrepPath: RIPGREP, commands: indexed.host, settings: { runCommandSandbox: 'auto', runCommandStageChanges: staged } });
    const approving = { ...ctx, session: { ...ctx.session, approver: { confirm: async () => true, choose: async () => /** @type {const} */ ('accept') } } };
    const result = await runTool(tool, { command: line }, approving);
    const text = result.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
    if (!text.startsWith('Exit code: 0') || (staged && !/changes staged/.test(text))) throw new Error(`the call failed: ${text}`);
  };
  const bare = [availability.executable, '--die-with-parent', '--unshare-pid', '--unshare-net', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--'];
  /** @type {Record<string, Subject>} */
  const subjects = {
    bwrap: async () => spawnOk(availability.executable, [...bare.slice(1), '/bin/sh', '-c', 'true']),
    sandboxed: call(false),
    wired: { ahead: () => staging.aheadReady(), run: call(true), after: async () => undefined },
    wiredPlain: { ahead: async () => staging.aheadReady().then(() => staging.discardAhead()), run: call(true), after: async () => undefined },
    stagedTree: { ahead: () => stagingAhead(tree.root), run: async (staged) => void (await stagedRun(bare, tree.root, 'true', staged)), after: removeStaging },
    stagedTreeAhead: { ahead: () => launchAhead(tree.root), run: async (staged) => void (await stagedRun(bare, tree.root, 'true', staged)), after: removeStaging },
  };
  /** @type {Record<string, number[]>} */
  const wall = {};
  /** @type {Record<string, number>} */
  const cpu = {};
  /** @type {Record<string, number>} */
  const hostCpu = {};
  try {
    for (let round = -1; round < RUNS; round += 1) {
      for (const [name, subject] of Object.entries(subjects)) {
        const cpuBefore = await childrenCpu();
        const hostBefore = process.cpuUsage();
        const prepared = typeof subject === 'function' ? undefined : await subject.ahead();
        const start = performance.now();
        await (typeof subject === 'function' ? subject() : subject.run(prepared));
        const ms = performance.now() - start;
        if (typeof subject !== 'function') await subject.after(prepared);
        // The wired call's next launch ahead is started after it: counted with it.
        if (name.startsWith('wired')) await staging.aheadReady();
        if (round >= 0) {
          (wall[name] ??= []).push(ms);
          cpu[name] = (cpu[name] ?? 0) + (await childrenCpu()) - cpuBefore;
          const host = process.cpuUsage(hostBefore);
          hostCpu[name] = (hostCpu[name] ?? 0) + (host.user + host.system) / 1000;
        }
      }
    }
  } finally {
    indexed.dispose();
    rmSync(logs, { recursive: true, force: true });
    rmSync(stagingRoot, { recursive: true, force: true });
  }
  /** @param {string} name */
  const median = (name) => wall[name].sort((a, b) => a - b)[Math.floor(RUNS / 2)];
  /** @param {string} name */
  const spread = (name) => `${wall[name][Math.floor(RUNS / 4)].toFixed(1)}-${wall[name][Math.floor((3 * RUNS) / 4)].toFixed(1)}`;
  /** @param {string} name CPU ms a run (children's user and system, 10 ms ticks summed over the runs) */
  const cpuMs = (name) => ((cpu[name] * 1000) / RUNS).toFixed(1);
  /** @param {string} name the extension host's own CPU ms a run (this process, every thread: the tool's work, the removal and the next launch ahead after it) */
  const hostMs = (name) => (hostCpu[name] / RUNS).toFixed(1);
  /** @param {string} label @param {string} before @param {string} now */
  const row = (label, before, now) => [label, median(before).toFixed(1), median(now).toFixed(1), ratio(median(now), median(before)), plus((median(now) - median(before)).toFixed(1)), `${cpuMs(before)} / ${cpuMs(now)}`, `${hostMs(before)} / ${hostMs(now)}`];
  printTable(log, [`staged launch, ${tree.label} (p50 of ${RUNS})`, 'before ms', 'now ms', 'ratio', 'added ms', 'CPU ms before / now', 'host CPU ms before / now'], [
    row(`run_command '${line}': today's sandbox vs staged, wired, started ahead (budget +10 ms)`, 'sandboxed', 'wired'),
    row(`run_command '${line}': today's sandbox vs staged, wired, plain launch (none ahead)`, 'sandboxed', 'wiredPlain'),
    row('bare bwrap vs staged over an overlay, plain launch (not the tool)', 'bwrap', 'stagedTree'),
    row('bare bwrap vs staged, unshare and bash started ahead (not the tool)', 'bwrap', 'stagedTreeAhead'),
    [`  quartiles: bare bwrap ${spread('bwrap')}, sandboxed ${spread('sandboxed')}, wired ${spread('wired')}, wired plain ${spread('wiredPlain')}, plain ${spread('stagedTree')}, ahead ${spread('stagedTreeAhead')}`, '', '', '', '', '', ''],
  ]);
  log(`Load average at the end: ${os.loadavg().map((load) => load.toFixed(2)).join(', ')} on ${os.cpus().length} cores.`);
}
