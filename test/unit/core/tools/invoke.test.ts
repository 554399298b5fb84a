import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { editFileTool } from '../../../../src/core/tools/editFile';
import { grepTool } from '../../../../src/core/tools/grep';
import { budgetResult, continuationFirst, invokeTool, splitTextParts } from '../../../../src/core/tools/invoke';
import { defineTool, textResult, type Tool, type ToolResult } from '../../../../src/core/tools/toolSpec';
import { listDirectoryTool } from '../../../../src/core/tools/listDirectory';
import { readFileTool } from '../../../../src/core/tools/readFile';
import { runCommandTool } from '../../../../src/core/tools/command/runCommand';
import { writeFileTool } from '../../../../src/core/tools/writeFile';
import { testContext } from '../../support/context';

/** A reading tool whose result the test writes. */
function testTool(run: () => Promise<ToolResult>): Tool {
  return defineTool<Record<string, never>>({
    name: 'workspace_test_result',
    displayName: 'Test Result',
    toolReferenceName: 'workspaceTestResult',
    icon: '$(beaker)',
    access: 'read',
    userDescription: 'A result of a unit test.',
    modelDescription: 'A result of a unit test.',
    inputSchema: { type: 'object', properties: {} },
    invocationMessage: () => 'Testing',
    run,
  });
}

// invokeTool is what invokeTool calls: the suite enters through the same door as every tool suite.
describe('tools/invoke', () => {
  const ctx = testContext({ root: os.tmpdir() });

  it('leaves out top-level fields the tool does not take and names them last in the result', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-invoke-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.txt'), 'one\n');
      const result = await invokeTool(readFileTool, { file_path: 'a.txt', wait_for_previous: true, safe: 1 }, testContext({ root: dir }));
      const texts = result.parts.map((part) => (part.kind === 'text' ? part.text : ''));
      assert.match(texts[0], /one/);
      assert.equal(texts.at(-1), '\n[workspace_read_file ignored fields it does not take: "wait_for_previous", "safe". Its fields: file_path, offset, limit, char_offset, char_limit.]');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('still refuses an unknown field inside a value, and wrong types of known fields beside an ignored one', async () => {
    await assert.rejects(invokeTool(editFileTool, { file_path: 'a', edits: [{ old_string: 'x', new_string: 'y', safe: true }] }, ctx), /Invalid input for workspace_edit_file: unknown field "safe"/);
    await assert.rejects(invokeTool(readFileTool, { file_path: 7, wait_for_previous: true }, ctx), /Invalid input for workspace_read_file: file_path must be string/);
  });

  it('refuses a missing field, listing the accepted ones', async () => {
    await assert.rejects(invokeTool(readFileTool, {}, ctx), /missing required field "file_path".*Accepted fields: file_path, offset, limit/);
  });

  it('refuses a field outside its range, naming the field, the range and the value', async () => {
    await assert.rejects(invokeTool(readFileTool, { file_path: 'a', offset: 0 }, ctx), /Invalid input for workspace_read_file: offset must be at least 1 \(got 0\)\. Accepted fields/);
    await assert.rejects(invokeTool(grepTool, { pattern: 'x', context: 21, max_results: 0 }, ctx), /context must be from 0 to 20 \(got 21\); max_results must be from 1 to 1000 \(got 0\)/);
  });

  describe('in an untrusted workspace', () => {
    const untrusted = testContext({ root: os.tmpdir(), workspace: { trusted: false } });

    it('refuses writing tools', async () => {
      await assert.rejects(invokeTool(writeFileTool, { file_path: 'a', content: '' }, untrusted), /not trusted/);
      await assert.rejects(invokeTool(runCommandTool, { command: 'ls' }, untrusted), /not trusted/);
    });

    it('lets reads through', async () => {
      await assert.doesNotReject(invokeTool(listDirectoryTool, {}, untrusted));
    });
  });

  it('refuses writing tools in plan mode', async () => {
    const planning = testContext({ root: os.tmpdir(), settings: { planMode: true } });
    await assert.rejects(invokeTool(editFileTool, { file_path: 'a', old_string: 'x', new_string: 'y' }, planning), /plan mode/);
  });

  describe('output budget', () => {
    it('cuts a long text result to workspaceAgentTools.output.maxResultChars with a note naming the setting', () => {
      const lines = Array.from({ length: 5000 }, (_, i) => `match ${i}`).join('\n');
      const result = budgetResult({ parts: [{ kind: 'text', text: lines }] }, 10_000);
      const text = result.parts[0].kind === 'text' ? result.parts[0].text : '';
      assert.ok(text.length < 10_300, `${text.length} characters`);
      assert.match(text, /^match 0\nmatch 1\n/);
      assert.match(text, /\n\[output truncated: \d+ more characters not shown\. The output budget is 10000 characters \(workspaceAgentTools\.output\.maxResultChars\); ask for less/);
    });

    it('shares the budget between text parts and leaves image parts alone', () => {
      const image = { kind: 'image' as const, mimeType: 'image/png', data: new Uint8Array([1, 2, 3]) };
      const result = budgetResult({ parts: [{ kind: 'text', text: 'x'.repeat(8000) }, image, { kind: 'text', text: 'y'.repeat(8000) }] }, 10_000);
      assert.equal(result.parts[0].kind === 'text' && result.parts[0].text, 'x'.repeat(8000));
      assert.equal(result.parts[1], image);
      const second = result.parts[2].kind === 'text' ? result.parts[2].text : '';
      assert.match(second, /^y{2000}\n\[output truncated: 6000 more characters not shown/);
    });

    it('splits a text part longer than 8000 characters after line ends, so it joins back as it was', () => {
      const text = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n');
      const image = { kind: 'image' as const, mimeType: 'image/png', data: new Uint8Array([1]) };
      const { parts } = splitTextParts({ parts: [{ kind: 'text', text }, image, { kind: 'text', text: 'short' }] });
      const texts = parts.map((part) => (part.kind === 'text' ? part.text : undefined));
      assert.ok(parts.length > 4 && parts.every((part) => part.kind !== 'text' || part.text.length <= 8000));
      assert.equal(texts.slice(0, -2).join(''), text);
      assert.ok(texts.slice(0, -3).every((piece) => piece?.endsWith('\n')));
      assert.deepEqual(parts.slice(-2), [image, { kind: 'text', text: 'short' }]);
    });

    it('cuts a line longer than a part across parts', () => {
      const { parts } = splitTextParts({ parts: [{ kind: 'text', text: 'x'.repeat(20_000) }] });
      assert.deepEqual(parts.map((part) => (part.kind === 'text' ? part.text.length : 0)), [8000, 8000, 4000]);
    });

    it('returns a result within the budget unchanged', () => {
      const result = { parts: [{ kind: 'text' as const, text: 'short' }] };
      assert.deepEqual(budgetResult(result, 10_000), result);
    });
  });

  describe('continuation: the note on how to get the rest, first in what the MCP front sends', () => {
    // What each client keeps of a long MCP result, as measured (test/agents/FINDINGS.md).
    const texts = (result: ToolResult): string[] => result.parts.map((part) => (part.kind === 'text' ? part.text : ''));
    const KEEPS: Record<string, (parts: string[]) => string> = {
      // Over its limit (about 50 KB), a file and a 2 KB preview of the content as JSON.
      'Claude Code': (parts) => (parts.join('').length > 50_000 ? JSON.stringify(parts.map((text) => ({ type: 'text', text })), null, 2).slice(0, 2000) : parts.join('')),
      // The first items up to about 12,000 characters, then "[omitted N text items ...]".
      'Codex CLI': (parts) => {
        let room = 12_000;
        return parts.map((text) => { const kept = text.slice(0, Math.max(room, 0)); room -= kept.length; return kept; }).join('');
      },
      // A part over 40,000 characters: its first 8,000 and last 32,000.
      'Gemini CLI': (parts) => parts.map((text) => (text.length > 40_000 ? text.slice(0, 8000) + text.slice(-32_000) : text)).join(''),
      // A part over 8,192 characters goes to a file the model must open.
      Copilot: (parts) => parts.map((text) => (text.length > 8192 ? '[in a file]' : text)).join(''),
    };

    let root: string;
    before(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-continue-'));
      fs.writeFileSync(path.join(root, 'long.txt'), Array.from({ length: 5000 }, (_, i) => `line ${i + 1} ${'x'.repeat(30)}`).join('\n'));
    });
    after(() => fs.rmSync(root, { recursive: true, force: true }));

    it('survives what every measured client keeps of a long read, and would not at the end alone', async () => {
      const result = await invokeTool(readFileTool, { file_path: 'long.txt' }, testContext({ root }));
      assert.equal(result.continuation, '[Showing lines 1-2000 of 5000. Use offset=2001 to read more.]');
      const sent = texts(continuationFirst(result));
      assert.equal(sent[0], '[Showing lines 1-2000 of 5000. Use offset=2001 to read more.]\n');
      assert.deepEqual(sent.slice(1), texts(result));
      for (const [client, keeps] of Object.entries(KEEPS)) {
        assert.ok(keeps(sent).includes('Use offset=2001 to read more.'), client);
      }
      // Without the copy first, Claude Code's preview and Codex's first items lose the note.
      assert.deepEqual(Object.entries(KEEPS).filter(([, keeps]) => !keeps(texts(result)).includes('Use offset=2001')).map(([client]) => client), ['Claude Code', 'Codex CLI']);
    });

    it('adds the output budget\'s cut to the tool\'s note, so both lead', () => {
      const cut = budgetResult(textResult(`${'y\n'.repeat(20_000)}[3 more files not shown]`, '[3 more files not shown]'), 10_000);
      assert.match(cut.continuation ?? '', /^\[3 more files not shown\]\n\[output truncated: \d+ more characters not shown\. The output budget is 10000 characters/);
      assert.equal(texts(continuationFirst(cut))[0], `${cut.continuation}\n`);
      assert.match(budgetResult(textResult('z\n'.repeat(20_000)), 10_000).continuation ?? '', /^\[output truncated: /);
    });

    it('leaves a result with nothing left out as it is, and keeps a long note to 1,000 characters', () => {
      const whole = textResult('all of it');
      assert.equal(continuationFirst(whole), whole);
      const [first] = texts(continuationFirst(textResult('body', `[${'n'.repeat(3000)}]`)));
      assert.equal(first.length, 1001);
      assert.ok(first.endsWith('…\n'));
    });

    it('takes secrets out of the note as out of the text', async () => {
      const secret = 'ghp_R5v8KzQ2mN7pL4xW9tY3bC6dF1gH0jK2sA5e';
      const tool = testTool(async () => textResult(`log at /tmp/${secret}.log`, `[All of it is in /tmp/${secret}.log]`));
      const result = await invokeTool(tool, {}, testContext({ root }));
      assert.doesNotMatch(result.continuation ?? '', /ghp_/);
      assert.match(result.continuation ?? '', /REDACTED/);
    });
  });

  describe('secret redaction', () => {
    let root: string;
    before(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-redact-'));
      fs.writeFileSync(path.join(root, 'config.sh'), 'export GITHUB_TOKEN=ghp_R5v8KzQ2mN7pL4xW9tY3bC6dF1gH0jK2sA5e\necho ok\n');
    });
    after(() => fs.rmSync(root, { recursive: true, force: true }));

    it('replaces secrets in results before they leave core and reports them', async () => {
      const result = await invokeTool(readFileTool, { file_path: 'config.sh' }, testContext({ root }));
      const text = result.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
      assert.equal(text, '     1\texport GITHUB_TOKEN=[REDACTED github secret, line 1]\n     2\techo ok');
      assert.deepEqual(result.redactions, [{ kind: 'github', line: 1 }]);
    });

    it('leaves results alone when the user turned redaction off', async () => {
      const result = await invokeTool(readFileTool, { file_path: 'config.sh' }, testContext({ root, settings: { redactSecrets: false } }));
      const text = result.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
      assert.match(text, /ghp_R5v8KzQ2mN7pL4xW9tY3bC6dF1gH0jK2sA5e/);
    });
  });
});
