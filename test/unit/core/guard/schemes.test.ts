// Every URI scheme meets the same home, system and secret rules: a scheme the tools cannot reach is
// refused before any rule or question, and a workspace folder's own remote or virtual file system is
// judged like the local disk (issue 37, item 6).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFileSystem } from '../../../../src/core/fs/node/nodeFileSystem';
import { guardPath } from '../../../../src/core/guard/pathGuard';
import { guardWriteTarget } from '../../../../src/core/guard/writeGuard';
import { fileLocation, locationKey, type Location } from '../../../../src/core/location';
import type { DirectoryEntry, EntryStat, FileReader, FileSystem } from '../../../../src/core/ports/fileSystem';
import type { WorkspaceFolder } from '../../../../src/core/location';
import type { RiskLevel } from '../../../../src/core/settings';
import { globTool } from '../../../../src/core/tools/glob';
import { grepTool } from '../../../../src/core/tools/grep';
import { invokeTool } from '../../../../src/core/tools/invoke';
import { listDirectoryTool } from '../../../../src/core/tools/listDirectory';
import { readFileTool } from '../../../../src/core/tools/readFile';
import { resultText, ScriptedApprover, testContext } from '../../support/context';

const LEVELS: readonly RiskLevel[] = ['low', 'medium', 'high'];

/**
 * The file system VS Code gives the tools: `file:` on the local disk, and other schemes through
 * their providers, here each `scheme://authority` served from a local folder. Like VS Code's, it
 * resolves no links off the local disk and reads any location its provider serves.
 */
class ProvidedFileSystem implements FileSystem {
  private readonly local = new NodeFileSystem();
  constructor(private readonly providers: ReadonlyMap<string, string>) {}

  private onDisk(location: Location): Location | undefined {
    if (location.scheme === 'file') {
      return location;
    }
    const root = this.providers.get(`${location.scheme}://${location.authority}`);
    return root === undefined ? undefined : fileLocation(path.join(root, location.path));
  }

  private served(location: Location): Location {
    const local = this.onDisk(location);
    if (!local) {
      throw new Error(`No file system provider for ${locationKey(location)}`);
    }
    return local;
  }

  async stat(location: Location): Promise<EntryStat | undefined> {
    const local = this.onDisk(location);
    return local ? this.local.stat(local) : undefined;
  }
  readFile(location: Location): Promise<Uint8Array> {
    return this.local.readFile(this.served(location));
  }
  async openReader(location: Location): Promise<FileReader | undefined> {
    return location.scheme === 'file' ? this.local.openReader(location) : undefined;
  }
  readDirectory(location: Location): Promise<DirectoryEntry[]> {
    return this.local.readDirectory(this.served(location));
  }
  async realpath(location: Location): Promise<Location> {
    return location.scheme === 'file' ? this.local.realpath(location) : location;
  }
  localPath(location: Location): string | undefined {
    return location.scheme === 'file' ? location.path : undefined;
  }
}

describe('guard: every URI scheme', () => {
  let disk: string;
  before(() => {
    // One folder serves vscode-userdata:, the remote ssh-remote+h and memfs:, so a rule is all that stands between a call and a file.
    disk = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-schemes-'));
    for (const [file, text] of Object.entries({ 'home/u/.ssh/id_rsa': 'PRIVATE KEY\n', 'home/u/.bashrc': 'alias x=y\n', 'home/u/proj/a.txt': 'remote\n', 'ws/a.txt': 'virtual a\n', 'ws/sub/b.txt': 'virtual b\n' })) {
      fs.mkdirSync(path.dirname(path.join(disk, file)), { recursive: true });
      fs.writeFileSync(path.join(disk, file), text);
    }
  });
  after(() => fs.rmSync(disk, { recursive: true, force: true }));

  const providers = (): Map<string, string> => new Map([['vscode-userdata://', disk], ['vscode-remote://ssh-remote+h', disk], ['vscode-remote://x', disk], ['foo://bar', disk], ['memfs://', disk]]);
  const REMOTE: WorkspaceFolder = { name: 'proj', location: { scheme: 'vscode-remote', authority: 'ssh-remote+h', path: '/home/u/proj' } };
  const MEMFS: WorkspaceFolder = { name: 'ws', location: { scheme: 'memfs', authority: '', path: '/ws' } };
  const context = (riskLevel: RiskLevel, folders: readonly WorkspaceFolder[], approver = new ScriptedApprover(true)) =>
    testContext({ root: disk, fs: new ProvidedFileSystem(providers()), approver, settings: { riskLevel }, workspace: { folders, home: '/home/dev' } });
  const local = (): WorkspaceFolder[] => [{ name: 'app', location: fileLocation(path.join(disk, 'local')) }];

  it('refuses a read of vscode-userdata:/home/u/.ssh/id_rsa at every level without asking', async () => {
    for (const level of LEVELS) {
      const ctx = context(level, local());
      await assert.rejects(guardPath('vscode-userdata:/home/u/.ssh/id_rsa', 'read', ctx), /is a vscode-userdata: URI; the tools only reach the local disk, the workspace folders' own file systems and those of the user's allowed-paths settings/, level);
      await assert.rejects(invokeTool(readFileTool, { file_path: 'vscode-userdata:/home/u/.ssh/id_rsa' }, ctx), /vscode-userdata: URI/, level);
      assert.deepEqual(ctx.session.approver.asked, [], `nobody is asked at ${level}`);
    }
  });

  it('refuses an unknown scheme with the message, for the read, list and search tools alike', async () => {
    const ctx = context('high', local());
    const message = /^foo:\/\/bar\/home\/u\/proj\/a\.txt is a foo: URI on bar; the tools only reach the local disk, the workspace folders' own file systems and those of the user's allowed-paths settings\. Pass a workspace-relative path\.$/;
    await assert.rejects(guardPath('foo://bar/home/u/proj/a.txt', 'read', ctx), { message });
    await assert.rejects(guardWriteTarget('foo://bar/home/u/proj/a.txt', ctx), { message });
    await assert.rejects(invokeTool(listDirectoryTool, { path: 'foo://bar/home/u' }, ctx), /is a foo: URI on bar/);
    await assert.rejects(invokeTool(globTool, { pattern: '**/*', path: 'foo://bar/home/u' }, ctx), /is a foo: URI on bar/);
    await assert.rejects(invokeTool(globTool, { pattern: 'vscode-userdata:/home/u/.ssh/*' }, ctx), /is a vscode-userdata: URI/);
    await assert.rejects(invokeTool(grepTool, { pattern: 'KEY', path: 'foo://bar/home/u' }, ctx), /is a foo: URI on bar/);
    assert.deepEqual(ctx.session.approver.asked, []);
  });

  it('refuses a write to vscode-remote://x/etc/passwd, whether or not a workspace folder is on x', async () => {
    const onX: WorkspaceFolder = { name: 'x', location: { scheme: 'vscode-remote', authority: 'x', path: '/srv/app' } };
    for (const level of LEVELS) {
      await assert.rejects(guardWriteTarget('vscode-remote://x/etc/passwd', context(level, local())), /is a vscode-remote: URI on x; the tools only reach/, level);
      await assert.rejects(guardWriteTarget('vscode-remote://x/etc/passwd', context(level, [onX])), /Denied by file\.system_path_write: vscode-remote:\/\/x\/etc\/passwd is a system path/, level);
    }
  });

  it('keeps a remote folder\'s home and system files from writes at high risk, its home being another than the extension host\'s', async () => {
    const ctx = context('high', [REMOTE]);
    const refusals: [string, RegExp][] = [
      ['/home/u/.bashrc', /Denied by file\.sensitive_path_write: vscode-remote:\/\/ssh-remote\+h\/home\/u\/\.bashrc/],
      ['vscode-remote://ssh-remote+h/home/u/.bashrc', /Denied by file\.sensitive_path_write/],
      ['/home/u/.ssh/authorized_keys', /Denied by file\.sensitive_path_write/],
      ['../.ssh/authorized_keys', /Denied by file\.sensitive_path_write/],
      ['/etc/x', /Denied by file\.system_path_write: vscode-remote:\/\/ssh-remote\+h\/etc\/x is a system path/],
      ['/root/.profile', /Denied by file\.sensitive_path_write/],
    ];
    for (const [input, refusal] of refusals) {
      await assert.rejects(guardWriteTarget(input, ctx), refusal, input);
    }
    assert.deepEqual(ctx.session.approver.asked, []);
  });

  it('judges a remote folder\'s keys and kernel paths on reads as the local disk\'s', async () => {
    const ctx = context('medium', [REMOTE]);
    await assert.rejects(guardPath('/home/u/.ssh/id_rsa', 'read', ctx), /Denied by file\.sensitive_path_read: vscode-remote:\/\/ssh-remote\+h\/home\/u\/\.ssh\/id_rsa holds credentials/);
    await assert.rejects(guardPath('/proc/self/environ', 'read', context('high', [REMOTE])), /Denied by file\.system_path_read/);
  });

  it('resolves file:///work/%2e%2e/etc/shadow to /etc/shadow and judges it as such, on the local disk and on a remote folder', async () => {
    for (const level of ['low', 'medium'] as const) {
      await assert.rejects(guardPath('file:///work/%2e%2e/etc/shadow', 'read', context(level, local())), /Denied by file\.sensitive_path_read: \/etc\/shadow holds credentials/, level);
      await assert.rejects(guardPath('vscode-remote://ssh-remote+h/home/u/proj/%2e%2e/%2E%2E/%2e%2e/etc/shadow', 'read', context(level, [REMOTE])), /Denied by file\.sensitive_path_read: vscode-remote:\/\/ssh-remote\+h\/etc\/shadow holds credentials/, level);
    }
    const ctx = context('high', [REMOTE], new ScriptedApprover(false));
    await assert.rejects(guardPath('file:///work/%2e%2e/etc/shadow', 'read', ctx), /Denied by file\.sensitive_path_read: \/etc\/shadow[\s\S]*The user declined/);
    assert.deepEqual(ctx.session.approver.asked.map((question) => question.title), ['file.sensitive_path_read: /etc/shadow']);
  });

  it('reaches the file system of a URI the user allowed in allowed-paths, with the same rules there', async () => {
    const ctx = testContext({ root: disk, fs: new ProvidedFileSystem(providers()), settings: { riskLevel: 'medium', allowedReadPaths: ['foo://bar/ws', path.join(disk, 'local')] }, workspace: { folders: local(), home: '/home/dev' } });
    assert.match(resultText(await invokeTool(readFileTool, { file_path: 'foo://bar/ws/a.txt' }, ctx)), /virtual a/);
    await assert.rejects(guardPath('foo://bar/home/u/.ssh/id_rsa', 'read', ctx), /Denied by file\.sensitive_path_read: foo:\/\/bar\/home\/u\/\.ssh\/id_rsa/);
    await assert.rejects(guardPath('foo://baz/ws/a.txt', 'read', ctx), /is a foo: URI on baz, which no workspace folder or allowed path is on/);
    await assert.rejects(guardPath('vscode-userdata:/home/u/.bashrc', 'read', ctx), /is a vscode-userdata: URI; the tools only reach/);
    assert.equal((await guardWriteTarget('foo://bar/ws/b.txt', ctx)).warning?.rule, 'file.outside_workspace_write', 'an allowed read root is no write root');
  });

  it('still reads, lists and writes ordinary files of a workspace folder\'s own virtual file system (memfs:)', async () => {
    const ctx = context('medium', [MEMFS]);
    assert.match(resultText(await invokeTool(readFileTool, { file_path: 'a.txt' }, ctx)), /virtual a/);
    assert.match(resultText(await invokeTool(readFileTool, { file_path: 'memfs:/ws/sub/b.txt' }, ctx)), /virtual b/);
    assert.match(resultText(await invokeTool(readFileTool, { file_path: 'MEMFS:///ws/a.txt' }, ctx)), /virtual a/);
    assert.match(resultText(await invokeTool(listDirectoryTool, {}, ctx)), /sub\/\na\.txt/);
    const target = await guardWriteTarget('sub/new.txt', ctx);
    assert.deepEqual(target.literal, { scheme: 'memfs', authority: '', path: '/ws/sub/new.txt' });
    assert.equal(target.warning, undefined);
    assert.deepEqual(ctx.session.approver.asked, []);
  });
});
