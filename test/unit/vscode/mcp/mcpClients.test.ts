import * as assert from 'node:assert/strict';
import { answerWithinSeconds, describeClient } from '../../../../src/vscode/mcp/mcpClients';

describe('vscode/mcp/mcpClients', () => {
  it('names a known agent as that agent, and any other client only by its quoted, cleaned name', () => {
    assert.deepEqual(describeClient({ name: 'claude-code', version: '2.1.331' }), { client: 'mcp:claude-code', label: 'Claude Code' });
    assert.deepEqual(describeClient({ name: 'codex-mcp-client', version: '0.169.0' }), { client: 'mcp:codex-mcp-client', label: 'Codex CLI' });
    assert.deepEqual(describeClient({ name: 'evil\u202e\nagent', version: '1' }), { client: 'mcp:evil agent', label: 'The MCP client "evil agent"' });
    assert.deepEqual(describeClient(undefined), { client: 'mcp:unknown', label: 'The MCP client "unknown"' });
  });

  it('answers within the setting, or a minute before the cut of a client measured to wait longer', () => {
    assert.equal(answerWithinSeconds({ name: 'claude-code', version: '2' }, 45), 45);
    assert.equal(answerWithinSeconds({ name: 'some-agent', version: '1' }, 45), 45);
    assert.equal(answerWithinSeconds(undefined, 45), 45);
    // Codex CLI cuts at 300 s, Gemini CLI at 600 s (test/agents/FINDINGS.md).
    assert.equal(answerWithinSeconds({ name: 'codex-mcp-client', version: '0.169.0' }, 45), 240);
    assert.equal(answerWithinSeconds({ name: 'gemini-cli-mcp-client', version: '0.61.0' }, 45), 540);
    // A setting above that stays the user's choice.
    assert.equal(answerWithinSeconds({ name: 'gemini-cli-mcp-client', version: '0.61.0' }, 900), 900);
  });
});
