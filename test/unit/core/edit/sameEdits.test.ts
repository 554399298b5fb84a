// One set of edits, three ways: applied one by one to an array of lines (the reference), as a
// workspace_edit_file `edits` list, and as an apply_patch chunk list (as written, with extra
// indentation, with less indentation than the file, with blank lines between its sections).
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { planTextEdits, type TextEditRequest } from '../../../../src/core/edit/editPlanner';
import { parsePatch } from '../../../../src/core/edit/patchParser';
import { planPatch } from '../../../../src/core/edit/patchPlanner';
import { joinLines, type TextLine } from '../../../../src/core/text/lineEndings';

const MAX_LINES = 20;

interface Region {
  readonly start: number;
  readonly end: number;
  readonly newTexts: readonly string[];
}

interface Scenario {
  readonly lines: readonly TextLine[];
  readonly regions: readonly Region[];
}

const indent = (level: number): string => ' '.repeat(4 * level);

/** Unique lines indented with spaces (at least `base` levels), one line-ending style, and edits of disjoint runs of lines. */
const scenarioArbitrary = (base: number): fc.Arbitrary<Scenario> =>
  fc
    .record({
      count: fc.integer({ min: 1, max: MAX_LINES }),
      eol: fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'),
      finalNewline: fc.boolean(),
      indents: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: MAX_LINES, maxLength: MAX_LINES }),
      words: fc.array(fc.stringMatching(/^[a-z ]{0,8}$/), { minLength: MAX_LINES, maxLength: MAX_LINES }),
      // Per line: 0 untouched, 1 starts an edit, 2 continues the edit before it.
      marks: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: MAX_LINES, maxLength: MAX_LINES }),
      replacements: fc.array(
        fc.array(fc.oneof(fc.constant(''), fc.record({ level: fc.integer({ min: 0, max: 3 }), word: fc.stringMatching(/^[A-Z]{1,6}$/) }).map(({ level, word }) => `${indent(base + level)}NEW ${word}`)), {
          maxLength: 3,
        }),
        { minLength: MAX_LINES, maxLength: MAX_LINES },
      ),
    })
    .map(({ count, eol, finalNewline, indents, words, marks, replacements }) => {
      const lines: TextLine[] = [];
      for (let i = 0; i < count; i += 1) {
        lines.push({ text: `${indent(base + indents[i])}L${i}:${words[i]}`, eol: i < count - 1 || finalNewline ? eol : '' });
      }
      const regions: Region[] = [];
      let open: { start: number } | undefined;
      const close = (end: number): void => {
        if (open) {
          let newTexts = replacements[regions.length];
          // A last line without a newline is replaced, not deleted, so every form means the same bytes.
          if (end === count && !finalNewline && newTexts.length === 0) {
            newTexts = [`${indent(base)}NEW LAST`];
          }
          regions.push({ start: open.start, end, newTexts });
          open = undefined;
        }
      };
      for (let i = 0; i < count; i += 1) {
        if (marks[i] === 1 || (marks[i] === 2 && !open)) {
          close(i);
          open = { start: i };
        } else if (marks[i] === 0) {
          close(i);
        }
      }
      close(count);
      return { lines, regions };
    })
    .filter((scenario) => scenario.regions.length > 0);

/** The edits applied one by one to lines: the reference every form must reproduce byte for byte. */
function reference({ lines, regions }: Scenario): string {
  const eol = lines[0].eol === '' ? '\n' : lines[0].eol;
  const out: TextLine[] = [];
  let next = 0;
  for (const region of regions) {
    out.push(...lines.slice(next, region.start));
    const lastWithout = region.end === lines.length && lines[lines.length - 1].eol === '';
    region.newTexts.forEach((text, index) => out.push({ text, eol: lastWithout && index === region.newTexts.length - 1 ? '' : eol }));
    next = region.end;
  }
  out.push(...lines.slice(next));
  return joinLines(out);
}

/** The edits as workspace_edit_file `edits`, in the given order, as a model that read the file writes them. */
function editRequests({ lines, regions }: Scenario, order: readonly number[]): TextEditRequest[] {
  return order.map((index) => {
    const region = regions[index];
    const oldText = lines.slice(region.start, region.end).map((line) => line.text).join('\n');
    // A deletion takes the line break with it; a replacement keeps the file's.
    return region.newTexts.length === 0 ? { oldString: `${oldText}\n`, newString: '', replaceAll: false } : { oldString: oldText, newString: region.newTexts.join('\n'), replaceAll: false };
  });
}

interface PatchShape {
  /** How every chunk line differs from the file: as is, four more spaces, or four fewer (the file is indented deeper). */
  readonly indentation: 'same' | 'extra' | 'less';
  readonly blankAfterHeader: boolean;
  readonly otherSection: 'none' | 'before' | 'after';
  /** Per chunk: context before, context after, an "@@" line naming the line above, a blank line after. */
  readonly chunks: readonly { before: boolean; after: boolean; anchor: boolean; blankAfter: boolean; bareAt: boolean }[];
  readonly endOfFile: boolean;
}

const shapeArbitrary = (indentation: PatchShape['indentation']): fc.Arbitrary<PatchShape> =>
  fc.record({
    indentation: fc.constant(indentation),
    blankAfterHeader: fc.boolean(),
    otherSection: fc.constantFrom<PatchShape['otherSection']>('none', 'before', 'after'),
    chunks: fc.array(fc.record({ before: fc.boolean(), after: fc.boolean(), anchor: fc.boolean(), blankAfter: fc.boolean(), bareAt: fc.boolean() }), { minLength: MAX_LINES, maxLength: MAX_LINES }),
    endOfFile: fc.boolean(),
  });

function patchFor({ lines, regions }: Scenario, shape: PatchShape): string {
  const shift = (text: string): string => (text === '' ? '' : shape.indentation === 'extra' ? `    ${text}` : shape.indentation === 'less' ? text.slice(4) : text);
  const other = ['*** Add File: other.txt', '+other', ''];
  const out = ['*** Begin Patch', ...(shape.otherSection === 'before' ? other : []), '*** Update File: f.txt', ...(shape.blankAfterHeader ? [''] : [])];
  let claimed = 0;
  regions.forEach((region, index) => {
    const options = shape.chunks[index];
    const nextStart = regions[index + 1]?.start ?? lines.length;
    const before = options.before && region.start - 1 >= claimed ? [region.start - 1] : [];
    const after = options.after && region.end < nextStart ? [region.end] : [];
    const first = before[0] ?? region.start;
    const anchor = options.anchor && first - 1 >= claimed ? lines[first - 1].text : undefined;
    // The first chunk may leave out its "@@" line.
    if (index > 0 || anchor !== undefined || !options.bareAt) {
      out.push(anchor === undefined ? '@@' : `@@ ${anchor}`);
    }
    out.push(...before.map((at) => ` ${shift(lines[at].text)}`));
    out.push(...lines.slice(region.start, region.end).map((line) => `-${shift(line.text)}`));
    out.push(...region.newTexts.map((text) => `+${shift(text)}`));
    out.push(...after.map((at) => ` ${shift(lines[at].text)}`));
    claimed = after.length > 0 ? region.end + 1 : region.end;
    if (index === regions.length - 1 && shape.endOfFile && claimed === lines.length) {
      out.push('*** End of File');
    }
    if (options.blankAfter) {
      out.push('');
    }
  });
  out.push(...(shape.otherSection === 'after' ? ['', ...other] : []), '*** End Patch');
  return out.join('\n');
}

function patched(scenario: Scenario, patch: string): string {
  const plan = planPatch(parsePatch(patch).operations, {
    state: (path) => (path === 'f.txt' ? { kind: 'file', lines: scenario.lines } : { kind: 'missing' }),
    key: (path) => path,
  });
  const update = plan.find((operation) => operation.kind === 'update');
  assert.ok(update?.kind === 'update');
  return joinLines(update.lines);
}

describe('edit: the same edits as an edits list, as a patch, and one by one (property)', () => {
  it('an edits list, in any order, produces the file the edits applied one by one produce', () => {
    fc.assert(
      fc.property(
        scenarioArbitrary(0).chain((scenario) => fc.tuple(fc.constant(scenario), fc.shuffledSubarray([...scenario.regions.keys()], { minLength: scenario.regions.length }))),
        ([scenario, order]) => {
          const outcome = planTextEdits(scenario.lines, editRequests(scenario, order), 'f.txt');
          assert.equal(joinLines(outcome.lines), reference(scenario));
          assert.equal(outcome.replacements, scenario.regions.length);
        },
      ),
      { numRuns: 400 },
    );
  });

  for (const indentation of ['same', 'extra'] as const) {
    it(`a patch (${indentation === 'same' ? 'indented as the file' : 'every line indented four spaces deeper than the file'}, with blank lines between sections) produces the same file`, () => {
      fc.assert(
        fc.property(scenarioArbitrary(0), shapeArbitrary(indentation), (scenario, shape) => {
          assert.equal(patched(scenario, patchFor(scenario, shape)), reference(scenario));
        }),
        { numRuns: 400 },
      );
    });
  }

  it('a patch indented less than the file produces the same file: added lines move to the file indentation', () => {
    fc.assert(
      fc.property(scenarioArbitrary(1), shapeArbitrary('less'), (scenario, shape) => {
        assert.equal(patched(scenario, patchFor(scenario, shape)), reference(scenario));
      }),
      { numRuns: 400 },
    );
  });
});
