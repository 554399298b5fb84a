import type { ToolContext } from '../ports';
import type { Redaction } from '../secrets/redactSecrets';

/** The subset of JSON Schema the tool inputs use; the manifest copies it verbatim. */
export interface JsonSchema {
  type?: 'object' | 'string' | 'integer' | 'number' | 'boolean' | 'array';
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  default?: unknown;
}

/** What a tool may do, which decides whether trust and plan mode let it run. */
export type ToolAccess = 'read' | 'write' | 'command';

/** One part of a tool's answer to the model. */
export type ToolResultPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'image'; readonly mimeType: string; readonly data: Uint8Array };

export interface ToolResult {
  readonly parts: readonly ToolResultPart[];
  /** Secrets replaced by markers before the model saw the result. */
  readonly redactions?: readonly Redaction[];
}

/** A tool: how the manifest describes it to VS Code and the model, and what it does. */
export interface ToolSpec<Input = Record<string, unknown>> {
  readonly name: string;
  readonly displayName: string;
  readonly toolReferenceName: string;
  readonly userDescription: string;
  readonly modelDescription: string;
  /** A codicon reference such as `$(file)`. */
  readonly icon: string;
  readonly access: ToolAccess;
  readonly inputSchema: JsonSchema;
  /** A short present-tense line shown while the tool runs, e.g. "Reading src/a.ts". */
  invocationMessage(input: Input): string;
  /** The manifest's `when` clause: a context expression under which the tool is offered to chat. */
  readonly when?: string;
  /**
   * The confirmation chat shows before the call, or undefined to run without asking. Only tools
   * that ask per call (run_command) have it; VS Code shows it when a chat invocation token exists.
   */
  confirmation?(input: Input, ctx: ToolContext): Promise<ToolConfirmation | undefined>;
  run(input: Input, ctx: ToolContext): Promise<ToolResult>;
}

/** What chat's confirmation shows: a title and a Markdown message. */
export interface ToolConfirmation {
  readonly title: string;
  readonly message: string;
}

export function textResult(text: string): ToolResult {
  return { parts: [{ kind: 'text', text }] };
}
