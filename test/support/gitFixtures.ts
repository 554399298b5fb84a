// Real git repositories for the unit and integration tests (command policy, checkpoints, nested
// repositories): made with the machine's git (2.39 in CI), with no system or user config, a fixed
// identity and no hooks of its own.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** git in `cwd`, without the machine's or the user's config; returns stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=fixture', '-c', 'user.email=fixture@example.invalid', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'protocol.file.allow=always', ...args], {
    cwd,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    encoding: 'utf8',
  });
}

export function write(file: string, text: string, mode?: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, mode === undefined ? undefined : { mode });
}

/** A repository in `folder` (made if missing) with `files` committed in one commit per entry of `commits`. */
export function repository(folder: string, commits: ReadonlyArray<Readonly<Record<string, string>>>): void {
  fs.mkdirSync(folder, { recursive: true });
  git(folder, 'init', '-q');
  commits.forEach((files, index) => {
    for (const [name, text] of Object.entries(files)) {
      write(path.join(folder, name), text);
    }
    git(folder, 'add', '-f', ...Object.keys(files));
    git(folder, 'commit', '-q', '-m', `commit ${index + 1}`);
  });
}

/**
 * A repository's `.git` in `folder` as `git init` lays it out, written by hand: for tests that need
 * only a repository's shape (the command policy reads it, never runs git), so they run where git does
 * not (Windows under wine).
 */
export function initLayout(folder: string): void {
  write(path.join(folder, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  write(path.join(folder, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n');
  write(path.join(folder, '.git', 'description'), 'Unnamed repository; edit this file \'description\' to name the repository.\n');
  write(path.join(folder, '.git', 'info', 'exclude'), '# git ls-files --others --exclude-from=.git/info/exclude\n');
  for (const sub of ['hooks', 'objects/info', 'objects/pack', 'refs/heads', 'refs/tags']) {
    fs.mkdirSync(path.join(folder, '.git', sub), { recursive: true });
  }
}

/** Appends lines to a repository's config file (as the user could have written them). */
export function appendConfig(gitDir: string, text: string): void {
  fs.appendFileSync(path.join(gitDir, 'config'), text);
}

/**
 * A folder laid out as a bare repository (HEAD, objects/, refs/) whose config gives it the parent
 * folder as work tree and names a program: git started in it would run that program.
 */
export function bareLookalike(folder: string, program: string): void {
  write(path.join(folder, 'HEAD'), 'ref: refs/heads/main\n');
  fs.mkdirSync(path.join(folder, 'objects'), { recursive: true });
  fs.mkdirSync(path.join(folder, 'refs', 'heads'), { recursive: true });
  write(path.join(folder, 'config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n\tfsmonitor = ${program}\n`);
}

/** Commits a copy of HEAD that carries a (fake) signature, so showing signatures runs gpg.program. */
export function signedHead(folder: string): string {
  const tree = git(folder, 'rev-parse', 'HEAD^{tree}').trim();
  const parent = git(folder, 'rev-parse', 'HEAD').trim();
  const body = `tree ${tree}\nparent ${parent}\nauthor f <f@e> 1 +0000\ncommitter f <f@e> 1 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQ==\n -----END PGP SIGNATURE-----\n\nsigned\n`;
  const object = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: folder, input: body, encoding: 'utf8' }).trim();
  git(folder, 'update-ref', 'HEAD', object);
  return object;
}
