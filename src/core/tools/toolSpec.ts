// What a tool is: its description for the manifest and the model, its input schema, and what it
// does. A tool file writes a ToolSpec<Input> and hands it to defineTool, which checks every input
// against the schema before the typed functions see it; the rest of the code handles the Tool.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { ToolContext } from '../context';
import { ToolError } from '../errors';
import type { ToolResult } from '../result';

/** The subset of JSON Schema the tool inputs use; the manifest copies it verbatim. */
export interface JsonSchema {
  type?: 'object' | 'string' | 'integer' | 'number' | 'boolean' | 'array';
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  enum?: readonly string[];
  default?: unknown;
}

/**
 * The range a number field accepts. Kept out of the JSON schema: some clients strip `minimum` and
 * `maximum` before the model sees the schema but still validate against them, so the model would be
 * refused for a rule it was never shown. The field's description states the range instead, and
 * defineTool enforces it with an error that names the field.
 */
export interface NumberBounds {
  readonly min?: number;
  readonly max?: number;
}

/** What a tool may do, which decides whether trust and plan mode let it run. */
export type ToolAccess = 'read' | 'write' | 'command';

/** True when a call of the tool changes nothing: MCP's readOnlyHint. */
export function isReadOnly(tool: Pick<ToolDescription, 'access' | 'readOnly'>): boolean {
  return tool.readOnly ?? tool.access === 'read';
}

export type { ToolResult, ToolResultPart } from '../result';

/** What chat's confirmation shows: a title and a Markdown message. */
export interface ToolConfirmation {
  readonly title: string;
  readonly message: string;
  /** runCommand.allow entries that would stop such questions (see ApprovalRequest.allowRules): chat's confirmation links to saving them. */
  readonly allowRules?: readonly string[];
}

/** How the manifest describes a tool to VS Code and the model. */
export interface ToolDescription {
  readonly name: string;
  readonly displayName: string;
  readonly toolReferenceName: string;
  readonly userDescription: string;
  readonly modelDescription: string;
  /** A codicon reference such as `$(file)`. */
  readonly icon: string;
  readonly access: ToolAccess;
  /**
   * Whether a call leaves everything as it was (no file written, no process started or ended), as
   * MCP's readOnlyHint says it; by default, true for `access: 'read'`. workspace_stop_command is
   * allowed where reads are, but ends processes.
   */
  readonly readOnly?: boolean;
  readonly inputSchema: JsonSchema;
  /** The manifest's `when` clause: a context expression under which the tool is offered to chat. */
  readonly when?: string;
}

/** A tool as its file writes it: the description and the functions, typed by the tool's input. */
export interface ToolSpec<Input> extends ToolDescription {
  /** The ranges of number fields, by field name (see NumberBounds). */
  readonly bounds?: Readonly<Record<string, NumberBounds>>;
  /** A short present-tense line shown while the tool runs, e.g. "Reading src/a.ts". */
  invocationMessage(input: Input): string;
  /**
   * The confirmation chat shows before the call, or undefined to run without asking. Only tools
   * that ask per call (run_command) have it; VS Code shows it when a chat invocation token exists.
   */
  confirmation?(input: Input, ctx: ToolContext): Promise<ToolConfirmation | undefined>;
  run(input: Input, ctx: ToolContext): Promise<ToolResult>;
}

/** One call whose input passed the schema. */
export interface PreparedCall {
  readonly invocationMessage: string;
  /**
   * Top-level fields of the input the tool does not take, left out before the schema check: some
   * clients add their own (Gemini CLI's `wait_for_previous`). The result names them.
   */
  readonly ignoredFields: readonly string[];
  /** Chat's confirmation for this call; undefined when the tool runs without asking. */
  confirmation(ctx: ToolContext): Promise<ToolConfirmation | undefined>;
  run(ctx: ToolContext): Promise<ToolResult>;
}

/** A tool as registration, the palette, the manifest and invokeTool handle it, whatever its input type. */
export interface Tool extends ToolDescription {
  /** True when the tool asks chat to confirm some calls (see ToolSpec.confirmation). */
  readonly confirms: boolean;
  /** The ranges of number fields, enforced by prepare (see NumberBounds). */
  readonly bounds: Readonly<Record<string, NumberBounds>>;
  /** Checks the input against the schema; throws a ToolError naming every problem and the accepted fields. */
  prepare(input: unknown): PreparedCall;
}

const ajv = new Ajv({ allErrors: true, strict: false });

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

/** The words of a range: "from 0 to 20", "at least 1", "at most 9". */
export function describeBounds(bounds: NumberBounds): string {
  if (bounds.min !== undefined && bounds.max !== undefined) {
    return `from ${bounds.min} to ${bounds.max}`;
  }
  return bounds.min !== undefined ? `at least ${bounds.min}` : `at most ${bounds.max}`;
}

/** Problems with number fields outside their bounds, worded like the schema problems. */
function boundsProblems(input: unknown, bounds: Readonly<Record<string, NumberBounds>>): string[] {
  const values = input as Record<string, unknown>;
  return Object.entries(bounds).flatMap(([field, range]) => {
    const value = values[field];
    if (typeof value !== 'number' || ((range.min === undefined || value >= range.min) && (range.max === undefined || value <= range.max))) {
      return [];
    }
    return [`${field} must be ${describeBounds(range)} (got ${value})`];
  });
}

/**
 * The input without the top-level fields the schema does not name, and those fields. Only the top
 * level: a client adds its own fields there, while an unknown field inside a value (an edit of an
 * `edits` list) is the model's mistake and is refused with the rest.
 */
export function withoutUnknownFields(input: unknown, schema: JsonSchema): { input: unknown; ignored: string[] } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { input, ignored: [] };
  }
  const known = new Set(Object.keys(schema.properties ?? {}));
  const ignored = Object.keys(input).filter((field) => !known.has(field));
  if (ignored.length === 0) {
    return { input, ignored };
  }
  return { input: Object.fromEntries(Object.entries(input).filter(([field]) => known.has(field))), ignored };
}

/**
 * Makes a Tool of a spec. Wrong types, missing fields and numbers out of range are refused; a
 * top-level field the tool does not take is left out and named in the result (invoke.ts).
 */
export function defineTool<Input>(spec: ToolSpec<Input>): Tool {
  const { invocationMessage, confirmation, run, bounds, ...description } = spec;
  let validate: ValidateFunction<Input> | undefined;
  const check = (input: unknown): Input => {
    validate ??= ajv.compile<Input>(spec.inputSchema);
    const problems = validate(input) ? boundsProblems(input, bounds ?? {}) : (validate.errors ?? []).map(describeSchemaError);
    if (problems.length > 0) {
      const fields = Object.keys(spec.inputSchema.properties ?? {}).join(', ');
      throw new ToolError(`Invalid input for ${spec.name}: ${problems.join('; ')}. Accepted fields: ${fields}.`);
    }
    return input as Input;
  };
  return {
    ...description,
    confirms: confirmation !== undefined,
    bounds: bounds ?? {},
    prepare(input) {
      const known = withoutUnknownFields(input, spec.inputSchema);
      const checked = check(known.input);
      return {
        invocationMessage: invocationMessage(checked),
        ignoredFields: known.ignored,
        confirmation: async (ctx) => confirmation?.(checked, ctx),
        run: (ctx) => run(checked, ctx),
      };
    },
  };
}

/** A result of one text; `continuation` when the text ends with a note on how to get what it left out. */
export function textResult(text: string, continuation?: string): ToolResult {
  return continuation === undefined ? { parts: [{ kind: 'text', text }] } : { parts: [{ kind: 'text', text }], continuation };
}
