import { minimatch } from 'minimatch';
import type { ChangePlan } from '../ports/changes';

/**
 * Whether the `workspaceAgentTools.autoApprove` globs let every file of a plan through without a
 * diff: each path (and move destination) must match a glob set to true and none set to false, and
 * no guard rule may have warned about any file.
 */
export function isAutoApproved(plan: ChangePlan, globs: Readonly<Record<string, unknown>>): boolean {
  const entries = Object.entries(globs).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean');
  if (entries.length === 0) {
    return false;
  }
  const allowed = (shownPath: string): boolean => {
    const matching = entries.filter(([glob]) => minimatch(shownPath, glob, { dot: true }));
    return matching.length > 0 && matching.every(([, value]) => value);
  };
  return plan.files.every((file) => !file.alwaysAsk && allowed(file.shownPath) && (file.shownMoveTo === undefined || allowed(file.shownMoveTo)));
}
