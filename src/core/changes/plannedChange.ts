// The files of a plan, built the same way by every writing tool: new content carries its bytes in
// the file's encoding, and a guard warning on the target makes the user review the file.
import type { GuardVerdict } from '../decisions';
import type { WriteTarget } from '../guard/writeGuard';
import { warningText } from '../guard/writeGuard';
import type { FileBaseline, PlannedContent, PlannedFileChange } from '../ports/changes';
import { encodeText, type TextEncodingName } from '../text/encoding';

export function plannedContent(text: string, encoding: TextEncodingName): PlannedContent {
  return { text, bytes: encodeText(text, encoding), encoding };
}

/** The guard warnings of targets, in order: the review shows them and a rejection names the first. */
export function targetWarnings(...targets: readonly (WriteTarget | undefined)[]): GuardVerdict[] {
  return targets.flatMap((target) => (target?.warning ? [target.warning] : []));
}

/** Why a file must be reviewed whatever auto-approve says: the warnings' sentences, or undefined. */
export function alwaysAskFor(warnings: readonly (GuardVerdict | undefined)[]): string | undefined {
  return warnings.filter((warning): warning is GuardVerdict => warning !== undefined).map(warningText).join(' ') || undefined;
}

/** A new file, in UTF-8. */
export function planCreate(target: WriteTarget, text: string): PlannedFileChange {
  return { kind: 'create', location: target.resolved, shownPath: target.shown, after: plannedContent(text, 'utf8'), alwaysAsk: alwaysAskFor([target.warning]) };
}

/** New text for an existing file, kept in the file's encoding. */
export function planModify(target: WriteTarget, before: FileBaseline, text: string): PlannedFileChange {
  return { kind: 'modify', location: target.resolved, shownPath: target.shown, before, after: plannedContent(text, before.encoding), alwaysAsk: alwaysAskFor([target.warning]) };
}
