// Both read tools on a non-file scheme: an in-memory FileSystemProvider registered by the test,
// read through vscode.workspace.fs.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { ReadOnlyFileSystem } from './support/readOnlyFileSystem';
import { invoke, invokeError, withSettings } from './support/tools';

const SCHEME = 'watmem';

class MemoryFileSystem extends ReadOnlyFileSystem {
  private readonly files = new Map<string, Uint8Array>();
  private readonly directories = new Set<string>(['/']);

  seed(path: string, content: string | Uint8Array): void {
    const parts = path.split('/').filter(Boolean);
    for (let i = 1; i < parts.length; i += 1) this.directories.add('/' + parts.slice(0, i).join('/'));
    this.files.set(path, typeof content === 'string' ? new TextEncoder().encode(content) : content);
  }
  stat(uri: vscode.Uri): vscode.FileStat {
    const file = this.files.get(uri.path);
    if (file) return { type: vscode.FileType.File, ctime: 0, mtime: 1, size: file.length };
    if (this.directories.has(uri.path)) return { type: vscode.FileType.Directory, ctime: 0, mtime: 1, size: 0 };
    throw vscode.FileSystemError.FileNotFound(uri);
  }
  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    const prefix = uri.path === '/' ? '/' : `${uri.path}/`;
    const children = new Map<string, vscode.FileType>();
    for (const dir of this.directories) if (dir.startsWith(prefix) && dir !== uri.path && !dir.slice(prefix.length).includes('/')) children.set(dir.slice(prefix.length), vscode.FileType.Directory);
    for (const file of this.files.keys()) if (file.startsWith(prefix) && !file.slice(prefix.length).includes('/')) children.set(file.slice(prefix.length), vscode.FileType.File);
    return [...children];
  }
  readFile(uri: vscode.Uri): Uint8Array {
    const file = this.files.get(uri.path);
    if (!file) throw vscode.FileSystemError.FileNotFound(uri);
    return file;
  }
}

describe('read tools on a virtual file system (extension host)', () => {
  let registration: vscode.Disposable;
  before(() => {
    const memory = new MemoryFileSystem();
    memory.seed('/tree/notes.txt', 'one\r\ntwo\r\nthree\r\n');
    memory.seed('/tree/src/main.ts', 'export const main = 1;\n');
    memory.seed('/tree/.gitignore', 'out/\n');
    memory.seed('/tree/out/bundle.js', 'ignored();\n');
    memory.seed('/tree/utf16.txt', new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00, 0x0a, 0x00]));
    registration = vscode.workspace.registerFileSystemProvider(SCHEME, memory, { isReadonly: true });
  });
  after(() => registration.dispose());

  const allowMemory = <T>(body: () => Promise<T>) => withSettings({ allowedReadPaths: [`${SCHEME}:/tree`] }, body);

  it('reads a file through vscode.workspace.fs', async () => {
    const { text } = await allowMemory(() => invoke('workspace_read_file', { file_path: `${SCHEME}:/tree/notes.txt`, offset: 2 }));
    assert.strictEqual(text, '     2\ttwo\n     3\tthree\n\n[Showing lines 2-3 of 3.]');
  });

  it('decodes UTF-16 from a provider', async () => {
    const { text } = await allowMemory(() => invoke('workspace_read_file', { file_path: `${SCHEME}:/tree/utf16.txt` }));
    assert.strictEqual(text, '     1\thi');
  });

  it('lists a directory with the provider’s .gitignore applied', async () => {
    const { text } = await allowMemory(() => invoke('workspace_list_directory', { path: `${SCHEME}:/tree` }));
    assert.strictEqual(text, [`${SCHEME}:/tree/ (1 directories, 3 files)`, 'src/', '.gitignore  (5 B)', 'notes.txt  (17 B)', 'utf16.txt  (8 B)', '[1 entries hidden by .gitignore; pass respect_git_ignore=false to see them]'].join('\n'));
  });

  it('reports a missing file on the provider', async () => {
    assert.match(await allowMemory(() => invokeError('workspace_read_file', { file_path: `${SCHEME}:/tree/missing.txt` })), /File not found/);
  });

  it('still guards other schemes: outside the allowed roots is denied at low risk', async () => {
    assert.match(await withSettings({ riskLevel: 'low', allowedReadPaths: [`${SCHEME}:/tree/src`] }, () => invokeError('workspace_read_file', { file_path: `${SCHEME}:/tree/notes.txt` })), /^Denied by file\.outside_workspace_read: /);
  });

  it('refuses a scheme that no workspace folder or allowed path is on, naming it', async () => {
    assert.match(await invokeError('workspace_read_file', { file_path: `${SCHEME}:/tree/notes.txt` }), new RegExp(`^${SCHEME}:/tree/notes\\.txt is a ${SCHEME}: URI; the tools only reach the local disk`));
  });
});
