// A read never refuses a bounded request (issue 23, item 6): a line longer than the line cut (a
// minified file, single-line JSON of any size) is read in full through character ranges, each
// result saying how to go on.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { invokeTool } from '../../../../src/core/tools/invoke';
import { readFileTool, type ReadFileInput } from '../../../../src/core/tools/readFile';
import { resultText, testContext } from '../../support/context';

describe('tools/readFile: long lines by characters', () => {
  let root: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-long-'));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  const read = (input: ReadFileInput) => invokeTool(readFileTool, input, testContext({ root }));

  it('reads a 5 MB single-line JSON file: the first read says how to go on, and the pieces follow one another to its end', async () => {
    const json = JSON.stringify(Array.from({ length: 130_000 }, (_, index) => ({ id: index, name: `item-${index}`, tag: 'abc' })));
    assert.ok(json.length > 5_000_000, `${json.length}`);
    fs.writeFileSync(path.join(root, 'big.json'), json);
    const first = await read({ file_path: 'big.json' });
    assert.ok(resultText(first).includes(`[1 line(s) longer than 2000 characters were cut. Read line 1 (${json.length} characters) in full with offset=1 and char_offset=2001, then the char_offset each result gives.]`));
    assert.match(first.continuation ?? '', /char_offset=2001/);
    let charOffset = 2001;
    for (let piece = 0; piece < 3; piece += 1) {
      const result = await read({ file_path: 'big.json', offset: 1, char_offset: charOffset });
      const body = resultText(result);
      const text = body.slice(0, body.lastIndexOf('\n\n[Showing'));
      assert.ok(text === json.slice(charOffset - 1, charOffset - 1 + text.length) && text.length > 5_000, `piece ${piece} is the line's next characters`);
      assert.equal(result.parts.length, 1, 'one text part: no client breaks the piece up');
      charOffset = Number(/char_offset=(\d+)/.exec(result.continuation ?? '')?.[1]);
      assert.equal(charOffset, json.length >= charOffset ? charOffset : NaN);
    }
    const tail = resultText(await read({ file_path: 'big.json', offset: 1, char_offset: json.length - 99 }));
    assert.equal(tail, `${json.slice(-100)}\n\n[Showing characters ${json.length - 99}-${json.length} of line 1 (${json.length} characters). That is the end of the line and of the file.]`);
  });

  it('reads a whole long line through the continuations, every character once', async () => {
    const line = Array.from({ length: 120_000 }, (_, index) => String.fromCharCode(33 + (index % 90))).join('');
    fs.writeFileSync(path.join(root, 'line.min.js'), `${line}\nafter\n`);
    let input: ReadFileInput = { file_path: 'line.min.js', offset: 1, char_offset: 1 };
    let joined = '';
    let calls = 0;
    for (;;) {
      const result = await read(input);
      calls += 1;
      const body = resultText(result);
      joined += body.slice(0, body.lastIndexOf('\n\n[Showing'));
      const next = /offset=(\d+) and char_offset=(\d+)/.exec(result.continuation ?? '');
      if (!next) {
        assert.match(result.continuation ?? '', /use offset=2 \(without char_offset\)/);
        break;
      }
      input = { file_path: 'line.min.js', offset: Number(next[1]), char_offset: Number(next[2]) };
    }
    assert.ok(joined === line, `the pieces make the line (${joined.length} of ${line.length} characters)`);
    assert.equal(calls, Math.ceil(line.length / 7_500));
  });

  it('reads a small minified file in memory, and a CRLF line without its CR', async () => {
    const line = 'x'.repeat(9_000);
    fs.writeFileSync(path.join(root, 'min.js'), `${line}\r\nsecond\r\n`);
    const piece = await read({ file_path: 'min.js', offset: 1, char_offset: 8_001, char_limit: 5_000 });
    const footer = '[Showing characters 8001-9000 of line 1 (9000 characters). That is the end of the line; use offset=2 (without char_offset) to read the lines after it.]';
    assert.equal(resultText(piece), `${'x'.repeat(1_000)}\n\n${footer}`);
    assert.equal(piece.continuation, footer);
  });

  it('streams a line of a file too large to hold (over 16 MB) exactly as it reads one in memory, CRLF and multi-byte text included', async () => {
    const line = 'é🙂ab'.repeat(2_200_000);
    fs.writeFileSync(path.join(root, 'huge.txt'), `short\r\n${line}\r\nlast\r\n`);
    assert.ok(fs.statSync(path.join(root, 'huge.txt')).size > 16 * 1024 * 1024);
    for (const charOffset of [1, 65_530, 4_000_001, line.length - 9]) {
      const body = resultText(await read({ file_path: 'huge.txt', offset: 2, char_offset: charOffset, char_limit: 20 }));
      const expected = line.slice(charOffset - 1, charOffset - 1 + 20);
      assert.ok(body.startsWith(`${expected}\n\n[Showing characters ${charOffset}-${charOffset + expected.length - 1} of line 2 (`), `at ${charOffset}: ${body.slice(0, 200)}`);
    }
    assert.match(resultText(await read({ file_path: 'huge.txt', offset: 2, char_offset: line.length - 9 })), new RegExp(`of line 2 \\(${line.length} characters\\)\\. That is the end of the line; use offset=3`));
  });

  it('says what is wrong with a range past the line or the file, and char_limit alone', async () => {
    fs.writeFileSync(path.join(root, 'two.txt'), 'one\ntwo\n');
    await assert.rejects(read({ file_path: 'two.txt', offset: 1, char_offset: 10 }), /char_offset 10 is past the end of line 1 of two\.txt, which has 3 characters/);
    await assert.rejects(read({ file_path: 'two.txt', offset: 5, char_offset: 1 }), /offset 5 is past the end of two\.txt/);
    await assert.rejects(read({ file_path: 'two.txt', char_limit: 10 }), /char_limit needs char_offset/);
  });
});
