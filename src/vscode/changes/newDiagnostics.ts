// Errors the language services report in the changed files after a write that were not there
// before it, for the model to fix in its next step.
import * as vscode from 'vscode';
import type { ChangePlan } from '../../core/ports/changes';
import { openDocument } from '../host/documents';
import { toUri } from '../host/uris';

const DIAGNOSTICS_WAIT_MS = 2000;

/** The errors of each file the plan leaves, by URI, before the write. */
export function errorKeys(plan: ChangePlan): Map<string, Set<string>> {
  const keys = new Map<string, Set<string>>();
  for (const file of plan.files) {
    const uri = toUri(file.moveTo ?? file.location);
    keys.set(uri.toString(), new Set(errorsOf(uri).map(diagnosticKey)));
  }
  return keys;
}

/** Waits briefly for the language services to look at the changed files, then lists errors that are new. */
export async function newErrors(plan: ChangePlan, before: Map<string, Set<string>>): Promise<string[]> {
  const uris = plan.files.filter((file) => file.kind !== 'delete').map((file) => toUri(file.moveTo ?? file.location));
  // Plain text has no language service to wait for.
  const analysed = uris.some((uri) => (openDocument(uri)?.languageId ?? 'plaintext') !== 'plaintext');
  const hasNewErrors = (): boolean =>
    uris.some((uri) => {
      const known = before.get(uri.toString()) ?? new Set<string>();
      return errorsOf(uri).some((diagnostic) => !known.has(diagnosticKey(diagnostic)));
    });
  // The first diagnostics event after the write may still describe the old text, so wait until new
  // errors show up or the deadline passes; a clean edit of code costs the full (short) wait.
  await new Promise<void>((resolve) => {
    if (!analysed || hasNewErrors()) {
      resolve();
      return;
    }
    const timer = setTimeout(done, DIAGNOSTICS_WAIT_MS);
    const listener = vscode.languages.onDidChangeDiagnostics((event) => {
      if (event.uris.some((uri) => uris.some((wanted) => wanted.toString() === uri.toString())) && hasNewErrors()) {
        done();
      }
    });
    function done(): void {
      clearTimeout(timer);
      listener.dispose();
      resolve();
    }
  });
  const notes: string[] = [];
  for (const file of plan.files) {
    if (file.kind === 'delete') {
      continue;
    }
    const uri = toUri(file.moveTo ?? file.location);
    const known = before.get(uri.toString()) ?? new Set<string>();
    const fresh = errorsOf(uri).filter((diagnostic) => !known.has(diagnosticKey(diagnostic)));
    if (fresh.length > 0) {
      const lines = fresh.slice(0, 10).map((diagnostic) => `  line ${diagnostic.range.start.line + 1}: ${diagnostic.message}${diagnostic.source ? ` (${diagnostic.source})` : ''}`);
      const more = fresh.length > 10 ? [`  [${fresh.length - 10} more]`] : [];
      notes.push(`New errors reported in ${file.shownMoveTo ?? file.shownPath} after the edit:`, ...lines, ...more);
    }
  }
  return notes;
}

function errorsOf(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.severity === vscode.DiagnosticSeverity.Error);
}

function diagnosticKey(diagnostic: vscode.Diagnostic): string {
  return `${diagnostic.source ?? ''}|${String(typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code ?? '')}|${diagnostic.message}`;
}
