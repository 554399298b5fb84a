// What every `git` the policy lets run without asking carries on its command line, so that no
// program a repository's or the user's configuration names can run, and no secret file's contents
// come out of git's objects. Each setting was checked with git 2.39: `-c` wins over every config
// file; the subcommand flags are only added where that subcommand accepts them (a flag it rejects
// would break the command).
import { secretFileGlobs } from '../protectedNames';

/**
 * Config forced with `-c` after the `git` word: no fsmonitor program, no hooks (a hook path that
 * cannot be a folder), no pager, signature programs that cannot be executed (git reports an error
 * and goes on), no signature display, no recursion into submodules (whose configs are not the
 * workspace's), no patch from `git stash show` by default, and every transport refused: git that
 * runs unasked never contacts a remote, and a lazy fetch (a partial clone's missing objects, which
 * runs the remote's uploadpack command) fails instead. `protocol.allow` alone would not do: a
 * `protocol.<name>.allow` in the user's config wins over it, so the transports git knows are named
 * one by one. `diff.external` is not forced: an empty value makes `git diff` fail ("cannot run");
 * `--no-ext-diff` turns it off instead.
 */
export const GIT_SAFETY_CONFIG: readonly string[] = [
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.pager=cat',
  'gpg.program=/dev/null/no-gpg',
  'gpg.openpgp.program=/dev/null/no-gpg',
  'gpg.x509.program=/dev/null/no-gpg',
  'gpg.ssh.program=/dev/null/no-gpg',
  'log.showSignature=false',
  'submodule.recurse=false',
  'status.submoduleSummary=false',
  'diff.ignoreSubmodules=all',
  'stash.showPatch=false',
  'stash.showIncludeUntracked=false',
  'protocol.allow=never',
  'protocol.file.allow=never',
  'protocol.ext.allow=never',
  'protocol.git.allow=never',
  'protocol.ssh.allow=never',
  'protocol.http.allow=never',
  'protocol.https.allow=never',
];

/**
 * The environment of a command line with git the policy lets run unasked: no lazy fetch of a
 * partial clone's missing objects (git 2.39.4 and later; the forced protocols stop it in older
 * ones). Only those lines get it: a command the user approved may need the fetch.
 */
export const GIT_SAFETY_ENVIRONMENT: Readonly<Record<string, string>> = { GIT_NO_LAZY_FETCH: '1' };

const DIFF_FLAGS = ['--no-ext-diff', '--no-textconv', '--ignore-submodules=all'];

/**
 * Flags added right after the subcommand (its last word: `stash show`, `reflog show`): external
 * diff programs and textconv filters off, submodules not entered. The keys are the subcommand as
 * the policy names it.
 */
export const GIT_SUBCOMMAND_FLAGS: Readonly<Record<string, readonly string[]>> = {
  diff: DIFF_FLAGS,
  log: DIFF_FLAGS,
  show: DIFF_FLAGS,
  whatchanged: DIFF_FLAGS,
  'diff-tree': DIFF_FLAGS,
  'diff-files': DIFF_FLAGS,
  'diff-index': DIFF_FLAGS,
  'range-diff': DIFF_FLAGS,
  'stash show': DIFF_FLAGS,
  'stash list': DIFF_FLAGS,
  reflog: DIFF_FLAGS,
  blame: ['--no-textconv'],
  annotate: ['--no-textconv'],
  grep: ['--no-textconv'],
  status: ['--ignore-submodules=all'],
};

/**
 * The secret file names of the guard's table (protectedNames.ts) as globs. Git's pathspecs cannot
 * leave out the `.env` templates (`.env.example`), so those are left out of git's output too.
 */
export const GIT_SECRET_FILE_GLOBS: readonly string[] = secretFileGlobs();

/**
 * Exclude pathspecs for the secret names, at any depth, from the top of the repository (pathspecs
 * are otherwise relative to the folder git runs in), in any case.
 */
export const GIT_SECRET_EXCLUDES: readonly string[] = GIT_SECRET_FILE_GLOBS.map((glob) => `:(top,exclude,glob,icase)**/${glob}`);

/**
 * Subcommands whose output can hold file contents from git's objects (history, the index, trees):
 * they get the secret excludes as pathspecs.
 */
export const GIT_CONTENT_SUBCOMMANDS: ReadonlySet<string> = new Set([
  'diff', 'log', 'show', 'whatchanged', 'diff-tree', 'diff-files', 'diff-index', 'range-diff', 'stash list', 'reflog', 'grep',
]);

/** `-c` settings that switch off the filter driver `name` (its clean, smudge and process commands). */
export function filterOffSettings(name: string): string[] {
  return [`filter.${name}.clean=`, `filter.${name}.smudge=`, `filter.${name}.process=`, `filter.${name}.required=false`];
}

/** A word for the shell: as is when it only has characters no shell treats specially, else single-quoted. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9._\/=:@%+,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The words inserted right after `git`: the forced config, the filter drivers switched off, no pager. */
export function gitGlobalInsertion(filterDrivers: readonly string[]): string {
  const settings = [...GIT_SAFETY_CONFIG, ...filterDrivers.flatMap(filterOffSettings)];
  return [...settings.flatMap((setting) => ['-c', shellQuote(setting)]), '--no-pager'].map((word) => ` ${word}`).join('');
}
