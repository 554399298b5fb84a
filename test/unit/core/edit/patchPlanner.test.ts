import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parsePatch } from '../../../../src/core/edit/patchParser';
import { planPatch, type PatchFileState, type PlannedPatchOperation } from '../../../../src/core/edit/patchPlanner';
import { joinLines, splitLines } from '../../../../src/core/text/lineEndings';
import { fileArbitrary } from '../../support/lineFiles';
import { loadPatchScenarios, readTree, scenarioTitle, writeTree } from '../../support/patchCorpus';

const wrap = (...body: string[]): string => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

function updated(file: string, ...body: string[]): string {
  const [planned] = planPatch(parsePatch(wrap('*** Update File: f.txt', ...body)).operations, { state: () => ({ kind: 'file', lines: splitLines(file) }), key: (p) => p });
  assert.ok(planned.kind === 'update');
  return joinLines(planned.lines);
}

function stateOf(root: string, name: string): PatchFileState {
  const full = path.join(root, name);
  if (!fs.existsSync(full)) {
    return { kind: 'missing' };
  }
  return fs.statSync(full).isDirectory() ? { kind: 'directory' } : { kind: 'file', lines: splitLines(fs.readFileSync(full, 'utf8')) };
}

/** Writes a plan to disk the simplest way: the planner is under test here, not the applier. */
function applyPlan(root: string, plan: readonly PlannedPatchOperation[]): void {
  for (const operation of plan) {
    const full = path.join(root, operation.path);
    if (operation.kind === 'delete') {
      fs.rmSync(full);
    } else {
      const target = operation.kind === 'update' && operation.moveTo ? path.join(root, operation.moveTo) : full;
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, operation.kind === 'add' ? operation.text : joinLines(operation.lines));
      if (target !== full) {
        fs.rmSync(full);
      }
    }
  }
}

/** Parses, plans against the tree and applies; planning throws before anything is written. */
function runPatch(root: string, patch: string): void {
  const plan = planPatch(parsePatch(patch).operations, { state: (name) => stateOf(root, name), key: (name) => path.resolve(root, name) });
  applyPlan(root, plan);
}

describe('edit/patchPlanner', () => {
  it('locates a chunk after its @@ context line, skipping an identical earlier block', () => {
    const file = 'def a():\n    return 1\ndef b():\n    return 1\n';
    assert.equal(updated(file, '@@ def b():', '-    return 1', '+    return 2'), 'def a():\n    return 1\ndef b():\n    return 2\n');
  });

  it('inserts added-only lines right after their @@ context line', () => {
    assert.equal(updated('a\nb\nc\n', '@@ a', '+inserted'), 'a\ninserted\nb\nc\n');
  });

  it('anchors an End of File chunk at the end', () => {
    assert.equal(updated('x\nend\nx\nend\n', '@@', ' x', '-end', '+END', '*** End of File'), 'x\nend\nx\nEND\n');
  });

  it('keeps a missing final newline when the last line changes', () => {
    assert.equal(updated('a\nb', '@@', ' a', '-b', '+B'), 'a\nB');
  });

  it('keeps a missing final newline when lines are appended', () => {
    assert.equal(updated('a\nb', '@@', '+c'), 'a\nb\nc');
  });

  it('matches context loosely (trailing whitespace) but keeps the file text of context lines', () => {
    assert.equal(updated('keep   \nold\n', '@@', ' keep', '-old', '+new'), 'keep   \nnew\n');
  });

  it('refuses a loose match that fits several places', () => {
    assert.throws(() => updated('x  \ny\nx \ny\n', '@@', '-x', '+z'), /match several places only when whitespace or punctuation is ignored/);
  });

  it('refuses two sections for one file', () => {
    assert.throws(
      () => planPatch(parsePatch(wrap('*** Delete File: a.txt', '*** Add File: a.txt', '+x')).operations, { state: () => ({ kind: 'file', lines: [] }), key: (p) => p }),
      /touches a\.txt twice/,
    );
  });

  describe('added lines follow the file indentation when the context matched only with other indentation', () => {
    it('re-indents added lines to a file indented deeper than the patch (the Python case)', () => {
      const file = 'class A:\n    def f(self):\n        return 1\n';
      assert.equal(updated(file, '@@', ' def f(self):', '-    return 1', '+    x = 2', '+    return x'), 'class A:\n    def f(self):\n        x = 2\n        return x\n');
    });

    it('re-indents added lines to a file indented less than the patch', () => {
      const file = 'def f():\n    return 1\n';
      assert.equal(updated(file, '@@', '     def f():', '-        return 1', '+        if x:', '+            return 2'), 'def f():\n    if x:\n        return 2\n');
    });

    it('measures each added line against the nearest old line above it', () => {
      const file = 'if a:\n    b()\nc()\n';
      // The model dropped the indentation of every line; the added lines keep their place in the block.
      assert.equal(updated(file, '@@', ' if a:', ' b()', '+d()', ' c()', '+e()'), 'if a:\n    b()\n    d()\nc()\ne()\n');
    });

    it('leaves added lines alone when only trailing whitespace differed', () => {
      assert.equal(updated('  a  \n', '@@', '   a', '+    b'), '  a  \n    b\n');
    });
  });

  describe('blank lines between sections', () => {
    it('applies a chunk after a blank line that follows the header at the first match, not after an empty line', () => {
      assert.equal(updated('x\n\nx\n', '', '@@', '-x', '+X'), 'X\n\nx\n');
    });

    it('applies a one-chunk patch with a blank line after the header to a file without empty lines', () => {
      assert.equal(updated('a\nb\n', '', '@@', '-b', '+B'), 'a\nB\n');
    });

    it('applies a chunk whose trailing bare blank line is a separator when the file has no empty line there', () => {
      assert.equal(updated('a\nb\nc\n', '@@', '-a', '+A', '', '@@', '-c', '+C', ''), 'A\nb\nC\n');
    });

    it('applies a chunk whose trailing bare blank line is an empty line of the file when both readings fit the same place', () => {
      assert.equal(updated('a\n\nb\n', '@@', '-a', '+A', ''), 'A\n\nb\n');
    });

    it('refuses when the trailing bare blank line makes the chunk fit another place', () => {
      assert.throws(() => updated('x\ny\nx\n\n', '@@', '-x', '+X', ''), /the blank line at its end could be an empty line of the file or a separator, and the chunk fits line 3 with it but line 1 without/);
    });

    it('appends an added-only chunk at the end even when a blank separator follows it', () => {
      assert.equal(updated('a\n\nb\n', '@@', '+c', ''), 'a\n\nb\nc\n');
    });
  });

  describe('stacked @@ anchors and the cursor', () => {
    const file = 'class A:\n    def m(self):\n        return 1\nclass B:\n    def m(self):\n        return 1\n';

    it('narrows the search anchor by anchor', () => {
      assert.equal(updated(file, '@@ class B:', '@@     def m(self):', '-        return 1', '+        return 2'), file.replace(/return 1\n$/, 'return 2\n'));
    });

    it('names the anchor that was not found and the one before it', () => {
      assert.throws(() => updated(file, '@@ class B:', '@@     def n(self):', '-        return 1', '+        return 2'), /In f\.txt, chunk 1 of 1 \(patch line 3\): the "@@     def n\(self\):" line was not found after "@@ class B:" \(line 4\)/);
    });

    it('keeps the cursor when an added-only chunk goes to the end, so a later chunk earlier in the file is found', () => {
      assert.equal(updated('a\nb\nc\n', '@@', '+z', '@@', '-a', '+A'), 'A\nb\nc\nz\n');
    });

    it('appends two added-only chunks at the end in patch order', () => {
      assert.equal(updated('a\nb', '@@', '+c', '@@', '+d'), 'a\nb\nc\nd');
    });

    it('names the file, the chunk and the lines when a chunk is not found', () => {
      assert.throws(() => updated('a\nb\n', '@@', ' a', '-c', '+C'), /In f\.txt, chunk 1 of 1 \(patch line 3\): these lines were not found:\n  a\n  c\n/);
    });
  });

  describe('keeps every line outside the edited region (property)', () => {
    it('apply_patch: an update chunk leaves all other lines and terminators byte-identical', () => {
      fc.assert(
        fc.property(fileArbitrary, fc.nat(), fc.nat(), fc.array(fc.stringMatching(/^[A-Z]{1,8}$/), { minLength: 0, maxLength: 4 }), (text, a, b, replacement) => {
          const lines = splitLines(text);
          const start = a % lines.length;
          const length = 1 + (b % (lines.length - start));
          const chunk = [...lines.slice(start, start + length).map((line) => `-${line.text}`), ...replacement.map((word) => `+NEW ${word}`)];
          const patch = ['*** Begin Patch', '*** Update File: f.txt', '@@', ...chunk, '*** End Patch'].join('\n');
          const [planned] = planPatch(parsePatch(patch).operations, { state: () => ({ kind: 'file', lines }), key: (p) => p });
          assert.ok(planned.kind === 'update');
          const added = planned.lines.length - lines.length + length;
          assert.ok(added >= replacement.length);
          assert.deepEqual(planned.lines.slice(0, start), lines.slice(0, start));
          // After the region, every original line keeps its text and terminator.
          const tailBefore = lines.slice(start + length);
          const tailAfter = planned.lines.slice(planned.lines.length - tailBefore.length);
          assert.deepEqual(tailAfter, tailBefore);
        }),
        { numRuns: 300 },
      );
    });
  });

  describe('the public apply_patch scenarios (codex fixture corpus), parsed and planned', () => {
    const scenarios = loadPatchScenarios();
    let root: string;
    beforeEach(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-patch-'));
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    it('has all 25 cases', () => assert.equal(scenarios.length, 25));

    for (const scenario of scenarios) {
      it(scenarioTitle(scenario), () => {
        writeTree(root, scenario.input);
        if (scenario.expectError) {
          assert.throws(() => runPatch(root, scenario.patch), /./);
        } else {
          runPatch(root, scenario.patch);
        }
        assert.deepEqual(readTree(root), scenario.expected);
      });
    }
  });
});
