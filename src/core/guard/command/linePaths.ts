// The folders a command line may be in as it runs (`cd` tracked through the walk, so `(cd x); cat y`
// is judged both ways) and the paths its words name, judged from each of them: literal paths, globs
// and braces on every file they can name, git's start folders on the repository git would use.
import { strictest, type Judgement } from '../../decisions';
import { findRepository, type FoundRepository } from './gitRepository';
import { expandPathWord, joinRaw } from './globs';
import type { CommandPolicyOptions } from './policyOptions';
import type { ShellWord } from './shell/words';

/** Targets any redirection or read may use: they are not files. */
export const HARMLESS_DEVICES: ReadonlySet<string> = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/stdin', '/dev/tty', '/dev/zero']);

/** More `cd`s than this in one line and the directory is no longer tracked: the line asks. */
const MAX_TRACKED_DIRECTORIES = 16;

export type PathAccess = 'read' | 'write';

export class LinePaths {
  /** Every folder the line may be in at this point of the walk. */
  private directories: string[];
  /** A `cd` went somewhere only known when it runs (or too many places): relative paths ask. */
  private directoriesUnknown = false;

  /** The host is Windows (its folders are drive paths, `C:/work`): the line runs in Git Bash, whose programs take Windows paths too. */
  private readonly windowsHost: boolean;

  constructor(private readonly options: CommandPolicyOptions) {
    this.directories = [options.cwd];
    this.windowsHost = !options.cwd.startsWith('/') || /^\/[A-Za-z]:/.test(options.cwd);
  }

  /** Judges a `cd` to the word (undefined: `cd` alone, the home folder) and adds where it leads to the folders the line may be in. */
  async changeDirectory(word: ShellWord | undefined): Promise<Judgement> {
    const target = word ?? { text: '~', source: '~', literal: true, expands: false, prefix: '~' };
    if (!target.literal || target.expands || target.text === '-') {
      this.directoriesUnknown = true;
      return { decision: 'ask', reason: `cd ${target.source} goes to a folder only known when it runs` };
    }
    const where = await this.judgePath(target, 'read');
    const next = new Set(this.directories);
    for (const directory of this.directories) {
      next.add(this.resolve(directory, target.text));
    }
    this.directories = [...next];
    if (this.directories.length > MAX_TRACKED_DIRECTORIES) {
      this.directoriesUnknown = true;
    }
    return where.decision === 'allow' ? { decision: 'allow', reason: 'changes to a folder inside the workspace' } : where;
  }

  /** The first of the words that names a folder (or may, being expanded by the shell); undefined when none does. */
  async firstFolder(words: readonly ShellWord[]): Promise<ShellWord | undefined> {
    for (const word of words) {
      if (word.pipe) {
        continue;
      }
      if (!word.literal || word.expands || this.directoriesUnknown) {
        return word;
      }
      for (const directory of this.directories) {
        if ((await this.options.listDirectory(this.resolve(directory, word.text))) !== undefined) {
          return word;
        }
      }
    }
    return undefined;
  }

  async judgePaths(words: readonly ShellWord[], access: PathAccess): Promise<Judgement> {
    const judgements: Judgement[] = [];
    for (const word of words) {
      judgements.push(await this.judgePath(word, access));
    }
    return strictest(judgements, { decision: 'allow', reason: 'no paths' });
  }

  /**
   * The words as paths written: the guard's judgement of each, and whether every file they can name
   * (a glob's every match, from every folder the line may be in) is inside a workspace folder.
   */
  async judgeWrites(words: readonly ShellWord[]): Promise<{ judgement: Judgement; inWorkspace: boolean }> {
    const judgement = await this.judgePaths(words, 'write');
    if (judgement.decision !== 'allow') {
      return { judgement, inWorkspace: false };
    }
    for (const word of words) {
      if (!(await this.writesInWorkspace(word))) {
        return { judgement, inWorkspace: false };
      }
    }
    return { judgement, inWorkspace: words.length > 0 };
  }

  private async writesInWorkspace(word: ShellWord): Promise<boolean> {
    const inWorkspace = this.options.workspaceWrite;
    if (!inWorkspace || word.pipe || !word.literal || this.directoriesUnknown || HARMLESS_DEVICES.has(word.text) || word.text.startsWith('/dev/')) {
      return false;
    }
    for (const directory of this.directories) {
      if (word.expands) {
        const expansion = await expandPathWord(word.text, directory, this.options.home, this.options.listDirectory, undefined, this.options.ignoreCaseInGlobs);
        if (!expansion.ok || expansion.matches.length === 0) {
          return false;
        }
        for (const match of expansion.matches) {
          if (!(await inWorkspace(match.absolute))) {
            return false;
          }
        }
      } else if (!(await inWorkspace(this.resolve(directory, word.text)))) {
        return false;
      }
    }
    return true;
  }

  async judgePath(word: ShellWord, access: PathAccess): Promise<Judgement> {
    if (word.pipe) {
      return { decision: 'allow', reason: `${word.source} is a pipe from commands judged on their own` };
    }
    if (!word.literal) {
      return { decision: 'ask', reason: `the path ${word.source} is only known when it runs` };
    }
    const windowsProblem = this.windowsHost ? windowsPathProblem(word.text) : undefined;
    if (windowsProblem !== undefined) {
      return { decision: 'ask', reason: windowsProblem };
    }
    if (this.directoriesUnknown && !word.text.startsWith('/') && !word.text.startsWith('~')) {
      return { decision: 'ask', reason: `after the cd the folder of ${word.text} is not known` };
    }
    const judgements: Judgement[] = [];
    for (const directory of this.directories) {
      judgements.push(word.expands ? await this.judgePattern(word.text, directory, access) : await this.judgeOne(word.text, this.resolve(directory, word.text), access));
    }
    return strictest(judgements, { decision: 'allow', reason: 'inside the workspace' });
  }

  /**
   * Every folder git may start in (each folder the line may be in, then its -C folders) must lead
   * git to a workspace folder's own plain `.git`, or to no repository at all (gitRepository.ts).
   */
  async gitRepositories(folders: readonly ShellWord[]): Promise<{ judgement: Judgement; repositories: FoundRepository[] }> {
    const where = await this.judgePaths(folders, 'read');
    if (where.decision !== 'allow') {
      return { judgement: where, repositories: [] };
    }
    if (this.directoriesUnknown || folders.some((folder) => folder.expands)) {
      return { judgement: { decision: 'ask', reason: 'git starts in a folder that is not known' }, repositories: [] };
    }
    const repositories: FoundRepository[] = [];
    for (const directory of this.directories) {
      const start = folders.reduce((current, folder) => this.resolve(current, folder.text), directory);
      const found = await findRepository(start, this.options.repositories);
      if (found.kind === 'other') {
        return { judgement: { decision: 'ask', reason: found.reason }, repositories: [] };
      }
      repositories.push(found);
    }
    const own = repositories.some((repository) => repository.kind === 'own');
    return { judgement: { decision: 'allow', reason: own ? "in the workspace folder's own repository" : 'outside any repository' }, repositories };
  }

  private async judgeOne(text: string, absolute: string, access: PathAccess): Promise<Judgement> {
    if (HARMLESS_DEVICES.has(text) || /^\/dev\/fd\/\d+$/.test(text)) {
      return { decision: 'allow', reason: `${text} is not a file` };
    }
    return this.options.judgePath(absolute, access);
  }

  /** A glob or brace word: every word it can become in `directory` is judged, and none may look like an option. */
  private async judgePattern(text: string, directory: string, access: PathAccess): Promise<Judgement> {
    const expansion = await expandPathWord(text, directory, this.options.home, this.options.listDirectory, undefined, this.options.ignoreCaseInGlobs);
    if (!expansion.ok) {
      return { decision: 'ask', reason: expansion.reason };
    }
    const option = expansion.matches.find((match) => match.word.startsWith('-'));
    if (option) {
      return { decision: 'ask', reason: `${text} can become ${option.word}, which the program would read as an option` };
    }
    const judgements: Judgement[] = [];
    for (const match of expansion.matches) {
      const judgement = await this.judgeOne(match.word, match.absolute, access);
      judgements.push(judgement.decision === 'allow' ? judgement : { ...judgement, reason: `${text} can name ${match.word}: ${judgement.reason}` });
    }
    return strictest(judgements, { decision: 'allow', reason: 'inside the workspace' });
  }

  /** The absolute path of a word from `directory`, `..` left for the path judge to resolve on the disk. */
  private resolve(directory: string, target: string): string {
    if (target === '~' || target.startsWith('~/')) {
      return joinRaw(this.options.home, target.slice(2));
    }
    return joinRaw(directory, target);
  }
}

/**
 * Why a word bash names a path with is not judged on a Windows host, or undefined: Git Bash's
 * programs take a drive path (`C:/x`, `C:\x`, `C:x`) and a backslash as Windows does, where the
 * policy would read a name in the folder the line runs in (`.vscode\settings.json`).
 */
export function windowsPathProblem(text: string): string | undefined {
  if (/^[A-Za-z]:/.test(text)) {
    return `${text} is a Windows drive path, which this policy does not judge yet: use a path relative to the workspace`;
  }
  if (text.includes('\\')) {
    return `${text} has a backslash, which Windows programs read as a folder separator and this policy does not judge yet: use / between folders`;
  }
  return undefined;
}
