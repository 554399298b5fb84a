// workspace_diagnostics: the problems VS Code's language services report, newest-touched files
// first, one line each, within a budget; files the guard would not let the model read are left out
// and counted.
import { throwIfCancelled, ToolError } from '../../errors';
import { guardPath } from '../../guard/pathGuard';
import { byPlace, formatDiagnostic, passesSeverity, type SeverityFilter } from '../../language/diagnostics';
import { displayPath, isInside, locationKey, type Location } from '../../location';
import type { ReportedDiagnostic } from '../../ports/language';
import { counted } from '../../text/format';
import { defineTool, textResult, type Tool } from '../toolSpec';
import { readableFiles, requireLanguage } from './languageTarget';

export interface DiagnosticsInput {
  path?: string;
  severity?: SeverityFilter;
  wait?: number;
}

/** The most problems one answer lists; the rest are counted. */
export const MAX_DIAGNOSTICS = 200;
const DEFAULT_WAIT_SECONDS = 2;
const MAX_WAIT_SECONDS = 60;

export const diagnosticsTool: Tool = defineTool<DiagnosticsInput>({
  name: 'workspace_diagnostics',
  displayName: 'Problems',
  toolReferenceName: 'workspaceDiagnostics',
  icon: '$(warning)',
  access: 'read',
  userDescription: 'List the problems (errors, warnings) VS Code\'s language services report in the workspace.',
  modelDescription: [
    'The problems VS Code knows (the Problems panel): type errors, lint findings, invalid JSON and the like, from every installed language extension, without running a build.',
    'path: optional file or folder, workspace-relative; default the whole workspace. A file is opened in an editor tab (a preview, without focus) so its language service checks it. severity: "error" (default), "warning" (errors and warnings) or "all". wait: seconds to let language servers settle before answering, from 0 to 60, default 2.',
    'Output: one line per problem, "path:line:col severity source(code): message", files touched most recently first, at most 200 lines, then a count of what was left out. Many language servers (TypeScript among them) only check files open in an editor: name a file as path to have it checked, or run the build with workspace_run_command for the whole project.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'A file or folder, workspace-relative. Default: the whole workspace.' },
      severity: { type: 'string', enum: ['error', 'warning', 'all'], description: 'The least severe problems to list: "error" (default), "warning" or "all".' },
      wait: { type: 'number', description: 'Seconds to let language servers settle first, from 0 to 60. Default 2.' },
    },
    additionalProperties: false,
  },
  bounds: { wait: { min: 0, max: MAX_WAIT_SECONDS } },
  invocationMessage: (input) => `Listing problems${input.path ? ` in ${input.path}` : ''}`,

  async run(input, ctx) {
    const language = requireLanguage(ctx, 'workspace_diagnostics');
    const severity = input.severity ?? 'error';
    let scope: Location[] = [];
    let where = 'the workspace';
    let fileScope: Location | undefined;
    if (input.path !== undefined && input.path.trim() !== '') {
      const target = await guardPath(input.path, 'read', ctx);
      where = displayPath(target.literal, ctx.workspace);
      if (!target.stat) {
        throw new ToolError(`Not found: ${where}. Check the path with workspace_glob.`);
      }
      scope = [target.literal, target.resolved];
      if (target.stat.kind === 'file') {
        fileScope = target.resolved;
        await language.open(target.resolved, true);
      }
    }
    const waitMs = (input.wait ?? DEFAULT_WAIT_SECONDS) * 1000;
    if (waitMs > 0) {
      // A file just opened gets its first report after its language service looked at it.
      await language.settleDiagnostics(fileScope ? [fileScope] : [], waitMs, ctx.call.token, fileScope ? () => language.diagnostics().some((d) => locationKey(d.location) === locationKey(fileScope)) : undefined);
    }
    throwIfCancelled(ctx.call.token);
    const inScope = (location: Location): boolean => scope.length === 0 || scope.some((root) => isInside(location, root));
    const byFile = new Map<string, { location: Location; problems: ReportedDiagnostic[] }>();
    for (const diagnostic of language.diagnostics()) {
      if (!passesSeverity(diagnostic, severity) || !inScope(diagnostic.location)) {
        continue;
      }
      const key = locationKey(diagnostic.location);
      const entry = byFile.get(key) ?? { location: diagnostic.location, problems: [] };
      entry.problems.push(diagnostic);
      byFile.set(key, entry);
    }
    const { allowed, refused } = await readableFiles([...byFile.values()].map((entry) => entry.location), ctx);
    const files: { shown: string; mtime: number; problems: ReportedDiagnostic[] }[] = [];
    let refusedProblems = 0;
    for (const [key, entry] of byFile) {
      const shown = allowed.get(key);
      if (shown === undefined) {
        refusedProblems += refused.has(key) ? entry.problems.length : 0;
        continue;
      }
      const stat = await ctx.host.fs.stat(entry.location);
      files.push({ shown, mtime: stat?.mtime ?? 0, problems: entry.problems.sort(byPlace) });
    }
    files.sort((a, b) => b.mtime - a.mtime || (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
    const all = files.flatMap((file) => file.problems.map((problem) => formatDiagnostic(problem, file.shown)));
    const notes: string[] = [];
    if (all.length > MAX_DIAGNOSTICS) {
      notes.push(`[${all.length - MAX_DIAGNOSTICS} more problems not shown; pass a path to narrow the list]`);
    }
    if (refusedProblems > 0) {
      notes.push(`[${counted(refusedProblems, 'problem')} in ${counted(refused.size, 'file')} the workspace guard does not let you read ${refusedProblems === 1 ? 'was' : 'were'} left out]`);
    }
    const kinds = severity === 'error' ? 'errors' : severity === 'warning' ? 'errors or warnings' : 'problems';
    if (all.length === 0) {
      const head = `No ${kinds} reported in ${where}. Language servers that only check open files (TypeScript among them) have not looked at files no editor opened: pass a file as path, or run the build.`;
      return textResult([head, ...notes].join('\n'), notes.length ? notes.join('\n') : undefined);
    }
    const summary = `${all.length} ${all.length === 1 ? 'problem' : 'problems'} in ${files.length} ${files.length === 1 ? 'file' : 'files'}.`;
    return textResult([...all.slice(0, MAX_DIAGNOSTICS), ...notes, summary].join('\n'), notes.length ? notes.join('\n') : undefined);
  },
});
