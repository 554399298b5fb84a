import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { capChars, DEFAULT_MAX_RESULT_CHARS } from '../output/budget';
import type { ToolContext } from '../ports';
import { redactSecrets, type Redaction } from '../secrets/redactSecrets';
import type { ToolResult, ToolResultPart, ToolSpec } from './toolSpec';
import { ToolError } from '../errors';

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new WeakMap<object, ValidateFunction>();

function validatorFor(spec: ToolSpec<never>): ValidateFunction {
  let validate = validators.get(spec);
  if (!validate) {
    validate = ajv.compile(spec.inputSchema);
    validators.set(spec, validate);
  }
  return validate;
}

function describeSchemaError(error: ErrorObject): string {
  const where = error.instancePath ? error.instancePath.slice(1).replace(/\//g, '.') : 'input';
  if (error.keyword === 'additionalProperties') {
    return `unknown field "${String(error.params.additionalProperty)}"`;
  }
  if (error.keyword === 'required') {
    return `missing required field "${String(error.params.missingProperty)}"`;
  }
  return `${where} ${error.message ?? 'is invalid'}`;
}

/** Checks the input against the tool's schema; extra fields and wrong types are refused, not ignored. */
export function validateInput(spec: ToolSpec<never>, input: unknown): void {
  const validate = validatorFor(spec);
  if (!validate(input)) {
    const problems = (validate.errors ?? []).map(describeSchemaError);
    const fields = Object.keys(spec.inputSchema.properties ?? {}).join(', ');
    throw new ToolError(`Invalid input for ${spec.name}: ${problems.join('; ')}. Accepted fields: ${fields}.`);
  }
}

/** Refuses what the workspace state forbids before any tool logic runs: trust and plan mode. */
export function checkAvailability(spec: ToolSpec<never>, ctx: ToolContext): void {
  if (spec.access === 'read') {
    return;
  }
  if (!ctx.workspace.trusted) {
    throw new ToolError(
      `${spec.name} is not available because this workspace is not trusted (Restricted Mode). Only reading tools work here. Ask the user to trust the workspace if changes are needed.`,
    );
  }
  if (ctx.settings.planMode) {
    throw new ToolError(
      `${spec.name} is refused because the user has the workspace in plan mode: no files may be changed and no commands run. Describe the changes as a plan instead, and ask the user to turn plan mode off to carry it out.`,
    );
  }
}

/** Replaces secrets in every text part, unless the user turned redaction off. */
async function redactResult(result: ToolResult, ctx: ToolContext): Promise<ToolResult> {
  if (ctx.settings.redactSecrets === false) {
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
    const hint = `The output budget is ${maxChars} characters (workspaceAgentTools.output.maxResultChars); ask for less (a narrower path or glob, fewer lines, a smaller max_results)`;
    const { text } = capChars(part.text, Math.max(room, 0), hint);
    room -= text.length;
    return { kind: 'text', text };
  });
  return { ...result, parts };
}

/**
 * Validates, checks availability, runs one tool call and takes secrets out of what it returns
 * (error messages included). The single path every invocation takes.
 */
export async function invokeTool(spec: ToolSpec<never>, input: unknown, ctx: ToolContext): Promise<ToolResult> {
  validateInput(spec, input);
  checkAvailability(spec, ctx);
  if (ctx.token.isCancellationRequested) {
    throw new ToolError(`${spec.name} was cancelled before it started.`);
  }
  let result: ToolResult;
  try {
    result = await (spec as unknown as ToolSpec<unknown>).run(input, ctx);
  } catch (error) {
    if (!(error instanceof ToolError) || ctx.settings.redactSecrets === false) {
      throw error;
    }
    const redacted = await redactSecrets(error.message);
    throw redacted.redactions.length ? new ToolError(redacted.text, redacted.redactions) : error;
  }
  return budgetResult(await redactResult(result, ctx), ctx.settings.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS);
}
