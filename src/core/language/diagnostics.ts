// The problems the language services report, as the model reads them: one line each,
// `path:line:col severity source(code): message`. The diagnostics tool and the "new errors" note
// after an edit both write them here, so the two never disagree.
import type { DiagnosticSeverity, ReportedDiagnostic } from '../ports/language';

/** The severities a `severity` input shows: `error` only errors, `warning` errors and warnings, `all` everything. */
export type SeverityFilter = 'error' | 'warning' | 'all';

const RANK: Record<DiagnosticSeverity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

export function passesSeverity(diagnostic: ReportedDiagnostic, filter: SeverityFilter): boolean {
  return filter === 'all' || RANK[diagnostic.severity] <= RANK[filter];
}

/** What identifies a problem across edits (its place moves when lines are added above it). */
export function diagnosticKey(diagnostic: ReportedDiagnostic): string {
  return `${diagnostic.source ?? ''}|${diagnostic.code ?? ''}|${diagnostic.message}`;
}

/** `source(code)`, `source`, `(code)` or nothing. */
function origin(diagnostic: ReportedDiagnostic): string {
  const code = diagnostic.code ? `(${diagnostic.code})` : '';
  const source = diagnostic.source ?? '';
  return source || code ? ` ${source}${code}` : '';
}

/** One line: `path:line:col severity source(code): message`, the message on one line. */
export function formatDiagnostic(diagnostic: ReportedDiagnostic, shownPath: string): string {
  const message = diagnostic.message.replace(/\s*\n\s*/g, ' ').trim();
  return `${shownPath}:${diagnostic.range.start.line + 1}:${diagnostic.range.start.character + 1} ${diagnostic.severity}${origin(diagnostic)}: ${message}`;
}

/** Orders a file's problems by place, errors first on the same line. */
export function byPlace(a: ReportedDiagnostic, b: ReportedDiagnostic): number {
  return a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character || RANK[a.severity] - RANK[b.severity];
}

/** How many new problems of one file the note after an edit lists before it counts the rest. */
export const NEW_ERRORS_SHOWN = 10;

/**
 * The note after an edit: the errors of a changed file that were not there before it (by key), in
 * the diagnostics tool's line form. Empty when there are none.
 */
export function newErrorsNote(shownPath: string, before: ReadonlySet<string>, now: readonly ReportedDiagnostic[]): string[] {
  const fresh = now.filter((diagnostic) => diagnostic.severity === 'error' && !before.has(diagnosticKey(diagnostic))).sort(byPlace);
  if (fresh.length === 0) {
    return [];
  }
  const lines = fresh.slice(0, NEW_ERRORS_SHOWN).map((diagnostic) => `  ${formatDiagnostic(diagnostic, shownPath)}`);
  const more = fresh.length > NEW_ERRORS_SHOWN ? [`  [${fresh.length - NEW_ERRORS_SHOWN} more; workspace_diagnostics lists them all]`] : [];
  return [`New errors reported in ${shownPath} after the edit:`, ...lines, ...more];
}
