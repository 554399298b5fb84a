// workspace_glob and workspace_grep in the real extension host, called through vscode.lm.invokeTool:
// ripgrep (VS Code's own binary) on the copied fixture tree search-tree/, and the fallback engine
// on the same tree served by an in-memory FileSystemProvider, which must answer identically.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { ReadOnlyFileSystem } from './support/readOnlyFileSystem';
import { answerNextApproval, invoke, invokeError, withSettings, workspaceRoot } from './support/tools';

const TREE = 'search-tree';
const SCHEME = 'watsearch';
const MEMORY_ROOT = `${SCHEME}:/tree`;

/** A read-only provider serving a snapshot of a folder on disk, symlinks included as links. */
class SnapshotFileSystem extends ReadOnlyFileSystem {
  private readonly entries = new Map<string, { type: vscode.FileType; mtime: number; data?: Uint8Array }>();

  constructor(source: string, mountPath: string) {
    super();
    this.entries.set(mountPath, { type: vscode.FileType.Directory, mtime: 0 });
    this.snapshot(source, mountPath);
  }
  private snapshot(directory: string, mounted: string): void {
    for (const dirent of fs.readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, dirent.name);
      const target = `${mounted}/${dirent.name}`;
      if (dirent.isSymbolicLink()) {
        const kind = fs.statSync(full, { throwIfNoEntry: false })?.isDirectory() ? vscode.FileType.Directory : vscode.FileType.File;
        this.entries.set(target, { type: kind | vscode.FileType.SymbolicLink, mtime: 0 });
      } else if (dirent.isDirectory()) {
        this.entries.set(target, { type: vscode.FileType.Directory, mtime: 0 });
        this.snapshot(full, target);
      } else {
        this.entries.set(target, { type: vscode.FileType.File, mtime: fs.statSync(full).mtimeMs, data: fs.readFileSync(full) });
      }
    }
  }
  stat(uri: vscode.Uri): vscode.FileStat {
    const entry = this.entries.get(uri.path);
    if (!entry) throw vscode.FileSystemError.FileNotFound(uri);
    return { type: entry.type, ctime: 0, mtime: entry.mtime, size: entry.data?.length ?? 0 };
  }
  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    const prefix = `${uri.path}/`;
    return [...this.entries]
      .filter(([key]) => key.startsWith(prefix) && !key.slice(prefix.length).includes('/'))
      .map(([key, entry]) => [key.slice(prefix.length), entry.type]);
  }
  readFile(uri: vscode.Uri): Uint8Array {
    const data = this.entries.get(uri.path)?.data;
    if (!data) throw vscode.FileSystemError.FileNotFound(uri);
    return data;
  }
}

const text = async (tool: string, input: object): Promise<string> => (await invoke(tool, input)).text;
const glob = (input: { pattern: string; path?: string }) => text('workspace_glob', { path: TREE, ...input });
const grep = (input: Record<string, unknown>) => text('workspace_grep', { path: TREE, ...input });
const lines = (output: string) => output.split('\n');

describe('workspace_glob and workspace_grep (extension host)', function () {
  this.timeout(60_000);
  let tree: string;
  let outside: string;

  before(() => {
    tree = path.join(workspaceRoot(), TREE);
    // Links git cannot carry: a folder outside the workspace, a loop, and a linked file.
    outside = path.join(path.dirname(workspaceRoot()), 'outside-search');
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(path.join(outside, 'secret-outside.ts'), 'export const TODO_OUTSIDE = 1;\n');
    fs.symlinkSync(outside, path.join(tree, 'link-outside'));
    fs.symlinkSync('.', path.join(tree, 'src', 'loop'));
    fs.symlinkSync('main.ts', path.join(tree, 'src', 'main-link.ts'));
    const base = Date.UTC(2024, 0, 1) / 1000;
    ['src/nested/deep.ts', 'src/util.ts', 'src/main.ts'].forEach((file, index) => fs.utimesSync(path.join(tree, file), base + index * 60, base + index * 60));
  });

  describe('workspace_glob', () => {
    it('matches across folders with ** and lists the newest modification first', async () => {
      assert.strictEqual(await glob({ pattern: '**/*.ts' }), ['search-tree/src/main.ts', 'search-tree/src/util.ts', 'search-tree/src/nested/deep.ts'].join('\n'));
    });

    it('honours the root and nested .gitignore, including a negation', async () => {
      const all = lines(await glob({ pattern: '**/*' }));
      for (const hidden of ['search-tree/build/out.js', 'search-tree/debug.log', 'search-tree/src/nested/generated.ts']) assert.ok(!all.includes(hidden), hidden);
      assert.ok(all.includes('search-tree/keep.log'));
    });

    it('expands braces and classes; * stays in one folder', async () => {
      assert.deepStrictEqual(lines(await glob({ pattern: '**/{util,deep}.ts' })).sort(), ['search-tree/src/nested/deep.ts', 'search-tree/src/util.ts']);
      assert.deepStrictEqual(lines(await glob({ pattern: 'src/**/[dm]*.ts' })).sort(), ['search-tree/src/main.ts', 'search-tree/src/nested/deep.ts']);
      assert.strictEqual(await glob({ pattern: '*.log' }), 'search-tree/keep.log');
    });

    it('matches dotfiles only when the pattern names them', async () => {
      assert.ok(!(await glob({ pattern: '**/*.yml' })).includes('ci.yml'));
      assert.strictEqual(await glob({ pattern: '.github/**/*.yml' }), 'search-tree/.github/workflows/ci.yml');
    });

    it('never follows a symlink out of the workspace and reports each file once despite a loop', async () => {
      const all = lines(await glob({ pattern: '**/*' }));
      assert.ok(!all.some((line) => line.includes('outside') || line.includes('/loop/') || line.endsWith('main-link.ts')), all.join('\n'));
      assert.strictEqual(new Set(all).size, all.length);
    });

    it('refuses a pattern that climbs out of the workspace, naming the guard rule', async () => {
      const refused = invokeError('workspace_glob', { pattern: '../**' });
      await answerNextApproval(false);
      assert.match(await refused, /Denied by file\.outside_workspace_read/);
    });

    it('refuses an absolute system pattern without asking', async () => {
      assert.match(await invokeError('workspace_glob', { pattern: '/proc/*' }), /Denied by file\.system_path_read/);
    });

    it('refuses a brace explosion', async () => {
      assert.match(await invokeError('workspace_glob', { pattern: '{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}' }), /expands into 512 alternatives/);
    });

    it('hides what files.exclude hides', async () => {
      const files = vscode.workspace.getConfiguration('files');
      const previous = files.inspect('exclude')?.globalValue;
      await files.update('exclude', { '**/docs': true }, vscode.ConfigurationTarget.Global);
      try {
        assert.ok(!(await glob({ pattern: '**/*.md' })).includes('readme.md'));
      } finally {
        await files.update('exclude', previous, vscode.ConfigurationTarget.Global);
      }
    });
  });

  describe('workspace_grep', () => {
    it('prints path:line:text in path order, skipping ignored, binary, secret and linked files', async () => {
      assert.strictEqual(
        await grep({ pattern: 'TODO' }),
        [
          'search-tree/.github/workflows/ci.yml:2:# TODO: cache',
          'search-tree/crlf.txt:2:TODO crlf line',
          'search-tree/docs/readme.md:3:See TODO list.',
          'search-tree/keep.log:1:TODO in a kept log',
          'search-tree/src/main.ts:3:// TODO: handle errors',
          'search-tree/src/nested/deep.ts:2:  return "TODO deep";',
          'search-tree/src/util.ts:2:  return value * 2; // TODO: check overflow',
        ].join('\n'),
      );
    });

    it('lists files with files_with_matches and counts with count', async () => {
      assert.strictEqual(await grep({ pattern: 'TODO', path: `${TREE}/src`, output_mode: 'files_with_matches' }), ['search-tree/src/main.ts', 'search-tree/src/nested/deep.ts', 'search-tree/src/util.ts'].join('\n'));
      assert.strictEqual(await grep({ pattern: 'TODO|todo', path: `${TREE}/src`, output_mode: 'count' }), ['search-tree/src/main.ts:2', 'search-tree/src/nested/deep.ts:1', 'search-tree/src/util.ts:1'].join('\n'));
    });

    it('filters by glob and ignores case on request', async () => {
      assert.strictEqual(await grep({ pattern: 'todo:', glob: '*.ts', case_insensitive: true }), ['search-tree/src/main.ts:3:// TODO: handle errors', 'search-tree/src/main.ts:9:  // todo: lower-case marker', 'search-tree/src/util.ts:2:  return value * 2; // TODO: check overflow'].join('\n'));
    });

    it('searches literal text with fixed_strings', async () => {
      assert.strictEqual(await grep({ pattern: 'a.b(c)', fixed_strings: true }), "search-tree/src/main.ts:13:export const pattern = 'a.b(c)';");
    });

    it('prints context lines and -- between groups', async () => {
      assert.strictEqual(
        await grep({ pattern: 'MARK', path: `${TREE}/context.txt`, context: 1 }),
        ['2-line 2', ':3:line 3 MARK', '-4-line 4', ':5:line 5 MARK', '-6-line 6', '--', '-14-line 14', ':15:line 15 MARK', '-16-line 16']
          .map((line, index) => (index === 0 ? `search-tree/context.txt-${line}` : line === '--' ? line : `search-tree/context.txt${line}`))
          .join('\n'),
      );
    });

    it('stops at max_results and says more exist', async () => {
      const output = lines(await grep({ pattern: 'TODO', max_results: 2 }));
      assert.strictEqual(output.length, 3);
      assert.match(output[2], /^\[More than 2 matching lines exist; these are the first 2 found, in path order\./);
    });

    it('counts what was left out when the search ran to the end', async () => {
      assert.match(await grep({ pattern: 'MARK', path: `${TREE}/context.txt`, max_results: 2 }), /\n\[1 more matching lines not shown \(3 matching lines in 1 files in all\)/);
    });

    it('matches $ before CRLF and prints the line without the carriage return', async () => {
      assert.strictEqual(await grep({ pattern: 'line\\$$', path: `${TREE}/crlf.txt` }), 'search-tree/crlf.txt:3:last line$');
    });

    it('cuts a very long minified line around the match', async () => {
      const output = await grep({ pattern: 'NEEDLE_MINIFIED' });
      assert.match(output, /^search-tree\/minified\.js:1:\[…\d+ chars\] .*NEEDLE_MINIFIED\(\);.* \[…\d+ chars\]$/);
      assert.ok(output.length < 600, `${output.length} characters`);
    });

    it('answers an invalid regex with the engine message', async () => {
      assert.match(await invokeError('workspace_grep', { pattern: 'foo(', path: TREE }), /Invalid regular expression "foo\(":\s*regex parse error:[\s\S]*unclosed group/);
    });

    it('ends a cancelled call with an error, not results', async () => {
      const source = new vscode.CancellationTokenSource();
      source.cancel();
      await assert.rejects(invoke('workspace_grep', { pattern: 'TODO', path: TREE }, source.token), /cancel/i);
    });
  });

  describe('the same tree on an in-memory file system (fallback engine)', () => {
    let registration: vscode.Disposable;
    before(() => {
      registration = vscode.workspace.registerFileSystemProvider(SCHEME, new SnapshotFileSystem(tree, '/tree'), { isReadonly: true });
    });
    after(() => registration.dispose());

    const onBoth = async (tool: string, input: Record<string, unknown>): Promise<{ disk: string; memory: string }> => {
      const answer = async (root: string, shown: RegExp): Promise<string> => {
        const scoped = { ...input, path: input.path === undefined ? root : `${root}/${String(input.path)}` };
        try {
          return (await text(tool, scoped)).replace(shown, '');
        } catch (error) {
          return `error: ${(error instanceof Error ? error.message : String(error)).replace(shown, '')}`;
        }
      };
      return withSettings({ allowedReadPaths: [workspaceRoot(), MEMORY_ROOT] }, async () => ({
        disk: await answer(TREE, /search-tree\/?/g),
        memory: await answer(MEMORY_ROOT, /watsearch:(\/\/)?\/tree\/?/g),
      }));
    };

    const GREP_INPUTS: Record<string, unknown>[] = [
      { pattern: 'TODO' },
      { pattern: 'TODO', output_mode: 'files_with_matches' },
      { pattern: 'TODO|todo', output_mode: 'count' },
      { pattern: 'todo:', case_insensitive: true, glob: '*.ts' },
      { pattern: 'a.b(c)', fixed_strings: true },
      { pattern: 'MARK', context: 2 },
      { pattern: 'MARK', max_results: 2, path: 'context.txt' },
      { pattern: 'line\\$$' },
      { pattern: 'NEEDLE_MINIFIED' },
      { pattern: 'export function (\\w+)', path: 'src', glob: 'nested/**' },
      { pattern: 'TODO', glob: '!*.{ts,log}' },
      { pattern: 'TODO', path: 'build' },
      { pattern: '(a+)+$' },
      { pattern: 'foo(' },
    ];
    for (const input of GREP_INPUTS) {
      it(`grep ${JSON.stringify(input)} gives the same answer`, async () => {
        const { disk, memory } = await onBoth('workspace_grep', input);
        assert.strictEqual(memory.split('\n')[0].startsWith('error: Invalid regular expression') ? memory.split('\n')[0] : memory, input.pattern === 'foo(' ? disk.split('\n')[0] : disk);
      });
    }

    const GLOB_INPUTS: Record<string, unknown>[] = [
      { pattern: '**/*' },
      { pattern: '**/*.ts' },
      { pattern: '*.log' },
      { pattern: '.github/**' },
      { pattern: '**/{util,deep}.ts' },
      { pattern: '*.ts', path: 'src' },
      { pattern: 'build/*' },
    ];
    for (const input of GLOB_INPUTS) {
      it(`glob ${JSON.stringify(input)} gives the same answer`, async () => {
        const { disk, memory } = await onBoth('workspace_glob', input);
        assert.strictEqual(memory, disk);
      });
    }
  });
});
