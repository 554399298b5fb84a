// Result sizes as clients take them: no text part over 8,000 characters (Copilot moves a longer part
// into a file and sends the model there), and a client's token budget shrinks the result.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { invoke, workspaceRoot } from './support/tools';

const MAX_PART = 8000;

function textParts(parts: unknown[]): string[] {
  return parts.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).filter((text) => text !== '');
}

function assertPartsFit(name: string, parts: unknown[]): void {
  const sizes = textParts(parts).map((text) => text.length);
  assert.ok(sizes.every((size) => size <= MAX_PART), `${name}: text parts of ${sizes.join(', ')} characters`);
}

describe('result sizes (extension host)', () => {
  const folder = 'result-size';
  before(() => {
    const root = path.join(workspaceRoot(), folder);
    fs.mkdirSync(path.join(root, 'many'), { recursive: true });
    fs.writeFileSync(path.join(root, 'long.txt'), Array.from({ length: 2000 }, (_, i) => `line ${i + 1}: ${'text '.repeat(6)}`).join('\n'));
    for (let i = 0; i < 400; i += 1) {
      fs.writeFileSync(path.join(root, 'many', `file-with-a-long-name-${String(i).padStart(4, '0')}.txt`), `needle ${i} ${'hay '.repeat(30)}\n`);
    }
  });

  it('returns a 2000-line read inline, in parts of at most 8,000 characters that join back to every line', async () => {
    const { text, parts } = await invoke('workspace_read_file', { file_path: `${folder}/long.txt` });
    assertPartsFit('read_file', parts);
    assert.ok(textParts(parts).length > 1);
    assert.match(text, /^ {5}1\tline 1: /);
    assert.match(text, /\n {2}2000\tline 2000: text text text text text text $/);
  });

  it('keeps every text part of the list, glob and grep results within 8,000 characters', async () => {
    assertPartsFit('list_directory', (await invoke('workspace_list_directory', { path: `${folder}/many` })).parts);
    assertPartsFit('glob', (await invoke('workspace_glob', { pattern: `${folder}/many/*.txt` })).parts);
    const grep = await invoke('workspace_grep', { pattern: 'needle', path: folder });
    assertPartsFit('grep', grep.parts);
    assert.ok(textParts(grep.parts).length > 1, 'grep output of 100 long lines comes in several parts');
  });

  it('keeps every text part of a long command output within 8,000 characters', async function () {
    if (!vscode.workspace.isTrusted) this.skip();
    const { text, parts } = await invoke('workspace_run_command', { command: 'seq 1 20000', cwd: folder });
    assertPartsFit('run_command', parts);
    assert.match(text, /\n20000\n/);
  });

  it('shrinks a read to a smaller token budget and says where to continue', async () => {
    const full = await invoke('workspace_read_file', { file_path: `${folder}/long.txt` });
    const small = await invoke('workspace_read_file', { file_path: `${folder}/long.txt` }, undefined, 1500);
    assert.ok(small.text.length <= 1500 * 3, `${small.text.length} characters for a budget of 1500 tokens`);
    assert.ok(small.text.length < full.text.length / 10);
    assert.match(small.text, /\[Showing lines 1-\d+ of 2000\. Use offset=\d+ to read more\.\]/);
  });

  it('shrinks a grep result to a smaller token budget', async () => {
    const full = await invoke('workspace_grep', { pattern: 'needle', path: folder });
    const small = await invoke('workspace_grep', { pattern: 'needle', path: folder }, undefined, 1000);
    assert.ok(small.text.length < full.text.length, `${small.text.length} of ${full.text.length} characters`);
    assert.ok(small.text.length <= 1000 * 3 + 400, `${small.text.length} characters`);
    assert.match(small.text, /\[output truncated: \d+ more characters not shown/);
  });
});
