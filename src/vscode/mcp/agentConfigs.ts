// Connect an Agent, the pure part: for each terminal agent, where its MCP configuration lives and the
// new text of that file with our entry in it. No vscode here (unit-tested in plain Node): given the
// file's current text (or none) and the relay's command, produce the proposal or refuse with a
// reason; the command in connectAgent.ts shows the diff and writes only what the user accepted.
import * as path from 'node:path';
import { applyEdits, findNodeAtLocation, parse, parseTree, printParseErrorCode, type Edit, type Node, type ParseError } from 'jsonc-parser';
import { MCP_SERVER_NAME } from '../../mcp/serverInfo';

/** How to start the relay (the same shape as configCommands' McpServerConfig). */
export interface RelayCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** The agents (and config files) the command offers. */
export type AgentTarget = 'claude' | 'codex' | 'gemini' | 'copilot' | 'project';

export const AGENT_TARGETS: readonly AgentTarget[] = ['claude', 'codex', 'gemini', 'copilot', 'project'];

/** Where the files are: the home folder, the agents' own variables, the workspace folder. */
export interface AgentEnvironment {
  readonly home: string;
  /** CODEX_HOME, when set (Codex reads config.toml there instead of ~/.codex). */
  readonly codexHome?: string;
  /** COPILOT_HOME, when set (Copilot CLI's config folder instead of ~/.copilot). */
  readonly copilotHome?: string;
  /** The workspace folder, for the project's .mcp.json. */
  readonly workspaceFolder?: string;
}

export interface AgentInfo {
  readonly label: string;
  readonly detail: string;
  /** What the user still has to do for some runs (shown after writing), if anything. */
  readonly afterwards?: string;
}

export const AGENT_INFO: Readonly<Record<AgentTarget, AgentInfo>> = {
  claude: {
    label: 'Claude Code',
    detail: 'user scope: ~/.claude.json (what `claude mcp add --scope user` writes)',
    afterwards: 'Headless runs (claude -p) also need --allowedTools mcp__workspace-agent-tools; you still approve each change in VS Code.',
  },
  codex: {
    label: 'Codex CLI',
    detail: '$CODEX_HOME/config.toml (~/.codex/config.toml)',
  },
  gemini: {
    label: 'Gemini CLI',
    detail: '~/.gemini/settings.json',
    afterwards: 'Headless runs (gemini -p) also need Gemini CLI\'s own auth setting and the folder in its trusted folders; this command does not write those.',
  },
  copilot: {
    label: 'Copilot CLI / Agent Host',
    detail: '$COPILOT_HOME/mcp-config.json (~/.copilot/mcp-config.json), every project',
  },
  project: {
    label: 'This project: .mcp.json',
    detail: 'the workspace folder\'s .mcp.json, read by Claude Code (project scope) and Copilot CLI / Agent Host',
    afterwards: 'Claude Code asks once before it uses a project server; Copilot CLI loads a project\'s .mcp.json only in a trusted folder (and not in -p mode unless told to).',
  },
};

/** The file an agent reads, or undefined (the project target without a workspace folder). */
export function agentConfigFile(target: AgentTarget, env: AgentEnvironment): string | undefined {
  switch (target) {
    case 'claude':
      return path.join(env.home, '.claude.json');
    case 'codex':
      return path.join(env.codexHome || path.join(env.home, '.codex'), 'config.toml');
    case 'gemini':
      return path.join(env.home, '.gemini', 'settings.json');
    case 'copilot':
      return path.join(env.copilotHome || path.join(env.home, '.copilot'), 'mcp-config.json');
    case 'project':
      return env.workspaceFolder ? path.join(env.workspaceFolder, '.mcp.json') : undefined;
  }
}

/**
 * Our entry under mcpServers for the JSON targets, exactly what each pinned agent takes (see
 * test/agents/FINDINGS.md): Claude Code's stdio schema (`alwaysLoad` keeps our tools in the prompt
 * instead of deferring them behind ToolSearch), Gemini CLI's `trust` (without it a headless run is
 * not offered the tools), Copilot CLI's `type` and `tools` (`["*"]`: every tool).
 */
export function agentJsonEntry(target: Exclude<AgentTarget, 'codex'>, relay: RelayCommand): Record<string, unknown> {
  const command = relay.command;
  const args = [...relay.args];
  switch (target) {
    case 'claude':
      return { type: 'stdio', command, args, env: {}, alwaysLoad: true };
    case 'gemini':
      return { command, args, trust: true };
    case 'copilot':
    case 'project':
      return { type: 'stdio', command, args, tools: ['*'] };
  }
}

/** The TOML table for Codex: required (else the first turn may start without our tools), and its per-server approval (else exec refuses our destructive-annotated tools). */
export function codexTable(relay: RelayCommand, eol = '\n'): string {
  return [
    `[mcp_servers.${MCP_SERVER_NAME}]`,
    `command = ${JSON.stringify(relay.command)}`,
    `args = [${relay.args.map((arg) => JSON.stringify(arg)).join(', ')}]`,
    'required = true',
    'default_tools_approval_mode = "approve"',
    'env_vars = ["XDG_RUNTIME_DIR"]',
    '',
  ].join(eol);
}

/** The proposal: the new text (unchanged when our entry is already exactly there), or why not. */
export type ConfigProposal = { readonly ok: true; readonly text: string; readonly unchanged: boolean } | { readonly ok: false; readonly reason: string };

/** The new text of the target's config file with our entry; `current` undefined when the file does not exist. */
export function proposeAgentConfig(target: AgentTarget, current: string | undefined, relay: RelayCommand): ConfigProposal {
  const proposal = target === 'codex' ? proposeToml(current, relay) : proposeJson(current, agentJsonEntry(target, relay), target === 'gemini');
  return proposal.ok ? { ...proposal, unchanged: proposal.text === current } : proposal;
}

function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** The indentation of the first indented line: a tab, or that many spaces (2 when none). */
function indentOf(text: string): { insertSpaces: boolean; tabSize: number } {
  const match = /\n([ \t]+)\S/.exec(text);
  if (match?.[1].startsWith('\t')) {
    return { insertSpaces: false, tabSize: 1 };
  }
  return { insertSpaces: true, tabSize: match ? Math.min(match[1].length, 8) : 2 };
}

function proposeJson(current: string | undefined, entry: Record<string, unknown>, allowComments: boolean): { ok: true; text: string } | { ok: false; reason: string } {
  if (current === undefined || current.trim() === '') {
    return { ok: true, text: `${JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: entry } }, null, 2)}\n` };
  }
  const errors: ParseError[] = [];
  const root: unknown = parse(current, errors, { disallowComments: !allowComments, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length > 0) {
    const first = errors[0];
    const line = current.slice(0, first.offset).split('\n').length;
    return { ok: false, reason: `it is not valid JSON (${printParseErrorCode(first.error)} at line ${line}); fix it first, nothing was changed` };
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    return { ok: false, reason: 'it does not hold a JSON object; nothing was changed' };
  }
  const servers = (root as Record<string, unknown>).mcpServers;
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers))) {
    return { ok: false, reason: 'its "mcpServers" is not an object; nothing was changed' };
  }
  if (servers !== undefined && JSON.stringify((servers as Record<string, unknown>)[MCP_SERVER_NAME]) === JSON.stringify(entry)) {
    return { ok: true, text: current };
  }
  return { ok: true, text: applyEdits(current, [insertEntry(current, entry)]) };
}

/**
 * The one edit that puts our entry in: the old value replaced, or a property added after the last
 * one of mcpServers (or of the root, with mcpServers around it). Only that span changes; the new
 * text takes the file's indentation and line ends. (jsonc-parser's `modify` reformats the line
 * before an insertion too, which would touch the user's own entries.)
 */
function insertEntry(text: string, entry: Record<string, unknown>): Edit {
  const eol = eolOf(text);
  const { insertSpaces, tabSize } = indentOf(text);
  const unit = insertSpaces ? ' '.repeat(tabSize) : '\t';
  const root = parseTree(text) as Node;
  const lineIndent = (offset: number): string => /^[ \t]*/.exec(text.slice(text.lastIndexOf('\n', offset - 1) + 1))?.[0] ?? '';
  const render = (value: unknown, indent: string): string => JSON.stringify(value, null, unit).split('\n').join(eol + indent);
  const existing = findNodeAtLocation(root, ['mcpServers', MCP_SERVER_NAME]);
  if (existing) {
    return { offset: existing.offset, length: existing.length, content: render(entry, lineIndent(existing.parent?.offset ?? existing.offset)) };
  }
  const servers = findNodeAtLocation(root, ['mcpServers']);
  const [object, key, value] = servers ? [servers, MCP_SERVER_NAME, entry] : [root, 'mcpServers', { [MCP_SERVER_NAME]: entry }];
  const properties = object.children ?? [];
  const last = properties[properties.length - 1];
  if (last) {
    const indent = lineIndent(last.offset);
    return { offset: last.offset + last.length, length: 0, content: `,${eol}${indent}${JSON.stringify(key)}: ${render(value, indent)}` };
  }
  // An empty object: fill it, its closing brace on a line of its own.
  const outer = lineIndent(object.offset);
  const indent = outer + unit;
  return { offset: object.offset + 1, length: object.length - 2, content: `${eol}${indent}${JSON.stringify(key)}: ${render(value, indent)}${eol}${outer}` };
}

/** A table header line naming our server: `[mcp_servers.workspace-agent-tools]`, the name quoted or not. */
const OUR_HEADER = new RegExp(`^\\s*\\[\\s*mcp_servers\\s*\\.\\s*(?:${MCP_SERVER_NAME}|"${MCP_SERVER_NAME}"|'${MCP_SERVER_NAME}')\\s*\\]\\s*(?:#.*)?$`);
/** Any table or array-of-tables header. */
const ANY_HEADER = /^\s*\[/;

/**
 * Codex's config.toml, edited as text: our table replaced where it is, else appended; every other
 * line kept as it is. Our server written any other way (a dotted key, an inline table) is refused,
 * since replacing one and keeping the other would define it twice.
 */
function proposeToml(current: string | undefined, relay: RelayCommand): { ok: true; text: string } | { ok: false; reason: string } {
  if (current === undefined || current.trim() === '') {
    return { ok: true, text: codexTable(relay) };
  }
  const eol = eolOf(current);
  const lines = current.split(/\r?\n/);
  const trailingNewline = lines[lines.length - 1] === '';
  if (trailingNewline) {
    lines.pop();
  }
  const starts = lines.flatMap((line, index) => (OUR_HEADER.test(line) ? [index] : []));
  if (starts.length > 1) {
    return { ok: false, reason: `it defines [mcp_servers.${MCP_SERVER_NAME}] more than once, which is not valid TOML; nothing was changed` };
  }
  const table = codexTable(relay, eol).split(eol).slice(0, -1);
  let result: string[];
  if (starts.length === 1) {
    const start = starts[0];
    let end = start + 1;
    while (end < lines.length && !ANY_HEADER.test(lines[end])) {
      end++;
    }
    // Keep the blank lines and comments that lead into the next table.
    while (end > start + 1 && /^\s*(#.*)?$/.test(lines[end - 1])) {
      end--;
    }
    result = [...lines.slice(0, start), ...table, ...lines.slice(end)];
    const outside = [...lines.slice(0, start), ...lines.slice(end)];
    if (mentionsServerElsewhere(outside)) {
      return { ok: false, reason: `it names ${MCP_SERVER_NAME} outside its [mcp_servers.${MCP_SERVER_NAME}] table; edit it by hand, nothing was changed` };
    }
  } else {
    if (mentionsServerElsewhere(lines)) {
      return { ok: false, reason: `it defines ${MCP_SERVER_NAME} in a form this command does not edit (a dotted key or an inline table); edit it by hand, nothing was changed` };
    }
    const blank = lines.length > 0 && lines[lines.length - 1].trim() !== '' ? [''] : [];
    result = [...lines, ...blank, ...table];
  }
  return { ok: true, text: result.join(eol) + eol };
}

/** Our server as a key anywhere but its own table: `mcp_servers.workspace-agent-tools.command = ...` or `workspace-agent-tools = { ... }` under [mcp_servers]. */
const OUR_KEY = new RegExp(`^\\s*(?:mcp_servers\\s*\\.\\s*)?(?:${MCP_SERVER_NAME}|"${MCP_SERVER_NAME}"|'${MCP_SERVER_NAME}')\\s*[.=]`);

/** True when a line defines our server by a key (outside our table). */
function mentionsServerElsewhere(lines: readonly string[]): boolean {
  return lines.some((line) => OUR_KEY.test(line));
}
