// The property of issue 23: random files (indentation in spaces, tabs or both; LF, CRLF, CR or
// mixed line endings; repeated lines) and random edits derived from a region of them, written as a
// model writes them (exact, with other line endings, other indentation, trailing blanks). Every edit
// either lands exactly on the region the generator chose, or is refused with a ToolError (the planner
// writes nothing). The one other outcome allowed: old_string, as written, matches another place at a
// stricter rung, so the text the model sent names that place.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { planTextEdit } from '../../../../src/core/edit/editPlanner';
import { findLineWindows, type LineTolerance } from '../../../../src/core/edit/lineMatching';
import { ToolError } from '../../../../src/core/errors';
import { joinLines, splitLines, type TextLine } from '../../../../src/core/text/lineEndings';

const RUNS = 10_000;
/** How the runs ended, to check the property is not vacuous: most edits must land. */
const outcomes = { landed: 0, refused: 0, elsewhere: 0 };

type Form = 'exact' | 'lf' | 'trailing' | 'indent';
const LEVEL_OF: Record<Form, number> = { exact: 0, lf: 1, trailing: 2, indent: 3 };

const caseArbitrary = fc
  .record({
    unit: fc.constantFrom('  ', '    ', '\t', '\t  '),
    lines: fc.array(fc.record({ depth: fc.integer({ min: 0, max: 3 }), words: fc.array(fc.constantFrom('x = 1', 'return x', 'if (a) {', '}', 'call(b)', 'const y = "s"', 'def f():', 'pass', ''), { minLength: 1, maxLength: 2 }) }), { minLength: 1, maxLength: 24 }),
    eols: fc.array(fc.constantFrom('\n', '\r\n', '\r'), { minLength: 24, maxLength: 24 }),
    mixed: fc.boolean(),
    finalNewline: fc.boolean(),
    start: fc.nat(),
    length: fc.integer({ min: 1, max: 4 }),
    form: fc.constantFrom<Form>('exact', 'lf', 'trailing', 'indent'),
    shift: fc.constantFrom('', ' ', '  ', '\t'),
    change: fc.array(fc.record({ kind: fc.constantFrom('replace', 'insert', 'delete'), at: fc.nat(), text: fc.constantFrom('changed()', 'new_line = 2', '  nested()', '') }), { minLength: 1, maxLength: 3 }),
  })
  .map((draw) => {
    const texts = draw.lines.map((line) => `${draw.unit.repeat(line.depth)}${line.words.join(' ')}`.trimEnd());
    // A file as it can be read back: a lone CR before an empty line ending in LF would be one CRLF.
    const eols = texts.map((_, i) => (draw.mixed ? draw.eols[i] : draw.eols[0]));
    // From the end, as changing one ending can make the pair before it such a pair.
    for (let i = eols.length - 2; i >= 0; i -= 1) {
      if (eols[i] === '\r' && texts[i + 1] === '' && eols[i + 1].startsWith('\n')) {
        eols[i] = '\n';
      }
    }
    const eol = (i: number): string => eols[i];
    const withEnds = texts.map((text, i) => text + (i < texts.length - 1 || draw.finalNewline ? eol(i) : ''));
    const file = withEnds.join('');
    const start = draw.start % texts.length;
    const end = Math.min(texts.length, start + draw.length);
    // The region in characters: from its first line to the end of its last line's text (its line ending stays).
    const prefix = withEnds.slice(0, start).join('');
    const suffix = file.slice(prefix.length + withEnds.slice(start, end).join('').length - (withEnds[end - 1].length - texts[end - 1].length));
    const region = texts.slice(start, end);
    const model = (line: string): string => {
      switch (draw.form) {
        case 'exact':
        case 'lf':
          return line;
        case 'trailing':
          return line === '' ? line : `${line}  `;
        case 'indent':
          return line === '' ? line : draw.shift + line.replace(/^\t/, '    ');
      }
    };
    const oldLines = region.map(model);
    const joiner = draw.form === 'exact' ? (i: number) => eol(start + i) : () => '\n';
    const oldString = oldLines.map((line, i) => line + (i < oldLines.length - 1 ? joiner(i) : '')).join('');
    const newLines = [...oldLines];
    for (const change of draw.change) {
      const at = change.at % (newLines.length + 1);
      if (change.kind === 'insert') {
        newLines.splice(at, 0, change.text);
      } else if (at < newLines.length) {
        newLines.splice(at, 1, ...(change.kind === 'replace' ? [change.text] : []));
      }
    }
    return { file, prefix, suffix, start, oldString, newString: newLines.join('\n'), form: draw.form };
  });

function trimmedLines(text: string): string {
  return text.replace(/\r\n|\r/g, '\n').split('\n').map((line) => line.trim()).join('\n');
}

/** Where old_string matches at a rung stricter than `level` (0 exact, 1 line endings, 2-4 the tolerant rungs), other than `start`. */
function stricterElsewhere(file: string, lines: readonly TextLine[], oldString: string, level: number, start: number): boolean {
  const lf = (text: string): string => text.replace(/\r\n|\r/g, '\n');
  if ((level > 0 && file.includes(oldString)) || (level > 1 && lf(file).includes(lf(oldString)))) {
    return true;
  }
  const texts = lines.map((line) => line.text);
  // As the planner reads it: a final newline ends old_string's last line, which may be the file's last, without one.
  const oldLf = oldString.replace(/\r\n|\r/g, '\n');
  const oldLines = (oldLf.endsWith('\n') ? oldLf.slice(0, -1) : oldLf).split('\n');
  const tolerances: LineTolerance[] = ['trailing-whitespace', 'indentation'];
  return tolerances.slice(0, Math.max(0, level - 1)).some((tolerance) => findLineWindows(texts, oldLines, tolerance).some((at) => at !== start));
}

describe('edit placement: the landing property', function () {
  this.timeout(120_000);

  it(`lands every edit on its region or refuses it (${RUNS} random files and edits)`, () => {
    fc.assert(
      fc.property(caseArbitrary, (c) => {
        const lines = splitLines(c.file);
        let outcome;
        try {
          outcome = planTextEdit(lines, { oldString: c.oldString, newString: c.newString, replaceAll: false }, 'f');
        } catch (error) {
          if (error instanceof ToolError) {
            outcomes.refused += 1;
            return; // refused; the planner wrote nothing
          }
          throw error;
        }
        const after = joinLines(outcome.lines);
        // Every byte before the region and after its last line's ending as it was; the region's lines
        // the new ones (re-indented when the match ignored indentation), whatever ending its last line
        // keeps (a line ending in CR before an empty line takes another, or the two would read as one).
        const ending = /^(\r\n|\r|\n)?/.exec(c.suffix)?.[0] ?? '';
        const tail = c.suffix.slice(ending.length);
        const middle = after.slice(c.prefix.length, after.length - tail.length);
        const landed =
          after.length >= c.prefix.length + tail.length &&
          after.startsWith(c.prefix) &&
          after.endsWith(tail) &&
          trimmedLines(ending ? middle.replace(/(\r\n|\r|\n)$/, '') : middle) === trimmedLines(c.newString);
        outcomes[landed ? 'landed' : 'elsewhere'] += 1;
        if (!landed) {
          assert.ok(stricterElsewhere(c.file, lines, c.oldString, LEVEL_OF[c.form], c.start), `landed elsewhere: ${JSON.stringify(c)} -> ${JSON.stringify(after)}`);
        }
      }),
      { numRuns: RUNS },
    );
    // Refusals are the ambiguous cases the generator makes on purpose (repeated lines); most edits land.
    assert.ok(outcomes.landed > RUNS / 2, JSON.stringify(outcomes));
  });
});
