// Errors the language services report in the changed files after a write that were not there
// before it, for the model to fix in its next step. The diagnostics are read and written as
// workspace_diagnostics reads and writes them (host/languageFeatures.ts, core/language/diagnostics.ts).
import type { ChangePlan } from '../../core/ports/changes';
import { diagnosticKey, newErrorsNote } from '../../core/language/diagnostics';
import { NEVER_CANCELLED } from '../../core/errors';
import { openDocument } from '../host/documents';
import { diagnosticsOf, VsCodeLanguageFeatures } from '../host/languageFeatures';
import { toUri } from '../host/uris';

const DIAGNOSTICS_WAIT_MS = 2000;
const language = new VsCodeLanguageFeatures();

/** The errors of each file the plan leaves, by URI, before the write. */
export function errorKeys(plan: ChangePlan): Map<string, Set<string>> {
  const keys = new Map<string, Set<string>>();
  for (const file of plan.files) {
    const uri = toUri(file.moveTo ?? file.location);
    keys.set(uri.toString(), new Set(diagnosticsOf(uri).filter((diagnostic) => diagnostic.severity === 'error').map(diagnosticKey)));
  }
  return keys;
}

/** Waits briefly for the language services to look at the changed files, then lists errors that are new. */
export async function newErrors(plan: ChangePlan, before: Map<string, Set<string>>): Promise<string[]> {
  const written = plan.files.filter((file) => file.kind !== 'delete');
  const uris = written.map((file) => toUri(file.moveTo ?? file.location));
  // Plain text has no language service to wait for.
  const analysed = uris.some((uri) => (openDocument(uri)?.languageId ?? 'plaintext') !== 'plaintext');
  const notesNow = (): string[] =>
    written.flatMap((file, index) => newErrorsNote(file.shownMoveTo ?? file.shownPath, before.get(uris[index].toString()) ?? new Set<string>(), diagnosticsOf(uris[index])));
  // The first diagnostics event after the write may still describe the old text, so wait until new
  // errors show up or the deadline passes; a clean edit of code costs the full (short) wait.
  if (analysed && notesNow().length === 0) {
    await language.settleDiagnostics(written.map((file) => file.moveTo ?? file.location), DIAGNOSTICS_WAIT_MS, NEVER_CANCELLED, () => notesNow().length > 0);
  }
  return notesNow();
}
