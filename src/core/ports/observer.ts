// The observer port: what happens inside a call, for the activity log.
import type { GuardVerdict } from '../decisions';
import type { ChangePlan } from './changes';

/** A staged command's change that was held for the person's review, not merged (sandbox/staging.ts). */
export interface HeldChangeRecord {
  /** Workspace-relative, as changedPaths. */
  readonly path: string;
  readonly status: 'A' | 'M' | 'D';
  readonly why: string;
  /** Where it is kept: a host path in the command's upper layer. */
  readonly keptAt: string;
  /** What the person did from its review: absent while it waits. */
  readonly state?: 'merged' | 'discarded';
}

/** Hears what happens inside a call. */
export interface CallObserver {
  /** A guard verdict was reached for a path (allow verdicts of plain paths included). */
  onGuardVerdict(verdict: GuardVerdict, subject: string): void;
  /** A change was planned and is about to be reviewed (or auto-approved). */
  onChangePlanned(plan: ChangePlan): void;
  /** A command created or changed execution config (paths workspace-relative): its record says so. */
  onExecutionConfigChanged(changes: readonly { readonly path: string; readonly change: 'created' | 'changed' }[]): void;
  /** A staged command's changes that were held, not merged (paths workspace-relative): its record lists them for review. */
  onHeldChanges?(held: readonly HeldChangeRecord[]): void;
  /** A command ran without its question because its changes were staged for review (runCommand.askAfterStaged): its record says so. */
  onAskedAfter?(title: string): void;
}
