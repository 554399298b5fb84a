// The single path every tool call takes, whoever makes it (chat, the palette, tests): validate,
// check trust and plan mode, run, take secrets out of the result (error messages included), and cut
// the result to the output budget.
import type { ToolContext } from '../context';
import { CancelledError, throwIfCancelled, ToolError } from '../errors';
import { capChars, MAX_TEXT_PART_CHARS, resultCharBudget, splitAtLines } from '../output/budget';
import { redactSecrets, type Redaction } from '../secrets/redactSecrets';
import { SETTING_KEYS, SETTINGS_SECTION } from '../settings';
import type { Tool, ToolResult, ToolResultPart } from './toolSpec';

/** Refuses what the workspace state forbids before any tool logic runs: trust and plan mode. */
export function checkAvailability(tool: Tool, ctx: ToolContext): void {
  if (tool.access === 'read') {
    return;
  }
  if (!ctx.workspace.trusted) {
    throw new ToolError(
      `${tool.name} is not available because this workspace is not trusted (Restricted Mode). Only reading tools work here. Ask the user to trust the workspace if changes are needed.`,
    );
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

/** Replaces secrets in every text part, unless the user turned redaction off. */
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
  return { parts, redactions: [...(result.redactions ?? []), ...redactions] };
}

/** Cuts the text of a result to the user's output budget, a last guard behind each tool's own limits. */
export function budgetResult(result: ToolResult, maxChars: number): ToolResult {
  let room = maxChars;
  const parts = result.parts.map((part): ToolResultPart => {
    if (part.kind !== 'text') {
      return part;
    }
    const hint = `The output budget is ${maxChars} characters (${SETTINGS_SECTION}.${SETTING_KEYS.maxResultChars}); ask for less (a narrower path or glob, fewer lines, a smaller max_results)`;
    const { text } = capChars(part.text, Math.max(room, 0), hint);
    room -= text.length;
    return { kind: 'text', text };
  });
  return { ...result, parts };
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
