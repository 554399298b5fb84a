// workspace_run_command with the workspace folder on a real volume that ignores letter case (exFAT
// through exfat-fuse) and the real bubblewrap: each spelling of a name is its own entry to the kernel
// there, so the sandbox's mounts over `.git/hooks` and `.env` do not cover `.GIT/hooks` and `.ENV`.
// No command may run unasked in such a folder, and the question says why.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ignoresCase } from '../../../../../src/core/fs/node/caseSensitivity';
import { CASE_INSENSITIVE_VOLUME, mountCaseInsensitiveVolume, type CaseInsensitiveVolume } from '../../../support/caseInsensitiveVolume';
import { commandWorkspace } from '../../../support/commandWorkspace';
import { skipUnlessOn } from '../../../support/platforms';
import { requireProgram } from '../../../support/programs';
import * as os from 'node:os';
import { NodeFileSystem } from '../../../../../src/core/fs/node/nodeFileSystem';
import { foldersWithOtherSpellings, otherSpellingsOf } from '../../../../../src/core/sandbox/plan';
import { runCommandTool } from '../../../../../src/core/tools/command/runCommand';
import { invokeTool } from '../../../../../src/core/tools/invoke';

describe('tools/runCommand on a volume that ignores letter case', () => {
  let volume: CaseInsensitiveVolume | undefined;
  before(function () {
    this.timeout(60_000);
    skipUnlessOn(this, 'linux', CASE_INSENSITIVE_VOLUME);
    volume = mountCaseInsensitiveVolume();
  });
  const workspace = commandWorkspace({ base: () => volume?.root ?? '' });
  after(() => volume?.unmount());

  before(() => {
    fs.mkdirSync(path.join(workspace.root, '.git', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(workspace.root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    fs.writeFileSync(path.join(workspace.root, '.env'), 'API_TOKEN=on-exfat\n');
  });

  it('is a volume where another spelling reaches the same file', () => {
    assert.equal(fs.readFileSync(path.join(workspace.root, '.ENV'), 'utf8'), 'API_TOKEN=on-exfat\n');
    assert.deepEqual(fs.readdirSync(workspace.root).sort(), ['.env', '.git', 'sub']);
  });

  it('is measured as a volume that ignores case by the host\'s own measure (what `caseInsensitive: true` stands for below)', async () => {
    assert.equal(await ignoresCase(workspace.root), true);
  });

  it('lets no command run unasked there: `ls` asks the extension\'s own question, which names the folder and the spellings', async () => {
    const { ctx, approver, terminal } = workspace.setup({ caseInsensitive: true, approve: false });
    await assert.rejects(invokeTool(runCommandTool, { command: 'ls' }, ctx), /The user declined to run `ls`/);
    assert.equal(approver.asked.length, 1);
    assert.match(approver.asked[0].detail ?? '', /It would run in the sandbox, without network, because .*wat-run-\w+\/ws is on a volume that ignores letter case \(or gives names other spellings\), .*another spelling \(\.GIT\/hooks, \.ENV\) reaches them\. Run it\?$/);
    assert.equal(terminal.text, '');
  });

  it('says in the Sandbox: line that names are kept under one spelling only, once the person says yes', async () => {
    const { text, approver } = await workspace.run({ command: 'ls -a' }, { caseInsensitive: true, approve: true });
    assert.equal(approver.asked.length, 1);
    assert.match(text, /^Exit code: 0/);
    assert.match(text, /^Sandbox: bubblewrap: .*; protected and secret names kept under one spelling only \(.*\/ws ignores letter case\)/m);
  });

  it('measures why: a command the person approved changes .git/hooks through .Git/hooks and reads .env through .ENV', async () => {
    // What the question warns of, on the real volume: the one-spelling mounts hold `.git/hooks` and `.env` only.
    requireProgram('python3');
    // The policy refuses these names spelled out in the line, so the program builds them.
    const script = "import os\nfor name in ('.G' + 'it/hooks/pre-commit', '.g' + 'it/hooks/post-checkout'):\n  try: open(name, 'w').write('planted\\n')\n  except OSError as e: print(name, e.strerror)\nfor name in ('.e' + 'nv', '.E' + 'NV'):\n  try: print(name, open(name).read().strip())\n  except OSError as e: print(name, e.strerror)\n";
    fs.writeFileSync(path.join(workspace.root, 'spell.py'), script);
    const { text } = await workspace.run({ command: 'python3 spell.py' }, { caseInsensitive: true, approve: true });
    assert.match(text, /^\.git\/hooks\/post-checkout Read-only file system$/m);
    assert.match(text, /^\.env Permission denied$/m);
    assert.match(text, /^\.ENV API_TOKEN=on-exfat$/m);
    assert.equal(fs.readFileSync(path.join(workspace.root, '.git', 'hooks', 'pre-commit'), 'utf8'), 'planted\n');
    fs.rmSync(path.join(workspace.root, '.git', 'hooks', 'pre-commit'));
    fs.rmSync(path.join(workspace.root, 'spell.py'));
  });

  it('asks all the same where the folder\'s measure missed it (WSL\'s folders each have a case flag): the lease finds the other spelling before anything runs', async () => {
    // caseInsensitive left out: the folder as if measured case-sensitive, its .git and .env on a volume that is not.
    const declined = workspace.setup({ approve: false });
    await assert.rejects(invokeTool(runCommandTool, { command: 'ls' }, declined.ctx), /The user declined to run `ls`/);
    assert.equal(declined.approver.asked.length, 1);
    assert.match(declined.approver.asked[0].detail ?? '', /because .*\/ws is on a volume that ignores letter case \(or gives names other spellings\)/);
    assert.equal(declined.terminal.text, '');
    const { text, approver } = await workspace.run({ command: 'ls -a' }, { approve: true });
    assert.equal(approver.asked.length, 1);
    assert.match(text, /^Sandbox: bubblewrap: .*; protected and secret names kept under one spelling only/m);
  });
});

describe('sandbox/plan: folders where another spelling reaches an entry', () => {
  let volume: CaseInsensitiveVolume | undefined;
  let plain = '';
  before(function () {
    this.timeout(60_000);
    skipUnlessOn(this, 'linux', CASE_INSENSITIVE_VOLUME);
    volume = mountCaseInsensitiveVolume();
    plain = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-spellings-'));
  });
  after(() => {
    volume?.unmount();
    fs.rmSync(plain, { recursive: true, force: true });
  });

  it('names the other case, a stream suffix, a trailing dot and a trailing space of a name', () => {
    assert.deepEqual(otherSpellingsOf('.env'), ['.ENV', '.env:', '.env.', '.env ']);
    assert.deepEqual(otherSpellingsOf('123'), ['123:', '123.', '123 ']);
  });

  it('finds the folder on a volume that ignores case, and none where the other spelling is an entry of its own', async () => {
    const fsPort = new NodeFileSystem();
    for (const root of [volume?.root ?? '', plain]) {
      fs.mkdirSync(path.join(root, 'app', '.git'), { recursive: true });
      fs.writeFileSync(path.join(root, 'app', '.env'), 'x\n');
    }
    // On the plain folder both spellings are real, distinct entries: no alias.
    fs.writeFileSync(path.join(plain, 'app', '.ENV'), 'y\n');
    const entries = (root: string): string[] => [path.join(root, 'app', '.env'), path.join(root, 'app', '.git')];
    assert.deepEqual(await foldersWithOtherSpellings(fsPort, entries(volume?.root ?? '')), [path.join(volume?.root ?? '', 'app')]);
    assert.deepEqual(await foldersWithOtherSpellings(fsPort, entries(plain)), []);
  });
});
