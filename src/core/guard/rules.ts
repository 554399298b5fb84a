import * as path from 'node:path';
import { stricter, type GuardDecision, type GuardVerdict } from '../decisions';
import { fileLocation, isInsidePath, pathKey } from '../location';
import type { EntryKind } from '../ports/fileSystem';
import type { RiskLevel } from '../settings';
import { isExecutionConfigPath, isGitDirectoryConfig, isHomeExecutionConfig, isSecretFile, matchesAnyForm, sensitiveLocalPaths } from './protectedNames';

// The secret and execution-config names live in protectedNames.ts (one table for the guard and the
// sandbox); re-exported for the callers that always took them from here.
export { isExecutionConfigPath, isSecretFile, sensitiveLocalPaths };

/** What a call does to a path: read it, write it (create, modify, delete, move), or apply a patch. */
export type GuardAccess = 'read' | 'write' | 'patch';

/** Everything the rule table looks at. Paths are absolute and normalised. */
export interface GuardFacts {
  readonly access: GuardAccess;
  /** Absolute POSIX path of the target (for a patch: any one of its files, or empty). */
  readonly path: string;
  /** True when the path is inside an allowed root for this access. */
  readonly insideWorkspace: boolean;
  /** The user's home directory on the extension host's machine (others are found by their shape: homesOf). */
  readonly home: string;
  /** For a patch: how many files it deletes. */
  readonly deleteCount?: number;
  /** How reasons name the path, when that differs from `path` (a symlink's target, another scheme). */
  readonly shown?: string;
  /** What is there once links are followed; undefined when nothing is (a file about to be created). */
  readonly kind?: EntryKind;
  /** True when the entry itself is a symbolic link. */
  readonly isSymlink?: boolean;
  /** How many names a regular file has (hard links), where the file system reports it. */
  readonly linkCount?: number;
  /** For a link inside the workspace whose target is outside: the target. */
  readonly escapesTo?: string;
  /** The path as the workspace shows it, for reasons about the entry itself. */
  readonly display?: string;
  /** For a write: the git directory found by its contents (HEAD, objects, refs) above the path, whatever its name. */
  readonly gitDirectory?: string;
  /** For a write: the protected entry (`.vscode`, `~/.bashrc`) that is a symbolic link leading to the path or a folder holding it. */
  readonly linkedFrom?: string;
  /** Inside the extension's own private folders (the MCP endpoint's lock files, extensions' storage), the command logs apart. */
  readonly privateFolder?: boolean;
}

interface GuardRule {
  readonly id: string;
  readonly appliesTo: readonly GuardAccess[];
  readonly levels: Readonly<Record<RiskLevel, GuardDecision>>;
  matches(facts: GuardFacts): boolean;
  reason(facts: GuardFacts): string;
  readonly suggestion: string;
}

const SYSTEM_READ_ROOTS = ['/proc', '/sys', '/dev'];
const SYSTEM_WRITE_ROOTS = ['/etc', '/usr', '/boot', '/sbin', '/bin', '/lib', '/proc', '/sys', '/dev'];

function components(p: string): string[] {
  return p.split('/').filter(Boolean);
}

/**
 * Names are compared by their keys, in every form a path may take (protectedNames.ts pathForms):
 * on a volume that ignores case or normalises names (macOS, Windows, exFAT) `.ENV`, `.git./config`,
 * `GIT~1/config`, `.env::$DATA` and `/private/etc` are the same files as `.env`, `.git/config` and
 * `/etc`, and matching more names is the safe direction everywhere.
 */
function folded(p: string): string {
  return pathKey(p).replace(/^\/private(?=\/(?:var|tmp|etc)(?:\/|$))/, '');
}

/** True when the path, in any of its forms, is one of the roots or inside one. */
function insideAnyRoot(p: string, roots: readonly string[]): boolean {
  return matchesAnyForm(p, (form) => roots.some((root) => isInsidePath(form, root)));
}

/** Home folders by their shape, in lower case: `/root`, macOS's `/var/root`, `/home/<user>`, `/Users/<user>`, Windows' `/C:/Users/<user>`. */
const HOME_SHAPES = [/^\/(?:var\/)?root(?=\/|$)/, /^(?:\/[a-z]:)?\/(?:home|users)\/[^/]+/];

/**
 * The home folders a path may be in, lower case: the extension host's, and any folder shaped like a
 * home. A remote or virtual folder's home is not the extension host's, and another user's home holds
 * keys too, so every scheme's paths are judged against both. The host's home is its own path
 * (`D:\profiles\ann` on Windows), compared as a location's path (`/D:/profiles/ann`) like the target.
 */
function homesOf(target: string, home: string): string[] {
  const shaped = HOME_SHAPES.map((shape) => shape.exec(target)?.[0]).filter((found): found is string => found !== undefined);
  return [folded(fileLocation(home).path), ...shaped];
}

function isSensitiveForRead(facts: GuardFacts): boolean {
  if (isSecretFile(facts.path) || facts.privateFolder === true) {
    return true;
  }
  return matchesAnyForm(facts.path, (target) => homesOf(target, facts.home).some((home) => sensitiveLocalPaths(home).some((entry) => isInsidePath(target, folded(entry)))));
}

function isSensitiveForWrite(facts: GuardFacts): boolean {
  return isSensitiveForRead(facts) || matchesAnyForm(facts.path, (target) => homesOf(target, facts.home).some((home) => isHomeExecutionConfig(facts.path, home)));
}

const ALL: Record<RiskLevel, GuardDecision> = { low: 'deny', medium: 'deny', high: 'deny' };

/** The rule table of docs/design.md section 3, in order of evaluation. */
export const GUARD_RULES: readonly GuardRule[] = [
  {
    id: 'file.system_path_read',
    appliesTo: ['read'],
    levels: ALL,
    matches: (f) => insideAnyRoot(f.path, SYSTEM_READ_ROOTS),
    reason: (f) => `${f.shown ?? f.path} is a kernel or device path; reading it can hang or return endless data.`,
    suggestion: 'Read files inside the workspace instead.',
  },
  {
    id: 'file.sensitive_path_read',
    appliesTo: ['read'],
    levels: { low: 'deny', medium: 'deny', high: 'warn' },
    matches: isSensitiveForRead,
    reason: (f) => `${f.shown ?? f.path} holds credentials or secrets (keys, passwords, tokens) that must not reach the model.`,
    suggestion: 'Ask the user for the specific non-secret value you need, or read a template such as .env.example.',
  },
  {
    id: 'file.outside_workspace_read',
    appliesTo: ['read'],
    levels: { low: 'deny', medium: 'warn', high: 'allow' },
    matches: (f) => !f.insideWorkspace,
    reason: (f) => `${f.shown ?? f.path} is outside the workspace folders.`,
    suggestion: 'Work with files inside the workspace, or ask the user to add the folder to workspaceAgentTools.allowedReadPaths.',
  },
  {
    id: 'file.non_regular_file',
    appliesTo: ['read', 'write'],
    levels: ALL,
    matches: (f) => f.kind === 'other',
    reason: (f) =>
      `${f.display ?? f.shown ?? f.path} is ${f.isSymlink ? 'a symlink that leads nowhere (broken, or a loop)' : 'not a regular file (a device, FIFO or socket); opening it could block or stream forever'}.`,
    suggestion: 'Only regular files can be read or written; pick another path.',
  },
  {
    id: 'file.system_path_write',
    appliesTo: ['write'],
    levels: ALL,
    matches: (f) => insideAnyRoot(f.path, SYSTEM_WRITE_ROOTS),
    reason: (f) => `${f.shown ?? f.path} is a system path; changing it can break the machine.`,
    suggestion: 'Write files inside the workspace instead.',
  },
  {
    id: 'file.sensitive_path_write',
    appliesTo: ['write'],
    levels: ALL,
    matches: isSensitiveForWrite,
    reason: (f) => `${f.shown ?? f.path} holds credentials, or runs programs outside any sandbox (at login, at shell start, whenever git runs, or from PATH); an agent must not change it.`,
    suggestion: 'Tell the user what to change and let them do it.',
  },
  {
    id: 'file.outside_workspace_write',
    appliesTo: ['write'],
    levels: { low: 'deny', medium: 'warn', high: 'allow' },
    matches: (f) => !f.insideWorkspace,
    reason: (f) => `${f.shown ?? f.path} is outside the workspace folders.`,
    suggestion: 'Write inside the workspace, or ask the user to add the folder to workspaceAgentTools.allowedWritePaths.',
  },
  {
    id: 'file.symlink_escape_write',
    appliesTo: ['write'],
    levels: { low: 'deny', medium: 'deny', high: 'warn' },
    matches: (f) => f.escapesTo !== undefined,
    reason: (f) =>
      `${f.display ?? f.shown ?? f.path} is a symbolic link (or lies under one) that leads outside the workspace, to ${f.escapesTo ?? '?'}; writing through it would change a file outside the workspace.`,
    suggestion: 'Write to a real file inside the workspace, or ask the user to change the link.',
  },
  {
    id: 'file.hard_link_write',
    appliesTo: ['write'],
    levels: { low: 'deny', medium: 'warn', high: 'warn' },
    matches: (f) => f.kind === 'file' && (f.linkCount ?? 1) > 1,
    reason: (f) =>
      `${f.display ?? f.shown ?? f.path} has ${f.linkCount ?? 0} hard links, so writing it would also change the same file under its other names, which may be outside the workspace.`,
    suggestion: 'Ask the user to replace the hard link with a copy first.',
  },
  {
    id: 'file.protected_file_overwrite',
    appliesTo: ['write'],
    levels: { low: 'deny', medium: 'deny', high: 'warn' },
    matches: (f) => matchesAnyForm(f.path, (form) => components(form).includes('.git')),
    reason: (f) => `${f.shown ?? f.path} is inside a .git folder; writing there can corrupt the repository.`,
    suggestion: 'Use git commands through workspace_run_command instead of editing .git directly.',
  },
  {
    id: 'file.execution_config_write',
    appliesTo: ['write'],
    levels: { low: 'warn', medium: 'warn', high: 'warn' },
    matches: (f) => isExecutionConfigPath(f.path) || (f.gitDirectory !== undefined && isGitDirectoryConfig(path.posix.relative(f.gitDirectory, f.path))) || f.linkedFrom !== undefined,
    reason: (f) => (f.linkedFrom !== undefined && !isExecutionConfigPath(f.path)
      ? `${f.shown ?? f.path} is reached through ${f.linkedFrom}, a symbolic link that VS Code, git or a shell obeys, so changing it can run code or widen what the agent may do.`
      : `${f.shown ?? f.path} configures tasks, settings, extensions, hooks or git, so changing it can run code or widen what the agent may do.`),
    suggestion: 'Explain to the user why the change is needed.',
  },
  {
    id: 'file.apply_patch_delete_many',
    appliesTo: ['patch'],
    levels: { low: 'deny', medium: 'warn', high: 'warn' },
    matches: (f) => (f.deleteCount ?? 0) >= 5,
    reason: (f) => `The patch deletes ${f.deleteCount ?? 0} files.`,
    suggestion: 'Delete fewer files per patch, or explain to the user why so many must go.',
  },
];

/** The strictest verdict of every rule that applies. A pure function of the facts and the level. */
export function evaluateGuard(facts: GuardFacts, level: RiskLevel): GuardVerdict {
  let verdict: GuardVerdict = { decision: 'allow', reason: 'No rule applies.', suggestion: '' };
  for (const rule of GUARD_RULES) {
    if (!rule.appliesTo.includes(facts.access) || !rule.matches(facts)) {
      continue;
    }
    verdict = stricter(verdict, { decision: rule.levels[level], rule: rule.id, reason: rule.reason(facts), suggestion: rule.suggestion });
  }
  return verdict;
}

/** The sentence a denied call fails with. */
export function denialMessage(verdict: GuardVerdict, declinedByUser = false): string {
  const who = declinedByUser ? ' The user declined when asked.' : '';
  return `Denied by ${verdict.rule ?? 'guard'}: ${verdict.reason}${who} Suggestion: ${verdict.suggestion}`;
}
