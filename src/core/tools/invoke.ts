// The single path every tool call takes, whoever makes it (chat, the palette, tests): validate,
// check trust and plan mode, run, take secrets out of the result (error messages included), and cut
// the result to the output budget. continuationFirst is how the MCP front leads with the note on
// how to get what a result left out.
import type { ToolContext } from '../context';
import { CancelledError, throwIfCancelled, ToolError } from '../errors';
import { capChars, MAX_CONTINUATION_CHARS, MAX_TEXT_PART_CHARS, resultCharBudget, splitAtLines } from '../output/budget';
import { redactSecrets, type Redaction } from '../secrets/redactSecrets';
import { SETTING_KEYS, SETTINGS_SECTION } from '../settings';
import type { Tool, ToolResult, ToolResultPart } from './toolSpec';

/** Why a tool that changes things is refused in Restricted Mode: the same words for chat and for the MCP front. */
export function untrustedMessage(tool: Pick<Tool, 'name'>): string {
  return `${tool.name} is not available because this workspace is not trusted (Restricted Mode). Only reading tools work here. Ask the user to trust the workspace if changes are needed.`;
}

/** Refuses what the workspace state forbids before any tool logic runs: trust and plan mode. */
export function checkAvailability(tool: Tool, ctx: ToolContext): void {
  if (tool.access === 'read') {
    return;
  }
  if (!ctx.workspace.trusted) {
    throw new ToolError(untrustedMessage(tool));
  }
  if (ctx.settings.planMode) {
    throw new ToolError(
      `${tool.name} is refused because the user has the workspace in plan mode: no files may be changed and no commands run. Describe the changes as a plan instead, and ask the user to turn plan mode off to carry it out.`,
    );
  }
}

/** The one sentence every cancelled call ends with. */
function cancelledMessage(tool: Tool): string {
  return `${tool.name} was cancelled; nothing was changed.`;
}

/** Replaces secrets in every text part and the continuation, unless the user turned redaction off. */
async function redactResult(result: ToolResult, ctx: ToolContext): Promise<ToolResult> {
  if (!ctx.settings.redactSecrets) {
    return result;
  }
  const redactions: Redaction[] = [];
  const parts: ToolResultPart[] = [];
  for (const part of result.parts) {
    if (part.kind !== 'text') {
      parts.push(part);
      continue;
    }
    const redacted = await redactSecrets(part.text);
    redactions.push(...redacted.redactions);
    parts.push({ kind: 'text', text: redacted.text });
  }
  // The continuation repeats a note of the text: its secrets are replaced too, and counted there.
  const continuation = result.continuation === undefined ? {} : { continuation: (await redactSecrets(result.continuation)).text };
  return { parts, redactions: [...(result.redactions ?? []), ...redactions], ...continuation };
}

/**
 * Cuts the text of a result to the user's output budget, a last guard behind each tool's own
 * limits. A cut's note joins the result's continuation, so it is repeated first too.
 */
export function budgetResult(result: ToolResult, maxChars: number): ToolResult {
  let room = maxChars;
  let cutNote: string | undefined;
  const parts = result.parts.map((part): ToolResultPart => {
    if (part.kind !== 'text') {
      return part;
    }
    const hint = `The output budget is ${maxChars} characters (${SETTINGS_SECTION}.${SETTING_KEYS.maxResultChars}); ask for less (a narrower path or glob, fewer lines, a smaller max_results)`;
    const { text, note } = capChars(part.text, Math.max(room, 0), hint);
    room -= text.length;
    cutNote ??= note;
    return { kind: 'text', text };
  });
  if (cutNote === undefined) {
    return { ...result, parts };
  }
  return { ...result, parts, continuation: result.continuation === undefined ? cutNote : `${result.continuation}\n${cutNote}` };
}

/**
 * The result with its continuation also first, as a text part of its own: what the MCP front
 * sends. MCP clients keep different pieces of a long result (test/agents/FINDINGS.md): Claude Code
 * saves one over its limit to a file and shows the model a 2 KB preview, Codex keeps the first
 * items up to about 12,000 characters and drops the rest, Gemini CLI the first 8,000 and the last
 * 32,000 characters of a long part, Copilot moves a text part over 8,192 characters to a file. Each
 * keeps the start, and a short first part inline, so the note on how to get the rest survives all
 * of them. Chat's result needs no copy: it is cut to the token budget VS Code gives, in parts
 * Copilot keeps inline (splitTextParts), with the note where the tool wrote it.
 */
export function continuationFirst(result: ToolResult): ToolResult {
  const note = result.continuation;
  if (note === undefined || note === '') {
    return result;
  }
  const header = note.length > MAX_CONTINUATION_CHARS ? `${note.slice(0, MAX_CONTINUATION_CHARS - 1)}…` : note;
  return { ...result, parts: [{ kind: 'text', text: `${header}\n` }, ...result.parts] };
}

/** The characters one call's result may hold: the setting, or the client's token budget when smaller. */
export function resultBudget(ctx: ToolContext): number {
  return resultCharBudget(ctx.settings.maxResultChars, ctx.call.tokenBudget);
}

/** Splits every text part longer than `max` characters into several, at line ends, so clients take each inline. */
export function splitTextParts(result: ToolResult, max = MAX_TEXT_PART_CHARS): ToolResult {
  const parts = result.parts.flatMap((part): ToolResultPart[] => (part.kind === 'text' && part.text.length > max ? splitAtLines(part.text, max).map((text) => ({ kind: 'text', text })) : [part]));
  return { ...result, parts };
}

/** Runs one call. Errors the model should see are ToolErrors; a BugError or anything else is a bug. */
export async function invokeTool(tool: Tool, input: unknown, ctx: ToolContext): Promise<ToolResult> {
  let result: ToolResult;
  let ignoredFields: readonly string[] = [];
  try {
    const call = tool.prepare(input);
    ignoredFields = call.ignoredFields;
    checkAvailability(tool, ctx);
    throwIfCancelled(ctx.call.token);
    result = await call.run(ctx);
  } catch (error) {
    if (error instanceof CancelledError) {
      throw new ToolError(cancelledMessage(tool));
    }
    if (!(error instanceof ToolError) || !ctx.settings.redactSecrets) {
      throw error;
    }
    const redacted = await redactSecrets(error.message);
    throw redacted.redactions.length ? new ToolError(redacted.text, redacted.redactions) : error;
  }
  return withIgnoredFields(splitTextParts(budgetResult(await redactResult(result, ctx), resultBudget(ctx))), tool, ignoredFields);
}

/** A result that names the fields the call left out, last, where no budget cut reaches it. */
function withIgnoredFields(result: ToolResult, tool: Tool, ignored: readonly string[]): ToolResult {
  if (ignored.length === 0) {
    return result;
  }
  const names = ignored.slice(0, 10).map((field) => JSON.stringify(field.slice(0, 60))).join(', ') + (ignored.length > 10 ? ` and ${ignored.length - 10} more` : '');
  const fields = Object.keys(tool.inputSchema.properties ?? {}).join(', ');
  return { ...result, parts: [...result.parts, { kind: 'text', text: `\n[${tool.name} ignored ${ignored.length === 1 ? 'a field it does not take' : 'fields it does not take'}: ${names}. Its fields: ${fields}.]` }] };
}
