// Repositories inside the workspace folder in the real extension host (issue 21, item 2): a nested
// clone, a bare repository of any name and a submodule. An approved command (in the sandbox)
// cannot change their config or hooks, a repository one command creates is protected from the
// next, and Restore to Before This Call after a command that deleted, created and changed files
// inside them brings every byte back, leaving their .git, status, stash and refs as they were.
import * as assert from 'assert';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ActivityRecord } from '../../src/core/activity/activityRecord';
import type { RestoreOutcome } from '../../src/core/calls/restore';
import { CommandId } from '../../src/vscode/commandIds';
import { git } from '../support/gitFixtures';
import { answerNextApproval, invoke, withSettings, workspaceRoot } from './support/tools';

const TOOL = 'workspace_run_command';
/** Every file under `dir` (each `.git` skipped, a .git file kept) with its mode and bytes. */
function workingFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string, rel: string): void => {
    for (const name of fs.readdirSync(folder).sort()) {
      const full = path.join(folder, name);
      const stat = fs.lstatSync(full);
      if (stat.isDirectory() && name === '.git') continue;
      if (stat.isSymbolicLink()) out[`${rel}${name}`] = `link:${fs.readlinkSync(full)}`;
      else if (stat.isDirectory()) walk(full, `${rel}${name}/`);
      else out[`${rel}${name}`] = `${(stat.mode & 0o777).toString(8)}:${fs.readFileSync(full).toString('hex')}`;
    }
  };
  walk(dir, '');
  return out;
}

/** A git directory byte for byte: every file's path, mode and hash. */
function gitDirectoryBytes(dir: string): string {
  const lines: string[] = [];
  const walk = (folder: string): void => {
    for (const name of fs.readdirSync(folder).sort()) {
      const full = path.join(folder, name);
      const stat = fs.lstatSync(full);
      if (stat.isDirectory()) walk(full);
      else lines.push(`${path.relative(dir, full)} ${(stat.mode & 0o777).toString(8)} ${createHash('sha256').update(fs.readFileSync(full)).digest('hex')}`);
    }
  };
  walk(dir);
  return lines.join('\n');
}

/** What a user's repository is: its git directory byte for byte, status, stash and refs (the test's git takes no optional locks). */
function repositoryState(dir: string, bare = false): string[] {
  const gitDir = bare ? dir : git(dir, 'rev-parse', '--absolute-git-dir').trim();
  return [
    gitDirectoryBytes(gitDir),
    bare ? '' : git(dir, '--no-optional-locks', 'status', '--porcelain', '--ignored'),
    bare ? '' : git(dir, 'stash', 'list'),
    git(dir, 'for-each-ref'),
  ];
}

async function latestRecord(): Promise<ActivityRecord> {
  const records = (await vscode.commands.executeCommand<ActivityRecord[]>(CommandId.listActivity)) ?? [];
  return records[0];
}

async function approvedCommand(command: string): Promise<string> {
  const answered = answerNextApproval(true);
  const { text } = await invoke(TOOL, { command });
  await answered;
  return text;
}

describe('nested repositories (extension host)', function () {
  this.timeout(120_000);
  let root: string;
  let base: string;
  let source: string;
  let counter = 0;

  let gitEnabled: boolean | undefined;

  before(async function () {
    if (!vscode.workspace.isTrusted || process.platform !== 'linux') this.skip();
    // VS Code's own git extension opens repositories it finds and writes their config (a
    // submodule's `vscode-merge-base`): off, so what changes is only what the tools did.
    gitEnabled = vscode.workspace.getConfiguration('git').inspect<boolean>('enabled')?.globalValue;
    await vscode.workspace.getConfiguration('git').update('enabled', false, vscode.ConfigurationTarget.Global);
    root = workspaceRoot();
    // The submodule's upstream lives outside the workspace, as a remote would.
    source = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-nested-source-'));
    git(source, 'init', '-q');
    fs.writeFileSync(path.join(source, 'module.txt'), 'module v1\n');
    git(source, 'add', '.');
    git(source, 'commit', '-q', '-m', 'module');
  });
  after(async () => {
    if (source) fs.rmSync(source, { recursive: true, force: true });
    if (root) await vscode.workspace.getConfiguration('git').update('enabled', gitEnabled, vscode.ConfigurationTarget.Global);
  });

  /** A fresh folder of the workspace (relative) holding app/ (a clone with a commit, a stash, changes, an ignored folder), store/ (a bare repository) and super/ with the submodule super/mod. */
  function repositories(): string {
    counter += 1;
    base = path.join(root, 'nested-run', String(counter));
    const app = path.join(base, 'app');
    fs.mkdirSync(app, { recursive: true });
    git(app, 'init', '-q');
    fs.writeFileSync(path.join(app, 'tracked.txt'), 'v1\n');
    fs.writeFileSync(path.join(app, 'run.sh'), '#!/bin/sh\necho run\n', { mode: 0o755 });
    fs.writeFileSync(path.join(app, '.gitignore'), 'build/\n');
    git(app, 'add', '.');
    git(app, 'commit', '-q', '-m', 'one');
    fs.writeFileSync(path.join(app, 'tracked.txt'), 'stashed\n');
    git(app, 'stash', '-q');
    fs.writeFileSync(path.join(app, 'tracked.txt'), 'v2\n');
    fs.writeFileSync(path.join(app, 'untracked.txt'), 'untracked\n');
    fs.mkdirSync(path.join(app, 'build'));
    fs.writeFileSync(path.join(app, 'build/out.o'), 'ignored\n');
    git(app, 'update-index', '-q', '--refresh');

    git(base, 'clone', '-q', '--bare', source, 'store');

    const superRepo = path.join(base, 'super');
    fs.mkdirSync(superRepo);
    git(superRepo, 'init', '-q');
    git(superRepo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', source, 'mod');
    git(superRepo, 'commit', '-q', '-m', 'with a submodule');
    for (const dir of [app, path.join(superRepo, 'mod'), superRepo]) git(dir, 'update-index', '-q', '--refresh');
    return path.relative(root, base);
  }

  it('keeps an approved command from changing the config or hooks of a nested, a bare and a submodule\'s repository', async () => {
    const dir = repositories();
    const configs = ['app/.git/config', 'store/config', 'super/.git/modules/mod/config', 'super/.git/config'];
    const hooks = ['app/.git/hooks/post-checkout', 'store/hooks/post-receive', 'super/.git/modules/mod/hooks/post-checkout'];
    const before = configs.map((file) => fs.readFileSync(path.join(base, file), 'utf8'));
    // At risk level high the guard only asks before these writes, so the sandbox is what stops them.
    const text = await withSettings({ riskLevel: 'high' }, () => approvedCommand([
      `cd ${dir}`,
      'echo approved-ran',
      ...configs.map((file) => `printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n' >> ${file}`),
      ...hooks.map((file) => `echo evil > ${file}`),
      'true',
    ].join('; ')));
    assert.match(text, /^approved-ran$/m);
    assert.match(text, /Read-only file system/);
    assert.deepEqual(configs.map((file) => fs.readFileSync(path.join(base, file), 'utf8')), before);
    for (const hook of hooks) assert.equal(fs.existsSync(path.join(base, hook)), false, hook);
  });

  it('protects a repository one approved command created from the next one', async () => {
    const dir = repositories();
    const created = await approvedCommand(`cd ${dir} && git init -q fresh && echo made`);
    assert.match(created, /^made$/m);
    assert.match(created, /created execution config/);
    assert.match(created, /fresh\/\.git\/config/);
    const config = fs.readFileSync(path.join(base, 'fresh/.git/config'), 'utf8');
    const text = await withSettings({ riskLevel: 'high' }, () => approvedCommand(`cd ${dir}; echo approved-ran; printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n' >> fresh/.git/config; echo evil > fresh/.git/hooks/pre-commit; true`));
    assert.match(text, /^approved-ran$/m);
    assert.equal(fs.readFileSync(path.join(base, 'fresh/.git/config'), 'utf8'), config);
    assert.equal(fs.existsSync(path.join(base, 'fresh/.git/hooks/pre-commit')), false);
  });

  it('reports a repository\'s config and hook an approved command changed outside the sandbox, in its result and on its activity record, which offers Restore', async () => {
    const dir = repositories();
    const answered = (async () => {
      for (let tries = 0; tries < 200; tries += 1) {
        if (await vscode.commands.executeCommand<boolean>(CommandId.approveAlternative)) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('no question offered to run outside the sandbox');
    })();
    // At risk level high the guard asks before these writes instead of refusing them.
    const { text } = await withSettings({ riskLevel: 'high' }, () => invoke(TOOL, { command: `cd ${dir} && printf '[core]\\n\\tfsmonitor = true\\n' >> app/.git/config && echo evil > super/.git/modules/mod/hooks/post-checkout && echo x > app/made.txt` }));
    await answered;
    assert.match(text, /Sandbox: none/);
    assert.match(text, /Warning: the command changed execution config/);
    assert.match(text, new RegExp(`- changed ${dir}/app/\\.git/config: `));
    assert.match(text, new RegExp(`- created ${dir}/super/\\.git/modules/mod/hooks/post-checkout: `));
    const record = await latestRecord();
    assert.deepEqual(record.executionConfig, [
      { path: `${dir}/app/.git/config`, change: 'changed' },
      { path: `${dir}/super/.git/modules/mod/hooks/post-checkout`, change: 'created' },
    ]);
    assert.ok(record.checkpoint?.before && record.checkpoint.after, 'Restore to Before This Call is offered');
    assert.deepEqual(record.changedPaths.map((file) => file.path), [`${dir}/app/made.txt`]);
  });

  it('restores every byte a command deleted, created and changed inside them, and leaves their .git, status, stash and refs as they were', async () => {
    const dir = repositories();
    const files = workingFiles(base);
    const repos = { app: false, store: true, super: false, 'super/mod': false };
    const states = Object.entries(repos).map(([repo, bare]) => repositoryState(path.join(base, repo), bare));

    const text = await approvedCommand([
      `cd ${dir}`,
      'rm app/tracked.txt app/untracked.txt',
      'echo created > app/created.txt',
      'chmod -x app/run.sh',
      'printf "changed\\n" >> super/mod/module.txt',
      'echo new > super/mod/new.txt',
      'rm store/description',
      'git --git-dir=store update-ref refs/heads/made-by-the-command HEAD',
      'echo ran',
    ].join(' && '));
    assert.match(text, /^ran$/m, text);
    const record = await latestRecord();
    assert.equal(record.tool, TOOL);
    const changed = record.changedPaths.map((file) => `${file.kind} ${file.path}`).sort();
    assert.deepEqual(changed, [
      `created ${dir}/app/created.txt`,
      `created ${dir}/store/refs/heads/made-by-the-command`,
      `created ${dir}/super/mod/new.txt`,
      `deleted ${dir}/app/tracked.txt`,
      `deleted ${dir}/app/untracked.txt`,
      `deleted ${dir}/store/description`,
      `modified ${dir}/app/run.sh`,
      `modified ${dir}/super/mod/module.txt`,
    ]);
    assert.deepEqual(record.checkpoint?.notes ?? [], []);

    const pending = Promise.resolve(vscode.commands.executeCommand<RestoreOutcome>(CommandId.restoreCheckpoint, record.id));
    await answerNextApproval(true);
    const outcome = await pending;
    assert.equal(outcome.restored, true, outcome.message);

    assert.deepEqual(workingFiles(base), files);
    assert.deepEqual(Object.entries(repos).map(([repo, bare]) => repositoryState(path.join(base, repo), bare)), states);
  });
});
