// What a tool answers the model: text and image parts, and the secrets redacted from them. Shared
// vocabulary: the tools produce it, the ports that hand a finished call's answer back carry it.
import type { Redaction } from './secrets/redactSecrets';

/** One part of a tool's answer to the model. */
export type ToolResultPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'image'; readonly mimeType: string; readonly data: Uint8Array };

export interface ToolResult {
  readonly parts: readonly ToolResultPart[];
  /** Secrets replaced by markers before the model saw the result. */
  readonly redactions?: readonly Redaction[];
  /**
   * When the result leaves something out: the note, as the text writes it (`[Showing lines 1-2000
   * of 5000. Use offset=2001 to read more.]`), that tells the model how to get the rest. invokeTool
   * puts it first as well, so it survives a client that keeps only the start of a long result.
   */
  readonly continuation?: string;
}
