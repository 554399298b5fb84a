// The approval port: every question the tools put to the user goes through one queue.
import type { CancellationSignal } from '../errors';

/** A question for the user; the answer decides whether the tool goes on. */
export interface ApprovalRequest {
  /** Why approval is needed: a guard warning, a file change, a command, a restore, or a domain a sandboxed command wants to reach. */
  readonly kind: 'guard' | 'change' | 'command' | 'restore' | 'network';
  /** One line naming the tool and the subject. */
  readonly title: string;
  /** The reason, with the rule id where a guard rule asked. */
  readonly detail: string;
  /** The guard rule that asked, for kind 'guard'. */
  readonly rule?: string;
  /** The path the question is about, as the user sees it. */
  readonly path?: string;
  /** The client whose call asks, when it must be named ("Claude Code wants to ..."): MCP clients; none for chat. */
  readonly caller?: string;
  /**
   * runCommand.allow entries that would let this command run without asking from now on: the
   * question then also offers "Always Allow", which shows them before saving them to user settings.
   */
  readonly allowRules?: readonly string[];
  /**
   * Domains for runCommand.allowedDomains, for a network question: it then offers "Always Allow",
   * which shows them before saving them to user settings, and answers 'accept'.
   */
  readonly allowDomains?: readonly string[];
  /**
   * Loopback ports for runCommand.allowedLocalPorts, for a network question about a port on this
   * machine: "Always Allow" then shows them before saving them to user settings.
   */
  readonly allowLocalPorts?: readonly number[];
}

/** A question with a third answer besides yes and no, such as "Run Outside the Sandbox". */
export interface ChoiceRequest extends ApprovalRequest {
  /** The third answer's label. */
  readonly alternative: string;
}

/** What the user answered a ChoiceRequest. */
export type ApprovalAnswer = 'accept' | 'alternative' | 'reject';

/** Asks the user and answers true when the user allowed it. */
export interface Approver {
  /** Resolves to true on approval, false on refusal or cancellation. */
  confirm(request: ApprovalRequest, token: CancellationSignal): Promise<boolean>;
  /** Asks with three answers; cancellation answers 'reject'. */
  choose(request: ChoiceRequest, token: CancellationSignal): Promise<ApprovalAnswer>;
}
