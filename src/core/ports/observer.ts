// The observer port: what happens inside a call, for the activity log.
import type { GuardVerdict } from '../decisions';
import type { ChangePlan } from './changes';

/** Hears what happens inside a call. */
export interface CallObserver {
  /** A guard verdict was reached for a path (allow verdicts of plain paths included). */
  onGuardVerdict(verdict: GuardVerdict, subject: string): void;
  /** A change was planned and is about to be reviewed (or auto-approved). */
  onChangePlanned(plan: ChangePlan): void;
  /** A command created or changed execution config (paths workspace-relative): its record says so. */
  onExecutionConfigChanged(changes: readonly { readonly path: string; readonly change: 'created' | 'changed' }[]): void;
}
