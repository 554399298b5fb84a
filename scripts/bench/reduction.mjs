// @ts-check
// The output reduction on the recorded outputs of test/fixtures/command-output: per output, its
// size, what today's plain head-and-tail cut keeps at the tool's default budget, what the reduction
// then the same cut keeps, the ratio of the two, and the reducer's throughput (the stream fed in
// 64 KB chunks, as a pipe delivers it), so its cost is visible next to what it saves.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { medianMs, printTable, ratio } from './measure.mjs';
import { compiled } from './ourContext.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const corpusDir = path.join(repo, 'test/fixtures/command-output');

/** @type {typeof import('../../src/core/process/boundedOutput.js')} */
const { BoundedOutput } = compiled('core/process/boundedOutput');
/** @type {typeof import('../../src/core/process/reducedOutput.js')} */
const { ReducedOutput } = compiled('core/process/reducedOutput');
/** @type {typeof import('../../src/core/output/budget.js')} */
const { headAndTailShares } = compiled('core/output/budget');
/** @type {typeof import('../../src/core/settings.js')} */
const { DEFAULT_SETTINGS } = compiled('core/settings');

const CHUNK = 64 * 1024;

/** @param {string} text */
function pieces(text) {
  const out = [];
  for (let at = 0; at < text.length; at += CHUNK) out.push(text.slice(at, at + CHUNK));
  return out;
}

/** @param {import('./measure.mjs').BenchContext} context */
export async function benchReduction({ log }) {
  const { head, tail } = headAndTailShares(DEFAULT_SETTINGS.commandOutputChars);
  /** @type {{ file: string, command: string }[]} */
  const corpus = JSON.parse(readFileSync(path.join(corpusDir, 'corpus.json'), 'utf8'));
  log(`Budget per stream: ${head + tail} characters (${head} head, ${tail} tail), the default output.commandOutputChars.`);
  const rows = [];
  let totals = { raw: 0, plain: 0, reduced: 0, bytes: 0, ms: 0 };
  for (const { file, command } of corpus) {
    const text = readFileSync(path.join(corpusDir, file), 'utf8');
    const chunks = pieces(text);
    const plain = new BoundedOutput(head, tail);
    chunks.forEach((chunk) => plain.append(chunk));
    const plainChars = plain.result().text.length;
    const reduce = () => {
      const ours = new ReducedOutput(head, tail, command);
      chunks.forEach((chunk) => ours.append(chunk));
      return ours.take();
    };
    const reduced = reduce();
    const ms = await medianMs(reduce, 9);
    const bytes = Buffer.byteLength(text);
    totals = { raw: totals.raw + text.length, plain: totals.plain + plainChars, reduced: totals.reduced + reduced.text.length, bytes: totals.bytes + bytes, ms: totals.ms + ms };
    rows.push([file.replace(/\.txt$/, ''), text.length, plainChars, reduced.text.length, ratio(reduced.text.length, plainChars), `${(bytes / 1e6 / (ms / 1000)).toFixed(0)} MB/s`, `${ms.toFixed(2)} ms`]);
  }
  rows.push(['total', totals.raw, totals.plain, totals.reduced, ratio(totals.reduced, totals.plain), `${(totals.bytes / 1e6 / (totals.ms / 1000)).toFixed(0)} MB/s`, `${totals.ms.toFixed(1)} ms`]);
  printTable(log, ['output', 'raw chars', 'plain cut', 'reduced+cut', 'ratio', 'reducer', 'time'], rows);
  log(`Reduced then cut: ${((1 - totals.reduced / totals.plain) * 100).toFixed(1)}% fewer characters than the plain cut over ${corpus.length} outputs.`);

  // A command that prints a little and exits: what the reduction adds to its result.
  const small = 'compiled 12 files\nall done\n';
  const smallMs = await medianMs(() => {
    for (let index = 0; index < 1000; index += 1) {
      const ours = new ReducedOutput(head, tail, 'make');
      ours.append(small);
      ours.take();
    }
  }, 9);
  log(`A 2-line output through the reduction: ${((smallMs / 1000) * 1000).toFixed(1)} µs per stream.`);
}
