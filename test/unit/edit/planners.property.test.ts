import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { planTextEdit } from '../../../src/core/edit/editPlanner';
import { splitLines, type TextLine } from '../../../src/core/text/lineEndings';
import { parsePatch } from '../../../src/core/edit/patchParser';
import { planPatch } from '../../../src/core/edit/patchPlanner';

// Files of unique lines (so a chosen region is unambiguous) with random terminators and final newline.
const fileArbitrary = fc
  .record({
    count: fc.integer({ min: 1, max: 30 }),
    eols: fc.array(fc.constantFrom('\n', '\r\n', '\r'), { minLength: 30, maxLength: 30 }),
    words: fc.array(fc.stringMatching(/^[a-z ]{0,12}$/), { minLength: 30, maxLength: 30 }),
    finalNewline: fc.boolean(),
  })
  .map(({ count, eols, words, finalNewline }) => {
    let text = '';
    for (let i = 0; i < count; i += 1) {
      text += `L${i}:${words[i]}`;
      if (i < count - 1 || finalNewline) {
        text += eols[i];
      }
    }
    return text;
  });

function assertOutsideUnchanged(before: readonly TextLine[], after: readonly TextLine[], start: number, removed: number, added: number): void {
  assert.deepEqual(after.slice(0, start), before.slice(0, start));
  const tailBefore = before.slice(start + removed);
  const tailAfter = after.slice(start + added);
  assert.deepEqual(tailAfter, tailBefore);
}

describe('planners keep every line outside the edited region (property)', () => {
  it('edit_file: replacing a range of whole lines leaves all other lines and terminators byte-identical', () => {
    fc.assert(
      fc.property(fileArbitrary, fc.nat(), fc.nat(), fc.array(fc.stringMatching(/^[A-Z]{1,8}$/), { minLength: 0, maxLength: 4 }), (text, a, b, replacement) => {
        const lines = splitLines(text);
        const start = a % lines.length;
        const length = 1 + (b % (lines.length - start));
        // old_string as the model sees it: LF, the region's lines, ending before the last terminator.
        const oldString = lines.slice(start, start + length).map((line) => line.text).join('\n');
        const newString = replacement.map((word) => `NEW ${word}`).join('\n');
        const outcome = planTextEdit(lines, { oldString, newString, replaceAll: false }, 'f');
        const added = outcome.lines.length - lines.length + length;
        assertOutsideUnchanged(lines, outcome.lines, start, length, added);
      }),
      { numRuns: 300 },
    );
  });

  it('edit_file: replacing any unique span, mid-line included, leaves the lines it does not touch byte-identical', () => {
    fc.assert(
      fc.property(fileArbitrary, fc.nat(), fc.nat(), fc.stringMatching(/^[A-Z\n]{0,12}$/), (text, a, b, newString) => {
        const lines = splitLines(text);
        // The span is taken from the LF view the model reads; it may start and end inside lines.
        const lf = lines.map((line) => line.text + (line.eol === '' ? '' : '\n')).join('');
        const start = a % lf.length;
        const oldString = lf.slice(start, start + 1 + (b % (lf.length - start)));
        fc.pre(lf.indexOf(oldString) === lf.lastIndexOf(oldString) && oldString !== newString);
        const firstLine = lf.slice(0, start).split('\n').length - 1;
        const lastLine = lf.slice(0, start + oldString.length - 1).split('\n').length - 1;
        const outcome = planTextEdit(lines, { oldString, newString, replaceAll: false }, 'f');
        assert.deepEqual(outcome.lines.slice(0, firstLine), lines.slice(0, firstLine));
        const untouchedAfter = lines.slice(lastLine + 1);
        assert.deepEqual(outcome.lines.slice(outcome.lines.length - untouchedAfter.length), untouchedAfter);
        // The replaced text is really there, in the LF view of the new file.
        const newLf = outcome.lines.map((line) => line.text + (line.eol === '' ? '' : '\n')).join('');
        assert.equal(newLf, lf.slice(0, start) + newString + lf.slice(start + oldString.length));
      }),
      { numRuns: 500 },
    );
  });

  it('apply_patch: an update chunk leaves all other lines and terminators byte-identical', () => {
    fc.assert(
      fc.property(fileArbitrary, fc.nat(), fc.nat(), fc.array(fc.stringMatching(/^[A-Z]{1,8}$/), { minLength: 0, maxLength: 4 }), (text, a, b, replacement) => {
        const lines = splitLines(text);
        const start = a % lines.length;
        const length = 1 + (b % (lines.length - start));
        const chunk = [...lines.slice(start, start + length).map((line) => `-${line.text}`), ...replacement.map((word) => `+NEW ${word}`)];
        const patch = ['*** Begin Patch', '*** Update File: f.txt', '@@', ...chunk, '*** End Patch'].join('\n');
        const [planned] = planPatch(parsePatch(patch), { state: () => ({ kind: 'file', lines }), key: (p) => p });
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
