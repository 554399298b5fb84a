import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ToolContext } from '../../../../src/core/context';
import type { ToolSettings } from '../../../../src/core/settings';
import { MAX_GREP_LINE_CHARS } from '../../../../src/core/search/grepOutput';
import { grepTool, searchText, type GrepInput } from '../../../../src/core/tools/grep';
import { ManualCancellation, resultText, testContext } from '../../support/context';
import { invokeTool } from '../../../../src/core/tools/invoke';
import { makeSearchTree, RIPGREP, type SearchTree } from '../../support/searchTree';
import { skipUnlessOn } from '../../support/platforms';

describe('tools/grep', () => {
  describe('workspace_grep (ripgrep engine)', () => {
    let tree: SearchTree;
    before(() => {
      tree = makeSearchTree();
    });
    after(() => tree.remove());

    const context = (settings: Partial<ToolSettings> = {}): ToolContext => testContext({ root: tree.root, settings, ripgrepPath: RIPGREP });
    const grep = async (input: GrepInput, settings: Partial<ToolSettings> = {}) => resultText(await invokeTool(grepTool, input, context(settings)));

    it('prints path:line:text for every match, files in path order', async () => {
      assert.equal(
        await grep({ pattern: 'TODO', glob: '*.ts' }),
        ['src/main.ts:3:// TODO: handle errors', 'src/nested/deep.ts:2:  return "TODO deep";', 'src/util.ts:2:  return value * 2; // TODO: check overflow'].join('\n'),
      );
    });

    it('skips ignored, binary, secret and symlinked files but searches dot-folders and unignored files', async () => {
      const files = (await grep({ pattern: 'TODO', output_mode: 'files_with_matches' })).split('\n');
      assert.deepEqual(files, ['.github/workflows/ci.yml', 'crlf.txt', 'docs/readme.md', 'keep.log', 'src/main.ts', 'src/nested/deep.ts', 'src/util.ts']);
    });

    it('counts matching lines per file as path:count', async () => {
      assert.equal(await grep({ pattern: 'TODO|todo', output_mode: 'count', path: 'src' }), ['src/main.ts:2', 'src/nested/deep.ts:1', 'src/util.ts:1'].join('\n'));
    });

    it('ignores case when asked', async () => {
      assert.equal(await grep({ pattern: 'todo:', path: 'src/main.ts', case_insensitive: true }), ['src/main.ts:3:// TODO: handle errors', 'src/main.ts:9:  // todo: lower-case marker'].join('\n'));
    });

    it('searches literal text with fixed_strings', async () => {
      assert.equal(await grep({ pattern: 'a.b(c)', fixed_strings: true }), "src/main.ts:13:export const pattern = 'a.b(c)';");
    });

    it('prints context lines as path-line-text with -- between separate groups', async () => {
      assert.equal(
        await grep({ pattern: 'MARK', path: 'context.txt', context: 1 }),
        ['context.txt-2-line 2', 'context.txt:3:line 3 MARK', 'context.txt-4-line 4', 'context.txt:5:line 5 MARK', 'context.txt-6-line 6', '--', 'context.txt-14-line 14', 'context.txt:15:line 15 MARK', 'context.txt-16-line 16'].join('\n'),
      );
    });

    it('stops at max_results matching lines and says that more exist', async () => {
      const lines = (await grep({ pattern: 'TODO', max_results: 2 })).split('\n');
      assert.equal(lines.length, 3);
      assert.ok(lines.slice(0, 2).every((line) => /^[^:]+:\d+:.*TODO/.test(line)), lines.join('\n'));
      assert.ok(lines[0] < lines[1], 'in path order');
      assert.equal(lines[2], '[More than 2 matching lines exist; these are the first 2 found, in path order. The search stopped there, so the total is unknown. Narrow the search with path or glob, or raise max_results.]');
    });

    it('gives the note on what was left out as the continuation, and none when nothing was', async () => {
      const more = await invokeTool(grepTool, { pattern: 'TODO', max_results: 2 }, context());
      assert.match(more.continuation ?? '', /^\[More than 2 matching lines exist; .*raise max_results\.\]$/);
      assert.ok(resultText(more).endsWith(more.continuation ?? '?'));
      assert.equal((await invokeTool(grepTool, { pattern: 'TODO', max_results: 1000 }, context())).continuation, undefined);
    });

    it('stops at max_results files in files_with_matches mode', async () => {
      const lines = (await grep({ pattern: 'TODO', output_mode: 'files_with_matches', max_results: 1 })).split('\n');
      assert.equal(lines.length, 2);
      assert.match(lines[1], /^\[More than 1 files exist; these are the first 1 found/);
    });

    it('counts what was left out when the last file found is the one past the cap', async () => {
      assert.equal(
        await grep({ pattern: 'MARK', path: 'context.txt', max_results: 2 }),
        ['context.txt:3:line 3 MARK', 'context.txt:5:line 5 MARK', '[1 more matching lines not shown (3 matching lines in 1 files in all). Narrow the search with path or glob, or raise max_results.]'].join('\n'),
      );
    });

    it('matches $ before a CRLF line ending and prints the line without the carriage return', async () => {
      assert.equal(await grep({ pattern: 'line\\$$', path: 'crlf.txt' }), 'crlf.txt:3:last line$');
    });

    it('cuts a very long line to a window that shows the match', async () => {
      const text = await grep({ pattern: 'NEEDLE_MINIFIED' });
      assert.ok(text.startsWith('minified.js:1:[…'));
      assert.ok(text.includes('NEEDLE_MINIFIED();'));
      assert.ok(text.length < MAX_GREP_LINE_CHARS + 80, `${text.length} characters`);
    });

    describe('filters files with a glob', () => {
      it('by name without a slash', async () => {
        assert.equal(await grep({ pattern: 'TODO', glob: '*.md', output_mode: 'files_with_matches' }), 'docs/readme.md');
      });

      it('by path with one', async () => {
        assert.equal(await grep({ pattern: 'TODO', glob: 'src/nested/*', output_mode: 'files_with_matches' }), 'src/nested/deep.ts');
      });

      it('excluding with !', async () => {
        assert.equal(await grep({ pattern: 'TODO', glob: '!*.{ts,yml,log,txt}', output_mode: 'files_with_matches' }), 'docs/readme.md');
      });
    });

    it('matches the glob relative to path', async () => {
      assert.equal(await grep({ pattern: 'TODO', path: 'src', glob: 'nested/*.ts', output_mode: 'files_with_matches' }), 'src/nested/deep.ts');
    });

    it('searches a folder named on purpose even though .gitignore hides it', async () => {
      assert.equal(await grep({ pattern: 'TODO', path: 'build' }), 'build/out.js:1:console.log("TODO build output");');
    });

    it('answers an invalid regex with the engine message and a way out', async () => {
      await assert.rejects(grep({ pattern: 'foo(' }), (error: Error) => /Invalid regular expression "foo\(":\nregex parse error:[\s\S]*unclosed group[\s\S]*fixed_strings/.test(error.message));
    });

    it('says when nothing matches', async () => {
      assert.equal(await grep({ pattern: 'no such text anywhere' }), 'No matches for "no such text anywhere" in the workspace.');
    });

    it('refuses a search root outside the workspace with the guard rule', async () => {
      await assert.rejects(grep({ pattern: 'TODO', path: tree.outside }), /Denied by file\.outside_workspace_read/);
    });

    it('hides what files.exclude hides', async () => {
      assert.ok(!(await grep({ pattern: 'TODO' }, { filesExclude: ['docs/**'] })).includes('docs/readme.md'));
    });

    it('refuses a pattern spanning lines', async () => {
      await assert.rejects(grep({ pattern: 'a\nb' }), /line break/);
    });

    describe('stopping', () => {
      let fakeRipgrep: string;
      let pidFile: string;
      before(function () {
        skipUnlessOn(this, ['linux', 'darwin'], 'a #!/bin/sh script standing in for ripgrep (Windows starts only .exe programs without a shell)');
        // Prints one match, then hangs like a search over a huge tree.
        fakeRipgrep = path.join(tree.outside, 'fake-rg.sh');
        pidFile = `${fakeRipgrep}.pid`;
        const events = [
          '{"type":"begin","data":{"path":{"text":"./a.txt"}}}',
          '{"type":"match","data":{"path":{"text":"./a.txt"},"lines":{"text":"found early\\n"},"line_number":7,"submatches":[{"start":0,"end":5}]}}',
          '{"type":"end","data":{"path":{"text":"./a.txt"},"binary_offset":null}}',
        ];
        fs.writeFileSync(fakeRipgrep, `#!/bin/sh\necho $$ > '${pidFile}'\nprintf '%s\\n' ${events.map((event) => `'${event}'`).join(' ')}\nexec sleep 600\n`, { mode: 0o755 });
      });
      beforeEach(() => fs.rmSync(pidFile, { force: true }));

      const isRunning = (pid: number): boolean => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };

      it('kills ripgrep at once when the call is cancelled', async () => {
        const token = new ManualCancellation();
        const search = invokeTool(grepTool, { pattern: 'found' }, testContext({ root: tree.root, token, ripgrepPath: fakeRipgrep }));
        while (!fs.existsSync(pidFile) || fs.readFileSync(pidFile, 'utf8').trim() === '') {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        const pid = Number(fs.readFileSync(pidFile, 'utf8'));
        token.cancel();
        await assert.rejects(search, /^ToolError: workspace_grep was cancelled; nothing was changed\.$/);
        assert.equal(isRunning(pid), false);
      });

      it('returns what it found with a note when the time budget runs out', async () => {
        const text = resultText(await searchText({ pattern: 'found' }, testContext({ root: tree.root, ripgrepPath: fakeRipgrep }), 300));
        assert.match(text, /^a\.txt:7:found early\n\[The search stopped after 0 s, so these are partial results/);
        assert.equal(isRunning(Number(fs.readFileSync(pidFile, 'utf8'))), false);
      });
    });
  });
});
