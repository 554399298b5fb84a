// Errors the language services report in the changed files after a write that were not there
// before it, for the model to fix in its next step. The diagnostics are read and written as
// workspace_diagnostics reads and writes them (host/languageFeatures.ts, core/language/diagnostics.ts).
import { diagnosticKey, newErrorsNote } from '../../core/language/diagnostics';
import { NEVER_CANCELLED } from '../../core/errors';
import { openDocument } from '../host/documents';
import { diagnosticsOf, VsCodeLanguageFeatures } from '../host/languageFeatures';
import type { WriteTarget } from './writeTargets';

const DIAGNOSTICS_WAIT_MS = 2000;
const language = new VsCodeLanguageFeatures();

/** The errors of each file the plan leaves, by URI, before the write. */
export function errorKeys(targets: readonly WriteTarget[]): Map<string, Set<string>> {
  const keys = new Map<string, Set<string>>();
  for (const target of targets) {
    const uri = target.moveTo ?? target.uri;
    keys.set(uri.toString(), new Set(diagnosticsOf(uri).filter((diagnostic) => diagnostic.severity === 'error').map(diagnosticKey)));
  }
  return keys;
}

/** Waits briefly for the language services to look at the changed files, then lists errors that are new. */
export async function newErrors(targets: readonly WriteTarget[], before: Map<string, Set<string>>): Promise<string[]> {
  const written = targets.filter((target) => target.file.kind !== 'delete');
  const uris = written.map((target) => target.moveTo ?? target.uri);
  // Plain text has no language service to wait for. The documents are looked up again on purpose:
  // the write opened the ones it edited, which the targets (resolved before it) do not hold.
  const analysed = uris.some((uri) => (openDocument(uri)?.languageId ?? 'plaintext') !== 'plaintext');
  const notesNow = (): string[] =>
    written.flatMap(({ file }, index) => newErrorsNote(file.shownMoveTo ?? file.shownPath, before.get(uris[index].toString()) ?? new Set<string>(), diagnosticsOf(uris[index])));
  // The first diagnostics event after the write may still describe the old text, so wait until new
  // errors show up or the deadline passes; a clean edit of code costs the full (short) wait.
  if (analysed && notesNow().length === 0) {
    await language.settleDiagnostics(written.map(({ file }) => file.moveTo ?? file.location), DIAGNOSTICS_WAIT_MS, NEVER_CANCELLED, () => notesNow().length > 0);
  }
  return notesNow();
}
