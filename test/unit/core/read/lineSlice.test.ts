import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileLocation } from '../../../../src/core/location';
import { NodeFileSystem } from '../../../../src/core/fs/node/nodeFileSystem';
import type { TextEncodingName } from '../../../../src/core/text/encoding';
import { readLineSlice, sliceLines } from '../../../../src/core/read/lineSlice';

/** Streams a slice of a local file through the FileSystem port's reader, as read_file does. */
async function readLineSliceFromFile(file: string, encoding: TextEncodingName, bomLength: number, offset: number, limit: number) {
  const reader = await new NodeFileSystem().openReader(fileLocation(file));
  try {
    return await readLineSlice(reader, encoding, bomLength, offset, limit);
  } finally {
    await reader.close();
  }
}

describe('read/lineSlice', () => {
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-slice-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('streams the same slice as the in-memory splitter, for every window', async () => {
    const text = 'one\r\ntwo\n\nfour\nfive without newline';
    const file = path.join(dir, 'mixed.txt');
    fs.writeFileSync(file, text);
    for (let offset = 1; offset <= 5; offset += 1) {
      for (let limit = 1; limit <= 6; limit += 1) {
        const streamed = await readLineSliceFromFile(file, 'utf8', 0, offset, limit);
        const memory = sliceLines(text, offset, limit);
        assert.deepEqual(streamed, memory, `offset ${offset} limit ${limit}`);
      }
    }
  });

  it('keeps memory bounded on a single enormous line', async () => {
    const file = path.join(dir, 'one-line.txt');
    fs.writeFileSync(file, 'y'.repeat(5_000_000));
    const slice = await readLineSliceFromFile(file, 'utf8', 0, 1, 10);
    assert.equal(slice.lines.length, 1);
    assert.equal(slice.lines[0].length, 2000 + '… [line truncated: 4998000 more characters]'.length);
    assert.equal(slice.totalLines, 1);
  });

  it('streams UTF-16 files after their BOM', async () => {
    const file = path.join(dir, 'u16.txt');
    fs.writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('α\nβ\nγ\n', 'utf16le')]));
    const slice = await readLineSliceFromFile(file, 'utf16le', 2, 2, 1);
    assert.deepEqual(slice.lines, ['β']);
    assert.equal(slice.totalLines, 3);
    assert.ok(slice.moreAfter);
  });
});
