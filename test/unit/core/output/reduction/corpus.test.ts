// The recorded outputs of test/fixtures/command-output (corpus.json names the command that printed
// each): every line with an error, a warning or a failure survives the reduction, the reduction does
// not depend on how the output was cut into chunks, and, at the tool's default budget, the reduced
// and cut result is at least half the size of the plain head-and-tail cut.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { OutputReducer, reduceText } from '../../../../../src/core/output/reduction/outputReducer';
import { headAndTailShares } from '../../../../../src/core/output/budget';
import { BoundedOutput, stripAnsi } from '../../../../../src/core/process/boundedOutput';
import { ReducedOutput } from '../../../../../src/core/process/reducedOutput';
import { DEFAULT_SETTINGS } from '../../../../../src/core/settings';
import { fixturePath } from '../../../support/paths';

interface Recorded {
  readonly file: string;
  readonly command: string;
  readonly recorded: string;
}

const corpus = JSON.parse(fs.readFileSync(fixturePath('command-output/corpus.json'), 'utf8')) as Recorded[];
const read = (entry: Recorded): string => fs.readFileSync(fixturePath('command-output', entry.file), 'utf8');
/** The lines the issue names: none of them may be dropped. */
const MUST_SURVIVE = /error|warn|fail|FAIL|Traceback|panicked|npm ERR!/;

/** Pieces of the text cut at sizes from 1 to 4096, the same for every run. */
function chunks(text: string, seed: number): string[] {
  const pieces: string[] = [];
  let state = seed;
  for (let at = 0; at < text.length;) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const size = 1 + (state % (state % 3 === 0 ? 16 : 4096));
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
}

describe('output/reduction on recorded outputs (test/fixtures/command-output)', () => {
  it('holds at least 20 outputs, each with the command that printed it, none over 300 KB', () => {
    assert.ok(corpus.length >= 20, `${corpus.length} outputs`);
    const files = fs.readdirSync(fixturePath('command-output')).filter((name) => name.endsWith('.txt'));
    assert.deepEqual(files.sort(), corpus.map((entry) => entry.file).sort());
    for (const entry of corpus) {
      assert.ok(entry.command.length > 0 && entry.recorded.length > 0, entry.file);
      assert.ok(fs.statSync(fixturePath('command-output', entry.file)).size < 300 * 1024, entry.file);
    }
  });

  for (const entry of corpus) {
    it(`${entry.file}: keeps every line with an error, a warning or a failure, whatever the chunks`, () => {
      const text = read(entry);
      const reduced = reduceText(text, entry.command).text;
      // A line as printed, before a carriage return redrew it: the reduction keeps such a line whole.
      const needed = text.split(/\r\n|\r|\n/).map(stripAnsi).filter((line) => MUST_SURVIVE.test(line));
      const missing = needed.filter((line) => !reduced.includes(line));
      assert.deepEqual(missing, []);

      const streamed: string[] = [];
      const pieces = new OutputReducer(() => undefined, (line) => streamed.push(`${line}\n`), entry.command);
      chunks(text, entry.file.length).forEach((piece) => pieces.write(piece));
      pieces.flush();
      assert.equal(streamed.join(''), reduced);
    });
  }

  it('at the default budget, reduces then cuts to at least 50% fewer characters in all than the plain head-and-tail cut', () => {
    const { head, tail } = headAndTailShares(DEFAULT_SETTINGS.commandOutputChars);
    let plainCut = 0;
    let reducedCut = 0;
    for (const entry of corpus) {
      const text = read(entry);
      const today = new BoundedOutput(head, tail);
      today.append(text);
      plainCut += today.result().text.length;
      const ours = new ReducedOutput(head, tail, entry.command);
      ours.append(text);
      reducedCut += ours.take().text.length;
    }
    const saved = 1 - reducedCut / plainCut;
    assert.ok(saved >= 0.5, `plain cut ${plainCut} characters, reduced and cut ${reducedCut}: ${(saved * 100).toFixed(1)}% fewer`);
  });
});
