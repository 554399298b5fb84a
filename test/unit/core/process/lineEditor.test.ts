// The line the person types in a command's terminal: echo, Backspace, Enter, Ctrl+D, escapes.
import * as assert from 'node:assert/strict';
import { LineEditor } from '../../../../src/core/process/lineEditor';

describe('process/lineEditor', () => {
  it('echoes each key and sends the line at Enter, with its line end', () => {
    const editor = new LineEditor();
    assert.deepEqual(editor.feed('y'), { echo: 'y', lines: [], endOfInput: false });
    assert.deepEqual(editor.feed('e'), { echo: 'e', lines: [], endOfInput: false });
    assert.equal(editor.pending, 'ye');
    assert.deepEqual(editor.feed('s\r'), { echo: 's\r\n', lines: ['yes\n'], endOfInput: false });
    assert.equal(editor.pending, '');
    assert.deepEqual(editor.feed('\r'), { echo: '\r\n', lines: ['\n'], endOfInput: false }, 'Enter alone sends an empty line');
  });

  it('takes back the last character with Backspace (DEL or BS), and nothing on an empty line', () => {
    const editor = new LineEditor();
    assert.deepEqual(editor.feed('nox\u007f'), { echo: 'nox\b \b', lines: [], endOfInput: false });
    assert.deepEqual(editor.feed('\b\b\b'), { echo: '\b \b\b \b', lines: [], endOfInput: false }, 'two characters were left to erase');
    assert.deepEqual(editor.feed('é😀\u007f\r'), { echo: 'é😀\b \b\r\n', lines: ['é\n'], endOfInput: false }, 'a character outside the BMP is one character');
  });

  it('sends every line of a paste, CRLF as one line end, and keeps the unfinished rest', () => {
    const editor = new LineEditor();
    const edited = editor.feed('one\r\ntwo\nthree');
    assert.deepEqual(edited.lines, ['one\n', 'two\n']);
    assert.equal(editor.pending, 'three');
  });

  it('ends the input with Ctrl+D on an empty line only, after the lines before it', () => {
    const editor = new LineEditor();
    assert.deepEqual(editor.feed('ab\u0004'), { echo: 'ab', lines: [], endOfInput: false }, 'Ctrl+D after text is ignored');
    assert.deepEqual(editor.feed('\r\u0004'), { echo: '\r\n^D\r\n', lines: ['ab\n'], endOfInput: true });
  });

  it('drops escape sequences (arrows, function keys, Alt+key) and other control keys, keeps Tab', () => {
    const editor = new LineEditor();
    assert.deepEqual(editor.feed('\u001b'), { echo: '', lines: [], endOfInput: false }, 'a lone Escape');
    const edited = editor.feed('a\u001b[A\u001b[1;5C\u001bOP\u001bx\u0001\tb\r');
    assert.deepEqual(edited.lines, ['a\tb\n']);
    assert.equal(edited.echo, 'a\tb\r\n');
  });

  it('shows a star for each character while hidden (a password prompt), and sends the text', () => {
    const editor = new LineEditor();
    assert.deepEqual(editor.feed('hunter2\r', true), { echo: '*******\r\n', lines: ['hunter2\n'], endOfInput: false });
  });

  it('forgets the unfinished line when cleared', () => {
    const editor = new LineEditor();
    editor.feed('half');
    editor.clear();
    assert.deepEqual(editor.feed('\r').lines, ['\n']);
  });
});
