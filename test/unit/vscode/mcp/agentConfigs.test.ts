import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { agentConfigFile, codexTable, proposeAgentConfig, type ConfigProposal } from '../../../../src/vscode/mcp/agentConfigs';

const relay = { command: 'node', args: ['/ext/dist/mcp.js'] };

function text(proposal: ConfigProposal): string {
  assert.ok(proposal.ok, proposal.ok ? '' : proposal.reason);
  return proposal.text;
}

function refused(proposal: ConfigProposal): string {
  assert.ok(!proposal.ok, 'expected a refusal');
  return proposal.reason;
}

describe('vscode/mcp/agentConfigs', () => {
  describe('agentConfigFile', () => {
    const env = { home: '/h', workspaceFolder: '/w' };
    it('names each agent\'s own file', () => {
      assert.equal(agentConfigFile('claude', env), path.join('/h', '.claude.json'));
      assert.equal(agentConfigFile('codex', env), path.join('/h', '.codex', 'config.toml'));
      assert.equal(agentConfigFile('gemini', env), path.join('/h', '.gemini', 'settings.json'));
      assert.equal(agentConfigFile('copilot', env), path.join('/h', '.copilot', 'mcp-config.json'));
      assert.equal(agentConfigFile('project', env), path.join('/w', '.mcp.json'));
    });
    it('follows CODEX_HOME and COPILOT_HOME, and has no project file without a folder', () => {
      assert.equal(agentConfigFile('codex', { home: '/h', codexHome: '/c' }), path.join('/c', 'config.toml'));
      assert.equal(agentConfigFile('copilot', { home: '/h', copilotHome: '/p' }), path.join('/p', 'mcp-config.json'));
      assert.equal(agentConfigFile('project', { home: '/h' }), undefined);
    });
  });

  describe('JSON files', () => {
    it('creates a missing file with our entry alone', () => {
      const created = JSON.parse(text(proposeAgentConfig('claude', undefined, relay)));
      assert.deepEqual(created, { mcpServers: { 'workspace-agent-tools': { type: 'stdio', command: 'node', args: ['/ext/dist/mcp.js'], env: {}, alwaysLoad: true } } });
    });

    it('writes the entry each agent takes', () => {
      const entry = (target: 'gemini' | 'copilot' | 'project') => JSON.parse(text(proposeAgentConfig(target, '{}\n', relay))).mcpServers['workspace-agent-tools'];
      assert.deepEqual(entry('gemini'), { command: 'node', args: ['/ext/dist/mcp.js'], trust: true });
      assert.deepEqual(entry('copilot'), { type: 'stdio', command: 'node', args: ['/ext/dist/mcp.js'], tools: ['*'] });
      assert.deepEqual(entry('project'), { type: 'stdio', command: 'node', args: ['/ext/dist/mcp.js'], tools: ['*'] });
    });

    it('changes only our key of ~/.claude.json and keeps every other byte', () => {
      const current = '{\n  "numStartups": 12,\n  "projects": {\n    "/w": { "allowedTools": [] }\n  },\n  "mcpServers": {\n    "other": { "command": "x" }\n  },\n  "z": "last"\n}\n';
      const next = text(proposeAgentConfig('claude', current, relay));
      const at = current.indexOf(' }\n  },\n  "z"') + 2;
      const inserted = ',\n    "workspace-agent-tools": {\n      "type": "stdio",\n      "command": "node",\n      "args": [\n        "/ext/dist/mcp.js"\n      ],\n      "env": {},\n      "alwaysLoad": true\n    }';
      assert.equal(next, current.slice(0, at) + inserted + current.slice(at));
    });

    it('adds mcpServers to a file without it, and fills an empty object', () => {
      const entry = '{\n      "command": "node",\n      "args": [\n        "/ext/dist/mcp.js"\n      ],\n      "trust": true\n    }';
      assert.equal(text(proposeAgentConfig('gemini', '{\n  "theme": "dark"\n}\n', relay)), `{\n  "theme": "dark",\n  "mcpServers": {\n    "workspace-agent-tools": ${entry}\n  }\n}\n`);
      assert.equal(text(proposeAgentConfig('gemini', '{\n  "mcpServers": {}\n}\n', relay)), `{\n  "mcpServers": {\n    "workspace-agent-tools": ${entry}\n  }\n}\n`);
    });

    it('replaces an older entry of ours', () => {
      const current = '{\n  "mcpServers": {\n    "workspace-agent-tools": { "command": "node", "args": ["/old/dist/mcp.js"] }\n  }\n}\n';
      const parsed = JSON.parse(text(proposeAgentConfig('gemini', current, relay)));
      assert.deepEqual(parsed.mcpServers['workspace-agent-tools'], { command: 'node', args: ['/ext/dist/mcp.js'], trust: true });
    });

    it('says unchanged when the entry is already there', () => {
      const once = text(proposeAgentConfig('copilot', '{}', relay));
      const again = proposeAgentConfig('copilot', once, relay);
      assert.ok(again.ok && again.unchanged && again.text === once);
      const fresh = proposeAgentConfig('copilot', '{}', relay);
      assert.ok(fresh.ok && !fresh.unchanged);
    });

    it('keeps CRLF line endings, tab indentation and a missing final newline', () => {
      const crlf = text(proposeAgentConfig('gemini', '{\r\n  "theme": "dark"\r\n}\r\n', relay));
      assert.ok(crlf.endsWith('\r\n') && !/[^\r]\n/.test(crlf), JSON.stringify(crlf));
      const tabs = text(proposeAgentConfig('gemini', '{\n\t"theme": "dark"\n}', relay));
      assert.ok(tabs.includes('\n\t"mcpServers": {\n\t\t"workspace-agent-tools"'), JSON.stringify(tabs));
      assert.ok(tabs.endsWith('}') && !tabs.endsWith('\n'));
    });

    it('refuses a file that does not parse, or whose mcpServers is not an object', () => {
      assert.match(refused(proposeAgentConfig('claude', '{\n  "a": 1,\n  "b": \n}\n', relay)), /not valid JSON \(ValueExpected at line 4\).*nothing was changed/);
      assert.match(refused(proposeAgentConfig('claude', '[1]', relay)), /not hold a JSON object/);
      assert.match(refused(proposeAgentConfig('copilot', '{"mcpServers": []}', relay)), /"mcpServers" is not an object/);
    });

    it('takes comments in Gemini CLI settings (which allow them) and keeps them, but not in ~/.claude.json', () => {
      const current = '{\n  // my theme\n  "theme": "dark"\n}\n';
      assert.ok(text(proposeAgentConfig('gemini', current, relay)).includes('// my theme'));
      assert.match(refused(proposeAgentConfig('claude', current, relay)), /not valid JSON/);
    });
  });

  describe('Codex config.toml', () => {
    const table = codexTable(relay);

    it('writes the table Codex needs to offer and run every tool headless', () => {
      assert.equal(
        table,
        '[mcp_servers.workspace-agent-tools]\ncommand = "node"\nargs = ["/ext/dist/mcp.js"]\nrequired = true\ndefault_tools_approval_mode = "approve"\nenv_vars = ["XDG_RUNTIME_DIR"]\n',
      );
      assert.equal(text(proposeAgentConfig('codex', undefined, relay)), table);
    });

    it('appends the table after the rest, with a blank line between', () => {
      const current = 'model = "o5"\n\n[mcp_servers.other]\ncommand = "x"\n';
      assert.equal(text(proposeAgentConfig('codex', current, relay)), `${current}\n${table}`);
      assert.equal(text(proposeAgentConfig('codex', 'model = "o5"', relay)), `model = "o5"\n\n${table}`);
    });

    it('replaces our own table in place and keeps what follows, our subtables too', () => {
      const current = [
        'model = "o5"',
        '',
        '[mcp_servers."workspace-agent-tools"]  # ours',
        'command = "node"',
        'args = [',
        '  "/old/dist/mcp.js",',
        ']',
        '',
        '# the next one',
        '[mcp_servers.workspace-agent-tools.tools.workspace_run_command]',
        'approval_mode = "prompt"',
        '',
        '[features]',
        'plugins = false',
        '',
      ].join('\n');
      const next = text(proposeAgentConfig('codex', current, relay));
      assert.equal(
        next,
        ['model = "o5"', '', ...table.split('\n').slice(0, -1), '', '# the next one', '[mcp_servers.workspace-agent-tools.tools.workspace_run_command]', 'approval_mode = "prompt"', '', '[features]', 'plugins = false', ''].join('\n'),
      );
      const again = proposeAgentConfig('codex', next, relay);
      assert.ok(again.ok && again.unchanged);
    });

    it('keeps CRLF line endings', () => {
      const next = text(proposeAgentConfig('codex', 'model = "o5"\r\n', relay));
      assert.equal(next, `model = "o5"\r\n\r\n${table.replace(/\n/g, '\r\n')}`);
    });

    it('refuses our server written as a dotted key or inline table, or twice', () => {
      assert.match(refused(proposeAgentConfig('codex', '[mcp_servers]\nworkspace-agent-tools = { command = "node" }\n', relay)), /form this command does not edit/);
      assert.match(refused(proposeAgentConfig('codex', 'mcp_servers.workspace-agent-tools.command = "node"\n', relay)), /form this command does not edit/);
      assert.match(refused(proposeAgentConfig('codex', '[mcp_servers.workspace-agent-tools]\n[mcp_servers.workspace-agent-tools]\n', relay)), /more than once/);
    });

    it('does not mistake another server whose path contains our name for ours', () => {
      const current = '[mcp_servers.old]\ncommand = "node"\nargs = ["/x/workspace-agent-tools-1.0/dist/mcp.js"]\n';
      assert.equal(text(proposeAgentConfig('codex', current, relay)), `${current}\n${table}`);
    });
  });
});
