import { minimatch } from 'minimatch';
import { containingFolder, displayPath, type Location, type WorkspaceFolder } from '../location';
import type { ChangePlan } from '../ports/changes';

/**
 * Whether the `workspaceAgentTools.autoApprove` globs let every file of a plan through without a
 * diff: each path (and move destination) must match a glob set to true and none set to false, and
 * no guard rule may have warned about any file. The globs name workspace-relative paths only: a
 * file that is (or, through a link, really lies) outside every workspace folder is always reviewed,
 * whatever `**` or an absolute glob would match.
 */
export function isAutoApproved(plan: ChangePlan, globs: Readonly<Record<string, unknown>>, folders: readonly WorkspaceFolder[]): boolean {
  const entries = Object.entries(globs).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean');
  if (entries.length === 0) {
    return false;
  }
  const allowed = (shownPath: string): boolean => {
    const matching = entries.filter(([glob]) => minimatch(shownPath, glob, { dot: true }));
    return matching.length > 0 && matching.every(([, value]) => value);
  };
  // The file really written, named relative to its folder; and the path the model named.
  const inWorkspace = (location: Location, shown: string | undefined): boolean =>
    shown !== undefined && containingFolder(location, folders) !== undefined && allowed(displayPath(location, { folders })) && allowed(shown);
  return plan.files.every((file) => !file.alwaysAsk && inWorkspace(file.location, file.shownPath) && (file.moveTo === undefined || inWorkspace(file.moveTo, file.shownMoveTo)));
}
