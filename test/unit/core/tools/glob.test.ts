import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ToolContext } from '../../../../src/core/context';
import type { ToolSettings } from '../../../../src/core/settings';
import { globTool, MAX_GLOB_RESULTS } from '../../../../src/core/tools/glob';
import { resultText, testContext } from '../../support/context';
import { invokeTool } from '../../../../src/core/tools/invoke';
import { makeSearchTree, RIPGREP, type SearchTree } from '../../support/searchTree';
import type { IgnoreFileIndex } from '../../../../src/core/ports/search';
import { InotifyWatcher } from '../../../../src/core/sandbox/node/inotifyWatch';
import { ScanIndex } from '../../../../src/core/sandbox/scanIndex';
import { itOnlyOn } from '../../support/platforms';

describe('tools/glob', () => {
  // Once without an index (each name glob's listing names the .gitignore files too), once with the
  // one the extension keeps on Linux (sandbox/scanIndex.ts), which knows where they are.
  for (const withIndex of [false, true]) {
    describe(`workspace_glob (ripgrep engine${withIndex ? ', .gitignore files from the watched index' : ''})`, () => {
      let tree: SearchTree;
      let scanIndex: ScanIndex | undefined;
      /** Whether each name glob was answered from the index. */
      const answered: boolean[] = [];
      let ignoreIndex: IgnoreFileIndex | undefined;
      before(async () => {
        tree = makeSearchTree();
        if (withIndex) {
          scanIndex = new ScanIndex(new InotifyWatcher());
          scanIndex.track([fs.realpathSync(tree.root)]);
          await scanIndex.settled();
          const index = scanIndex;
          ignoreIndex = {
            ignoreFileFolders: async (folder) => {
              const folders = await index.ignoreFileFolders(folder);
              answered.push(folders !== undefined);
              return folders;
            },
          };
        }
      });
      after(() => {
        scanIndex?.dispose();
        tree.remove();
      });

      const context = (settings: Partial<ToolSettings> = {}): ToolContext => testContext({ root: tree.root, settings, ripgrepPath: RIPGREP, ignoreIndex });
      const glob = async (pattern: string, extra: { path?: string } = {}, settings: Partial<ToolSettings> = {}) =>
        resultText(await invokeTool(globTool, { pattern, ...extra }, context(settings)));

      if (withIndex) {
        itOnlyOn('linux', 'the scan index, whose inotify watches the extension keeps on Linux only')('answers a name glob from the index, which vouches for the tree', async () => {
          answered.length = 0;
          await glob('**/*.ts');
          assert.deepEqual(answered, [true]);
        });
      }

      describe('with a .gitignore written, deleted or moved in just before the call', () => {
        const fresh = (...parts: string[]): string => path.join(tree.root, 'fresh', ...parts);
        const sorted = async (pattern: string): Promise<string[]> => (await glob(pattern)).split('\n').sort();
        beforeEach(() => {
          fs.mkdirSync(fresh('inner'), { recursive: true });
          fs.writeFileSync(fresh('inner', 'hidden.cfg'), '');
          fs.writeFileSync(fresh('inner', 'shown.cfg'), '');
        });
        afterEach(() => fs.rmSync(fresh(), { recursive: true, force: true }));

        it('hides what a .gitignore written just before the call names', async () => {
          assert.deepEqual(await sorted('fresh/**/*.cfg'), ['fresh/inner/hidden.cfg', 'fresh/inner/shown.cfg']);
          fs.writeFileSync(fresh('inner', '.gitignore'), 'hidden.cfg\n');
          assert.deepEqual(await sorted('fresh/**/*.cfg'), ['fresh/inner/shown.cfg']);
        });

        it('shows again what a .gitignore deleted just before the call named', async () => {
          fs.writeFileSync(fresh('.gitignore'), 'hidden.cfg\n');
          assert.deepEqual(await sorted('**/*.cfg'), ['fresh/inner/shown.cfg']);
          fs.rmSync(fresh('.gitignore'));
          assert.deepEqual(await sorted('**/*.cfg'), ['fresh/inner/hidden.cfg', 'fresh/inner/shown.cfg']);
        });

        it('reads no .gitignore that is a link, as git does not and as the listing never named one', async () => {
          fs.writeFileSync(path.join(tree.outside, 'rules'), 'hidden.cfg\n');
          fs.symlinkSync(path.join(tree.outside, 'rules'), fresh('inner', '.gitignore'));
          assert.deepEqual(await sorted('fresh/**/*.cfg'), ['fresh/inner/hidden.cfg', 'fresh/inner/shown.cfg']);
        });

        it('applies the .gitignore of a folder moved into the tree just before the call', async () => {
          const elsewhere = path.join(tree.outside, 'moved');
          fs.mkdirSync(elsewhere);
          fs.writeFileSync(path.join(elsewhere, '.gitignore'), '*.cfg\n!kept.cfg\n');
          fs.writeFileSync(path.join(elsewhere, 'dropped.cfg'), '');
          fs.writeFileSync(path.join(elsewhere, 'kept.cfg'), '');
          fs.renameSync(elsewhere, fresh('moved'));
          assert.deepEqual(await sorted('fresh/**/*.cfg'), ['fresh/inner/hidden.cfg', 'fresh/inner/shown.cfg', 'fresh/moved/kept.cfg']);
        });
      });

      it('matches across folders with ** and lists the newest modification first', async () => {
        assert.equal(await glob('**/*.ts'), ['src/main.ts', 'src/util.ts', 'src/nested/deep.ts'].join('\n'));
      });

      it('leaves out files hidden by the root .gitignore', async () => {
        const all = (await glob('**/*')).split('\n');
        assert.ok(!all.includes('build/out.js'));
        assert.ok(!all.includes('debug.log'));
      });

      it('leaves out files hidden by a nested .gitignore', async () => {
        const all = (await glob('**/*')).split('\n');
        assert.ok(!all.includes('src/nested/generated.ts'));
      });

      it('honours negations in .gitignore', async () => {
        const all = (await glob('**/*')).split('\n');
        assert.ok(all.includes('keep.log'));
      });

      it('matches a single * only in the top folder', async () => {
        assert.equal(await glob('*.log'), 'keep.log');
      });

      it('expands braces', async () => {
        assert.deepEqual((await glob('**/{util,deep}.ts')).split('\n').sort(), ['src/nested/deep.ts', 'src/util.ts']);
      });

      it('expands character classes', async () => {
        assert.deepEqual((await glob('src/**/[dm]*.ts')).split('\n').sort(), ['src/main.ts', 'src/nested/deep.ts']);
      });

      it('matches dotfiles and dot-folders only when the pattern names them', async () => {
        assert.ok(!(await glob('**/*.yml')).includes('ci.yml'));
        assert.equal(await glob('.github/**/*.yml'), '.github/workflows/ci.yml');
        assert.deepEqual((await glob('**/.gitignore')).split('\n').sort(), ['.gitignore', 'src/nested/.gitignore']);
      });

      it('searches inside path and still shows workspace-relative paths', async () => {
        assert.equal(await glob('*.ts', { path: 'src' }), ['src/main.ts', 'src/util.ts'].join('\n'));
      });

      describe('never follows symlinks', () => {
        it('lists nothing from outside the workspace and nothing through a loop', async () => {
          const all = (await glob('**/*')).split('\n');
          assert.ok(!all.some((line) => line.includes('secret-outside') || line.includes('link-outside') || line.includes('loop/')));
        });

        it('lists each file once despite a loop', async () => {
          const all = (await glob('**/*')).split('\n');
          assert.equal(new Set(all).size, all.length);
        });

        it('leaves out a symlinked file', async () => {
          const all = (await glob('**/*')).split('\n');
          assert.ok(!all.includes('src/main-link.ts'));
        });
      });

      it('refuses a pattern that climbs out of the workspace with the guard rule', async () => {
        await assert.rejects(glob('../**'), /Denied by file\.outside_workspace_read/);
      });

      it('refuses an absolute pattern outside the workspace with the guard rule', async () => {
        await assert.rejects(glob('/etc/*'), /Denied by file\.outside_workspace_read/);
      });

      it('refuses an absolute pattern into a system folder with the guard rule', async () => {
        await assert.rejects(glob('/proc/*'), /Denied by file\.system_path_read/);
      });

      it('hides what files.exclude hides', async () => {
        const text = await glob('**/*', {}, { filesExclude: ['**/docs', 'src/nested/**'] });
        assert.ok(!text.includes('docs/readme.md'));
        assert.ok(!text.includes('src/nested/deep.ts'));
        assert.ok(text.includes('src/main.ts'));
      });

      describe('with more files than it lists', () => {
        let many: string;
        before(() => {
          many = path.join(tree.root, 'many');
          fs.mkdirSync(many);
          for (let i = 0; i < MAX_GLOB_RESULTS + 5; i += 1) {
            fs.writeFileSync(path.join(many, `f${i}.txt`), '');
          }
        });
        after(() => fs.rmSync(many, { recursive: true }));

        it('lists at most 100 paths and counts the rest', async () => {
          const lines = (await glob('many/*.txt')).split('\n');
          assert.equal(lines.length, MAX_GLOB_RESULTS + 1);
          assert.equal(lines[MAX_GLOB_RESULTS], '[5 more not shown]');
          assert.equal((await invokeTool(globTool, { pattern: 'many/*.txt' }, context())).continuation, '[5 more not shown]');
          assert.equal((await invokeTool(globTool, { pattern: 'many/f1.txt' }, context())).continuation, undefined);
        });
      });

      describe('with a .gitignore among 320 files', () => {
        let many: string;
        before(() => {
          many = path.join(tree.root, 'many-ignored');
          fs.mkdirSync(many);
          fs.writeFileSync(path.join(many, '.gitignore'), 'f7.txt\n');
          for (let i = 0; i < 320; i += 1) {
            fs.writeFileSync(path.join(many, `f${i}.txt`), '');
          }
        });
        after(() => fs.rmSync(many, { recursive: true }));

        it('honours .gitignore for a name glob with many matches', async () => {
          const text = await glob('many-ignored/*.txt');
          assert.ok(!text.split('\n').includes('many-ignored/f7.txt'));
          assert.match(text, /\n\[219 more not shown\]$/);
        });

        it('honours .gitignore for a name glob with few matches', async () => {
          assert.doesNotMatch(await glob('many-ignored/f7*'), /f7\.txt/);
        });
      });

      describe('with 320 files and rules with classes and negations, above and beside them', () => {
        let many: string;
        before(() => {
          many = path.join(tree.root, 'many-rules');
          fs.mkdirSync(path.join(many, 'inner'), { recursive: true });
          // The folder above the searched one hides h*.txt but brings one back; the searched one hides g1x.txt but g15.txt.
          fs.writeFileSync(path.join(many, '.gitignore'), 'h[0-9]*.txt\n!h3.txt\n');
          fs.writeFileSync(path.join(many, 'inner', '.gitignore'), 'g1[0-9].txt\n!g15.txt\n');
          for (let i = 0; i < 320; i += 1) {
            fs.writeFileSync(path.join(many, 'inner', `g${i}.txt`), '');
          }
          for (let i = 0; i < 5; i += 1) {
            fs.writeFileSync(path.join(many, 'inner', `h${i}.txt`), '');
          }
        });
        after(() => fs.rmSync(many, { recursive: true }));

        /** Every path the glob finds: the listed ones and, from the count, how many more. */
        const found = async (pattern: string, searchPath?: string) => {
          const lines = (await glob(pattern, searchPath === undefined ? {} : { path: searchPath })).split('\n');
          const more = /^\[(\d+) more not shown\]$/.exec(lines[lines.length - 1]);
          return { shown: more ? lines.slice(0, -1) : lines, total: lines.length - (more ? 1 : 0) + (more ? Number(more[1]) : 0) };
        };

        it('counts exactly the files the rules leave', async () => {
          // 320 g files less g10..g19 but g15, and of the h files only h3.
          assert.equal((await found('**/*.txt', 'many-rules/inner')).total, 320 - 9 + 1);
          assert.equal((await found('**/*.txt', 'many-rules')).total, 320 - 9 + 1);
          assert.equal((await found('many-rules/inner/*.txt')).total, 320 - 9 + 1);
        });

        it('lists the files a negation brings back and none a class hides', async () => {
          for (const searchPath of ['many-rules', 'many-rules/inner']) {
            const shown = (await found('**/[gh]1[0-9].txt', searchPath)).shown;
            assert.deepEqual(shown.filter((line) => /\/g1[0-9]\.txt$/.test(line)), ['many-rules/inner/g15.txt'], searchPath);
            assert.deepEqual((await found('**/h*.txt', searchPath)).shown, ['many-rules/inner/h3.txt'], searchPath);
          }
        });
      });

      describe('with an ignored folder whose name ends like the files', () => {
        let dir: string;
        before(() => {
          dir = path.join(tree.root, 'dep-tree');
          fs.mkdirSync(path.join(dir, 'cache.d'), { recursive: true });
          fs.mkdirSync(path.join(dir, 'ok'));
          fs.writeFileSync(path.join(dir, '.gitignore'), 'cache.d/\n');
          fs.writeFileSync(path.join(dir, 'cache.d', 'inner.d'), '');
          fs.writeFileSync(path.join(dir, 'ok', 'kept.d'), '');
        });
        after(() => fs.rmSync(dir, { recursive: true }));

        it('hides the inside of an ignored folder whose own name matches the name glob', async () => {
          assert.equal(await glob('dep-tree/**/*.d'), 'dep-tree/ok/kept.d');
        });
      });

      describe('with a .gitignore deep in the tree', () => {
        before(() => {
          const deep = path.join(tree.root, 'deep-rules', 'a', 'b');
          fs.mkdirSync(deep, { recursive: true });
          fs.writeFileSync(path.join(deep, '.gitignore'), 'secret.cfg\n');
          fs.writeFileSync(path.join(deep, 'secret.cfg'), '');
          fs.writeFileSync(path.join(deep, 'public.cfg'), '');
        });
        after(() => fs.rmSync(path.join(tree.root, 'deep-rules'), { recursive: true }));

        it('applies it to a name glob with few matches', async () => {
          assert.equal(await glob('**/*.cfg'), 'deep-rules/a/b/public.cfg');
        });

        it('applies it to a name glob searched from a folder above it', async () => {
          assert.equal(await glob('**/*.cfg', { path: 'deep-rules/a' }), 'deep-rules/a/b/public.cfg');
        });

        // Hiding the .gitignore files from view does not switch their rules off.
        it('still applies it when files.exclude hides the .gitignore files', async () => {
          assert.equal(await glob('**/*.cfg', {}, { filesExclude: ['**/.gitignore'] }), 'deep-rules/a/b/public.cfg');
          assert.equal(await glob('**/*.cfg', {}, { filesExclude: ['deep-rules/a/b/.gitignore'] }), 'deep-rules/a/b/public.cfg');
        });

        it('does not list the .gitignore files that files.exclude hides', async () => {
          assert.equal(await glob('**/.gitignore', { path: 'deep-rules' }, { filesExclude: ['**/.gitignore'] }), 'No files match **/.gitignore in deep-rules (files hidden by .gitignore or files.exclude are not searched).');
        });
      });

      it('says when nothing matches', async () => {
        assert.match(await glob('**/*.nothing'), /^No files match \*\*\/\*\.nothing in the workspace/);
      });

      it('refuses patterns longer than the bound', async () => {
        await assert.rejects(glob(`${'a'.repeat(600)}*`), /at most 512 are accepted/);
      });

      it('refuses brace groups that would expand into too many patterns', async () => {
        await assert.rejects(glob('{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}/*'), /expands into 512 alternatives/);
        await assert.rejects(glob('{1..100000}/*.ts'), /expands into 100000 alternatives/);
      });

      it('refuses a file as path', async () => {
        await assert.rejects(glob('*', { path: 'src/main.ts' }), /is a file, not a folder/);
      });
    });
  }
});
