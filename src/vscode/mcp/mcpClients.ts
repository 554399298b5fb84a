// Who is calling over MCP, from the name the client gives itself in `initialize` (its own claim):
// how approvals and the activity log name it, and how long its calls may take before they answer.
// Pure (no vscode), unit-tested in test/unit/vscode/mcp.
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';

/**
 * Names the known agents give themselves, matched from the start of the name, and how long each
 * lets a tool call run before it cuts it, where that was measured (test/agents/FINDINGS.md): Codex
 * CLI cuts at 300 s (`tool_timeout_sec`), Gemini CLI at 600 s (the entry's `timeout`), whatever the
 * progress; Claude Code cut none in 11 minutes, but its limit can be set lower (MCP_TOOL_TIMEOUT).
 */
const KNOWN_CLIENTS: readonly { readonly name: RegExp; readonly label: string; readonly cutsAfterSeconds?: number }[] = [
  { name: /^claude[- ]code\b/i, label: 'Claude Code' },
  { name: /^codex\b/i, label: 'Codex CLI', cutsAfterSeconds: 300 },
  { name: /^gemini\b/i, label: 'Gemini CLI', cutsAfterSeconds: 600 },
];

/** How far before a known client's cut its calls answer. */
const CUT_MARGIN_SECONDS = 60;

/**
 * Seconds within which a call of this client answers: the setting, or longer for a client known
 * to wait longer. Fewer "still waiting" answers matter: Gemini CLI ends the session as a loop when
 * a model makes the same call five times in a row, which a 10-minute command waited on in 45 s
 * steps would do.
 */
export function answerWithinSeconds(info: Implementation | undefined, setting: number): number {
  const known = KNOWN_CLIENTS.find((client) => client.name.test(cleanName(info?.name)));
  return known?.cutsAfterSeconds ? Math.max(setting, known.cutsAfterSeconds - CUT_MARGIN_SECONDS) : setting;
}

/**
 * The client's name made safe to show and record: one line of printable characters (no control,
 * format or bidi characters, which could make the question read differently), at most 60.
 */
export function cleanName(name: string | undefined): string {
  return (name ?? '').replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ').replace(/\s+/g, ' ').trim().slice(0, 60);
}

/**
 * How the activity log records the client (`mcp:<name>`) and how approvals name it. The name is
 * the client's own claim: a known agent's name is shown as that agent, any other always quoted as
 * an MCP client's, and the free-text title it may send is never shown (it could read as part of
 * the question, e.g. "VS Code (you already approved this)").
 */
export function describeClient(info: Implementation | undefined): { client: string; label: string } {
  const name = cleanName(info?.name) || 'unknown';
  const known = KNOWN_CLIENTS.find((client) => client.name.test(name))?.label;
  return { client: `mcp:${name}`, label: known ?? `The MCP client "${name}"` };
}
