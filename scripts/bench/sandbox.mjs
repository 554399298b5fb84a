// @ts-check
// What the command sandbox costs per command: workspace_run_command with runCommand.sandbox off
// against the same call sandboxed (bubblewrap), on a small project and on the kernel tree (where
// the search for .env files has 78k files to walk), and bubblewrap's own start against sh alone.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { medianCommandMs, medianMs, printTable, ratio } from './measure.mjs';
import { ourCommandHost, ourContext, ourTool, runTool } from './ourContext.mjs';
import { ensureTree } from './search.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RIPGREP = path.join(repo, 'node_modules/@vscode/ripgrep-linux-x64/bin/rg');

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

/** @param {import('./measure.mjs').BenchContext} context */
export async function benchSandbox({ log, scratchDir }) {
  const logs = mkdtempSync(path.join(os.tmpdir(), 'wat-bench-logs-'));
  const { host, dispose } = ourCommandHost(logs, RIPGREP);
  const availability = await host.sandbox.availability('');
  if (availability.kind === 'none') {
    log(`No sandbox on this machine (${availability.reason}); nothing to measure.`);
    dispose();
    return;
  }
  const small = smallProject();
  const tree = await ensureTree(scratchDir, log);
  const tool = ourTool('workspace_run_command');
  /** @type {(string | number)[][]} */
  const rows = [];
  try {
    for (const [label, root] of [['small project (400 files)', small], [tree.label, tree.root]]) {
      /** @param {'off' | 'auto'} mode */
      const call = (mode) => medianMs(async () => {
        const ctx = ourContext({ root, ripgrepPath: RIPGREP, commands: host, settings: { runCommandSandbox: mode } });
        const result = await runTool(tool, { command: 'true' }, ctx);
        const text = result.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
        if (!text.startsWith('Exit code: 0')) throw new Error(`the sandboxed call failed: ${text}`);
      }, 15);
      const off = await call('off');
      const on = await call('auto');
      rows.push([`run_command 'true', ${label}`, off.toFixed(1), on.toFixed(1), ratio(on, off), `+${(on - off).toFixed(1)}`]);
    }
    const sh = await medianCommandMs('/bin/sh', ['-c', 'true'], 15);
    const bwrap = await medianCommandMs(availability.executable, ['--die-with-parent', '--unshare-pid', '--unshare-net', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--', '/bin/sh', '-c', 'true'], 15);
    rows.push(['sh -c true alone vs inside bwrap', sh.toFixed(1), bwrap.toFixed(1), ratio(bwrap, sh), `+${(bwrap - sh).toFixed(1)}`]);
  } finally {
    dispose();
    rmSync(small, { recursive: true, force: true });
    rmSync(logs, { recursive: true, force: true });
  }
  printTable(log, ['case', 'unsandboxed ms', 'sandboxed ms', 'ratio', 'added ms'], rows);
}
