import * as assert from 'node:assert/strict';
import { MAX_LINE_CHARS, TerminalLines } from '../../../../../src/core/output/reduction/terminalLines';

/** The lines a terminal shows for the chunks, the unfinished last one included. */
function show(...chunks: string[]): { lines: string[]; redraws: number } {
  const terminal = new TerminalLines();
  const lines = chunks.flatMap((chunk) => terminal.write(chunk));
  return { lines: [...lines, ...terminal.flush()], redraws: terminal.redraws };
}

describe('output/reduction/terminalLines', () => {
  it('keeps only the last state of a line redrawn with carriage returns, and counts the redraws', () => {
    assert.deepEqual(show('  10% [##        ]\r  50% [#####     ]\r 100% [##########]\ndone\n'), { lines: [' 100% [##########]', 'done'], redraws: 2 });
  });

  it('overwrites only the columns a shorter redraw writes, as a terminal does', () => {
    assert.deepEqual(show('Downloading 50%\rDone\n').lines, ['Doneloading 50%']);
  });

  it('erases with ESC[K (to the end), ESC[2K (the whole line) and ESC[1K (from the start)', () => {
    assert.deepEqual(show('Downloading 50%\r\u001b[KDone\n').lines, ['Done']);
    assert.deepEqual(show('Downloading 50%\u001b[2K\rDone\n').lines, ['Done']);
    assert.deepEqual(show('abcdef\u001b[3D\u001b[1KX\n').lines, ['   Xef']);
  });

  it('reads CRLF as one line end, also when the chunk ends between CR and LF', () => {
    assert.deepEqual(show('one\r\ntwo\r', '\nthree\r\n'), { lines: ['one', 'two', 'three'], redraws: 0 });
  });

  it('removes colours and other escapes, also when a chunk ends inside one', () => {
    assert.deepEqual(show('\u001b[3', '2mgreen\u001b[0m \u001b]0;title\u0007\u001b]8;;https://x.y\u001b\\link\u001b]8;;\u001b\\ \u001b(Bend\n').lines, ['green link end']);
  });

  it('moves with backspace, tab, ESC[nG, ESC[nC and ESC[nD, and drops other controls', () => {
    assert.deepEqual(show('abc\b\bX\n', 'a\tb\u0007\n', 'xxxxx\u001b[2GY\u001b[2CZ\n').lines, ['aXc', 'a\tb', 'xYxxZ']);
  });

  it('never overwrites a line with an error or a warning: it is kept as its own line first', () => {
    assert.deepEqual(show('Error: disk full\rRetrying 1/3\n').lines, ['Error: disk full', 'Retrying 1/3']);
    assert.deepEqual(show('npm WARN deprecated x\u001b[2K\rnext\n').lines, ['npm WARN deprecated x', 'next']);
  });

  it('hands a line without a newline on in bounded pieces, and the unfinished line at the end', () => {
    const terminal = new TerminalLines();
    const lines = terminal.write('x'.repeat(MAX_LINE_CHARS * 2 + 5));
    assert.deepEqual(lines.map((line) => line.length), [MAX_LINE_CHARS, MAX_LINE_CHARS]);
    assert.deepEqual(terminal.flush(), ['xxxxx']);
    assert.deepEqual(terminal.flush(), []);
  });

  it('shows a prompt without a newline when the output is read, and starts a new line after it', () => {
    const terminal = new TerminalLines();
    assert.deepEqual(terminal.write('Password: '), []);
    assert.deepEqual(terminal.flush(), ['Password: ']);
    assert.deepEqual(terminal.write('ok\n'), ['ok']);
  });

  it('drops an escape that never ends instead of growing memory', () => {
    const { lines } = show(`\u001b]${'x'.repeat(10_000)}`, 'after\n');
    assert.deepEqual(lines, ['after']);
  });
});
