// Both engines must answer every query the same way on the same tree: ripgrep (local disk) and the
// walk over the FileSystem port with re2js (forced here by giving the context no ripgrep binary).
import * as assert from 'node:assert/strict';
import type { ToolContext } from '../../../../src/core/context';
import type { ToolSettings } from '../../../../src/core/settings';
import { globTool } from '../../../../src/core/tools/glob';
import { grepTool, type GrepInput } from '../../../../src/core/tools/grep';
import { resultText, testContext } from '../../support/context';
import { invokeTool } from '../../../../src/core/tools/invoke';
import { makeSearchTree, RIPGREP, type SearchTree } from '../../support/searchTree';
import { underWine } from '../../support/platforms';
import { allPairs } from '../../support/pairwise';

async function answer(run: () => Promise<{ parts: readonly { kind: string; text?: string }[] }>): Promise<string> {
  try {
    return resultText(await run());
  } catch (error) {
    return `error: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
}

const PATTERNS = ['TODO', 'a.b(c)', '^line \\d+( MARK)?$', 'export function (\\w+)', 'NEEDLE_MINIFIED', '\\$$'];
const PATHS = [undefined, 'src', 'src/main.ts', 'build'];
const GLOBS = [undefined, '*.ts', 'nested/**', '!*.{ts,log}'];
const MODES = ['content', 'files_with_matches', 'count'] as const;

describe('search/engines', () => {
  describe('engine parity: ripgrep and the fallback give identical results', () => {
    let tree: SearchTree;
    before(() => {
      tree = makeSearchTree();
    });
    after(() => tree.remove());

    // Redaction is the same for both engines and tested on its own; here it would only cost time.
    const contexts = (settings: Partial<ToolSettings> = {}): { ripgrep: ToolContext; fallback: ToolContext } => ({
      ripgrep: testContext({ root: tree.root, settings: { redactSecrets: false, ...settings }, ripgrepPath: RIPGREP }),
      fallback: testContext({ root: tree.root, settings: { redactSecrets: false, ...settings } }),
    });

    // Every pair of values of any two parameters (path, glob, mode, case, fixed_strings, context,
    // max_results) is met for each pattern (all-pairs: support/pairwise.ts), and the whole grid of
    // path x glob x mode x case x fixed_strings once over the six patterns: each pattern runs one
    // cell in STRIDE of it, a different one for each pattern. The whole product for each pattern
    // (1,152 searches per engine) took 13-33 s a pattern on 2 busy cores.
    // Under wine each start of rg.exe costs a few hundred milliseconds (192 searches took 63-119 s on
    // a loaded 2-core machine): there each pattern runs its cells of the grid only. The grid's logic
    // is the same on every platform; what wine adds is Windows' paths, which every input has.
    const STRIDE = 6;
    const PAIRED = ['path', 'glob', 'output_mode', 'case_insensitive', 'fixed_strings', 'context', 'max_results'] as const;
    PATTERNS.forEach((pattern, patternIndex) => {
      const subject = underWine ? `one in ${STRIDE} of the grid of path, glob, mode, case and fixed_strings (under wine)` : `every pair of path, glob, mode, case, fixed_strings, context and max_results, and one in ${STRIDE} of the whole grid`;
      it(`grep ${JSON.stringify(pattern)}: ${subject}`, async function () {
        this.timeout(underWine ? 300_000 : 120_000);
        const { ripgrep, fallback } = contexts();
        const grid: GrepInput[] = [];
        const candidates: GrepInput[] = [];
        for (const searchPath of PATHS) {
          for (const glob of GLOBS) {
            for (const output_mode of MODES) {
              for (const case_insensitive of [false, true]) {
                for (const fixed_strings of [false, true]) {
                  // context and max_results take turns in the grid, so each value meets every mode, path and glob.
                  const turn = grid.length;
                  const context = output_mode === 'content' && turn % 2 === 0 ? 2 : 0;
                  // A cap the tree never exceeds keeps both engines deterministic (past it they stop wherever they are).
                  const max_results = Math.floor(turn / 2) % 2 === 0 ? 30 : undefined;
                  grid.push({ pattern, path: searchPath, glob, output_mode, case_insensitive, fixed_strings, context, max_results });
                  // Context lines are only shown in the content mode.
                  for (const context of output_mode === 'content' ? [0, 2] : [0]) {
                    for (const max_results of [30, undefined]) {
                      candidates.push({ pattern, path: searchPath, glob, output_mode, case_insensitive, fixed_strings, context, max_results });
                    }
                  }
                }
              }
            }
          }
        }
        const cells = grid.filter((_, index) => index % STRIDE === patternIndex % STRIDE);
        const chosen = underWine ? cells : allPairs(candidates, PAIRED, cells);
        for (let start = 0; start < chosen.length; start += 8) {
          await Promise.all(
            chosen.slice(start, start + 8).map(async (input) => {
              const [fromRipgrep, fromFallback] = await Promise.all([answer(() => invokeTool(grepTool, input, ripgrep)), answer(() => invokeTool(grepTool, input, fallback))]);
              assert.equal(fromFallback, fromRipgrep, JSON.stringify(input));
            }),
          );
        }
      });
    });

    it('grep: an invalid regex is refused by both with the same first line', async () => {
      const { ripgrep, fallback } = contexts();
      for (const pattern of ['foo(', '[a-', 'a{2,1}', '*x']) {
        const [fromRipgrep, fromFallback] = await Promise.all([answer(() => invokeTool(grepTool, { pattern }, ripgrep)), answer(() => invokeTool(grepTool, { pattern }, fallback))]);
        assert.match(fromRipgrep, /^error: Invalid regular expression/);
        assert.equal(fromFallback, fromRipgrep);
      }
    });

    it('grep: files.exclude applies the same way', async () => {
      const { ripgrep, fallback } = contexts({ filesExclude: ['**/nested', 'docs/*.md', '*.txt'] });
      for (const searchPath of [undefined, 'src', 'src/nested']) {
        const input: GrepInput = { pattern: 'TODO|line', path: searchPath };
        assert.equal(await answer(() => invokeTool(grepTool, input, fallback)), await answer(() => invokeTool(grepTool, input, ripgrep)), JSON.stringify(input));
      }
    });

    const GLOB_PATTERNS = ['**/*', '**/*.ts', '*', '*.log', 'src/**', 'src/*/*.ts', '**/{util,deep}.ts', '**/[dm]*.ts', '.github/**', '**/.gitignore', '**/*.{md,yml,txt}', 'build/*', '**/nested/*', 'src/nested/generated.ts', '**/loop/**'];

    for (const searchPath of [undefined, 'src', 'src/nested', 'build']) {
      it(`glob in ${searchPath ?? 'the root'}: every pattern`, async () => {
        const { ripgrep, fallback } = contexts();
        for (const pattern of GLOB_PATTERNS) {
          const input = { pattern, path: searchPath };
          const [fromRipgrep, fromFallback] = await Promise.all([answer(() => invokeTool(globTool, input, ripgrep)), answer(() => invokeTool(globTool, input, fallback))]);
          assert.equal(fromFallback, fromRipgrep, JSON.stringify(input));
        }
      });
    }

    it('glob: files.exclude applies the same way', async () => {
      const { ripgrep, fallback } = contexts({ filesExclude: ['**/nested', 'docs/*.md', '*.txt'] });
      for (const pattern of ['**/*', 'src/**']) {
        assert.equal(await answer(() => invokeTool(globTool, { pattern }, fallback)), await answer(() => invokeTool(globTool, { pattern }, ripgrep)), pattern);
      }
    });
  });
});
