import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileLocation } from '../../../../src/core/location';
import { readFileTool } from '../../../../src/core/tools/readFile';
import { resultText, ScriptedApprover, testContext } from '../../support/context';
import { invokeTool } from '../../../../src/core/tools/invoke';
import { fixturePath } from '../../support/paths';

const FIXTURES = fixturePath('files');

describe('tools/readFile', () => {
  let root: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-read-'));
    fs.cpSync(FIXTURES, root, { recursive: true });
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  const read = async (input: { file_path: string; offset?: number; limit?: number }, options = {}) => resultText(await invokeTool(readFileTool, input, testContext({ root, ...options })));

  it('numbers lines like cat -n: six right-aligned columns and a tab', async () => {
    const text = await read({ file_path: 'hundred.txt', limit: 2 });
    assert.ok(text.startsWith('     1\tline 1\n     2\tline 2\n'), text);
  });

  it('says which lines are shown and where to continue when lines remain', async () => {
    const text = await read({ file_path: 'hundred.txt', offset: 10, limit: 5 });
    assert.match(text, /    10\tline 10\n/);
    assert.match(text, /\[Showing lines 10-14 of 100\. Use offset=15 to read more\.\]$/);
  });

  it('gives the footer\'s first note as the continuation while lines follow, and none at the end', async () => {
    const result = (input: { file_path: string; offset?: number; limit?: number }) => invokeTool(readFileTool, input, testContext({ root }));
    assert.equal((await result({ file_path: 'hundred.txt', offset: 10, limit: 5 })).continuation, '[Showing lines 10-14 of 100. Use offset=15 to read more.]');
    assert.equal((await result({ file_path: 'hundred.txt', offset: 96 })).continuation, undefined);
    assert.equal((await result({ file_path: 'hundred.txt' })).continuation, undefined);
  });

  it('shows no continuation footer when the whole file fits', async () => {
    const text = await read({ file_path: 'hundred.txt' });
    assert.ok(!text.includes('Showing lines'));
    assert.ok(text.endsWith('   100\tline 100'));
  });

  it('cuts lines over 2000 characters with a marker', async () => {
    const text = await read({ file_path: 'long-line.txt' });
    const second = text.split('\n')[1];
    assert.match(second, /^     2\tx{2000}… \[line truncated: 3000 more characters\]$/);
  });

  it('stops at a whole line within the output budget and says where to continue', async () => {
    const wide = path.join(root, 'wide.txt');
    fs.writeFileSync(wide, Array.from({ length: 300 }, (_, i) => `${String(i + 1).padStart(3, '0')} ${'w'.repeat(95)}`).join('\n'));
    const text = await read({ file_path: 'wide.txt' }, { settings: { maxResultChars: 10_500 } });
    const lines = text.split('\n\n')[0].split('\n');
    // Each numbered line is 6 + 1 + 99 characters and a newline; 10,000 characters of room hold 93 of them.
    assert.equal(lines.length, 93);
    assert.match(lines[92], /^    93\t093 w{95}$/);
    assert.match(text, /\[Showing lines 1-93 of 300\. Use offset=94 to read more\.\]\n\[Stopped before line 94 to stay within the output budget of 10500 characters \(workspaceAgentTools\.output\.maxResultChars, or the room the client gave this call\)\.\]$/);
    const next = await read({ file_path: 'wide.txt', offset: 94, limit: 2 }, { settings: { maxResultChars: 10_500 } });
    assert.match(next, /^    94\t094 w{95}\n    95\t095 w{95}\n/);
  });

  it('reads fewer lines when the client gives a token budget smaller than the setting, and says where to continue', async () => {
    fs.writeFileSync(path.join(root, 'budget.txt'), Array.from({ length: 2000 }, (_, i) => `line ${i + 1} ${'t'.repeat(20)}`).join('\n'));
    const full = await read({ file_path: 'budget.txt' });
    const small = await read({ file_path: 'budget.txt' }, { tokenBudget: 2000 });
    assert.ok(full.includes('  2000\tline 2000 '));
    // 2000 tokens at 3 characters each: 6000 characters, 500 of them kept for the footer.
    assert.ok(small.length <= 6000, `${small.length} characters`);
    assert.match(small, /\[Showing lines 1-(\d+) of 2000\. Use offset=\d+ to read more\.\]\n\[Stopped before line \d+ to stay within the output budget of 6000 characters/);
  });

  it('counts only the cut lines it shows when the budget ends the read early', async () => {
    fs.writeFileSync(path.join(root, 'wide-long.txt'), `${'a'.repeat(5000)}\n${'b'.repeat(5000)}\n${'c'.repeat(5000)}\n${'d'.repeat(5000)}\n${'e'.repeat(5000)}\n${'f'.repeat(5000)}\n`);
    const text = await read({ file_path: 'wide-long.txt' }, { settings: { maxResultChars: 10_000 } });
    assert.match(text, /\[Showing lines 1-4 of 6\. Use offset=5 to read more\.\]/);
    assert.match(text, /\[4 line\(s\) longer than 2000 characters were cut\. Read line 1 \(5000 characters\) in full with offset=1 and char_offset=2001, then the char_offset each result gives\.\]$/);
  });

  it('says when a file is empty', async () => {
    assert.match(await read({ file_path: 'empty.txt' }), /empty\.txt is empty/);
  });

  it('strips CRLF terminators from the shown lines', async () => {
    assert.equal(await read({ file_path: 'crlf.txt' }), '     1\tfirst line\n     2\tsecond line\n     3\tthird line');
  });

  it('decodes UTF-8 with BOM', async () => {
    assert.equal(await read({ file_path: 'utf8-bom.txt' }), '     1\théllo bom\n     2\tline two');
  });

  it('decodes UTF-16 LE', async () => {
    assert.equal(await read({ file_path: 'utf16le.txt' }), '     1\tcafé utf16le\n     2\tsecond ☃');
  });

  it('decodes UTF-16 BE', async () => {
    assert.equal(await read({ file_path: 'utf16be.txt' }), '     1\tcafé utf16be\n     2\tsecond ☃');
  });

  it('returns images as image parts', async () => {
    const result = await invokeTool(readFileTool, { file_path: 'red.png' }, testContext({ root }));
    const image = result.parts.find((part) => part.kind === 'image');
    assert.ok(image && image.kind === 'image');
    assert.equal(image.mimeType, 'image/png');
    assert.deepEqual(Buffer.from(image.data), fs.readFileSync(path.join(root, 'red.png')));
  });

  it('returns PDF text page by page', async () => {
    const text = await read({ file_path: 'two-pages.pdf' });
    assert.match(text, /--- Page 1 of 2 ---\nHello from page one/);
    assert.match(text, /--- Page 2 of 2 ---\nSecond page says goodbye/);
  });

  it('refuses other binary files with their size', async () => {
    await assert.rejects(read({ file_path: 'binary.bin' }), /binary\.bin is a binary file \(1\.0 KB\)/);
  });

  it('refuses a directory and points to list_directory', async () => {
    fs.mkdirSync(path.join(root, 'dir'), { recursive: true });
    await assert.rejects(read({ file_path: 'dir' }), /is a directory.*workspace_list_directory/);
  });

  it('reads an unsaved editor buffer instead of the disk and says so', async () => {
    const dirty = new Map([[path.join(root, 'crlf.txt'), 'edited in editor\n']]);
    const text = await read({ file_path: 'crlf.txt' }, { dirty });
    assert.match(text, /unsaved changes/);
    assert.match(text, /     1\tedited in editor/);
  });

  it('reports a missing file with a next step', async () => {
    await assert.rejects(read({ file_path: 'nope.txt' }), /File not found: nope\.txt\. Check the path with workspace_glob/);
  });

  it('refuses an offset past the end', async () => {
    await assert.rejects(read({ file_path: 'hundred.txt', offset: 101 }), /offset 101 is past the end of hundred\.txt, which has 100 lines/);
  });

  it('records what it read so later writes can check for staleness', async () => {
    const ctx = testContext({ root });
    await invokeTool(readFileTool, { file_path: 'crlf.txt' }, ctx);
    const recorded = ctx.session.reads.lookup(fileLocation(path.join(root, 'crlf.txt')));
    assert.equal(recorded?.size, 37);
    assert.match(recorded?.sha256 ?? '', /^[0-9a-f]{64}$/);
  });

  it('streams a slice of a large file with the same numbering', async () => {
    const big = path.join(root, 'big.txt');
    const lines = Array.from({ length: 200_000 }, (_, i) => `row ${i + 1}`);
    fs.writeFileSync(big, `${lines.join('\n')}\n`);
    const text = await read({ file_path: 'big.txt', offset: 150_000, limit: 3 });
    assert.equal(text, '150000\trow 150000\n150001\trow 150001\n150002\trow 150002\n\n[Showing lines 150000-150002 of 200000. Use offset=150003 to read more.]');
  });

  it('denies a .env file at medium risk', async () => {
    fs.writeFileSync(path.join(root, '.env'), 'SECRET=1\n');
    await assert.rejects(read({ file_path: '.env' }), /^ToolError: Denied by file\.sensitive_path_read: /);
  });

  it('asks before reading a .env file at high risk', async () => {
    fs.writeFileSync(path.join(root, '.env'), 'SECRET=1\n');
    const approver = new ScriptedApprover(true);
    const text = await read({ file_path: '.env' }, { settings: { riskLevel: 'high' }, approver });
    assert.match(text, /SECRET=1/);
    assert.equal(approver.asked[0].rule, 'file.sensitive_path_read');
  });

  describe('outside the workspace', () => {
    let outside: string;
    before(() => {
      outside = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-outside-'));
      fs.writeFileSync(path.join(outside, 'x.txt'), 'x\n');
    });
    after(() => fs.rmSync(outside, { recursive: true, force: true }));

    it('fails with the rule id when the user declines a warning', async () => {
      await assert.rejects(read({ file_path: path.join(outside, 'x.txt') }, { approver: new ScriptedApprover(false) }), /Denied by file\.outside_workspace_read: .*The user declined/);
    });
  });
});
