// The vocabulary every rule set of the command policy shares: what a rule may ask of the policy,
// the two verdict helpers, the program's name and the check of operands that must stay one word.
import * as path from 'node:path';
import type { Judgement } from '../../decisions';
import type { FoundRepository } from './gitRepository';
import type { ShellWord } from './shell/words';

/** Text to put into the command line at a position of the original (JS string offsets). */
export interface TextInsertion {
  readonly at: number;
  readonly text: string;
}

/** What the rules need from the policy: path checks, `cd`, and judging a wrapped command. */
export interface InvocationJudge {
  /** Judges the words as paths the command reads (relative to every directory the line may be in). */
  readPaths(words: readonly ShellWord[]): Promise<Judgement>;
  /**
   * Judges the words as paths the command writes (relative to every directory the line may be in),
   * and whether every file they name is a plain name inside a workspace folder (PolicyOptions.workspaceWrite).
   */
  writePaths(words: readonly ShellWord[]): Promise<{ readonly judgement: Judgement; readonly inWorkspace: boolean }>;
  /** Judges a `cd` to the word (undefined: `cd` alone, the home folder) and records the new directory. */
  changeDirectory(word: ShellWord | undefined): Promise<Judgement>;
  /** Judges the command a wrapper (env, timeout, nice, time, command...) runs, settings included. */
  wrapped(words: readonly ShellWord[]): Promise<Judgement>;
  /**
   * Judges the folders git starts in: every folder the line may be in, each followed by the `-C`
   * folders (judged as reads). git must use a workspace folder's own `.git` from each, or none.
   */
  gitRepositories(directories: readonly ShellWord[]): Promise<{ readonly judgement: Judgement; readonly repositories: readonly FoundRepository[] }>;
  /**
   * Puts text into the command line that runs, if the line runs without asking (git's safety
   * options). A judgement when the text cannot be placed with certainty: the command then asks.
   */
  rewrite(insertions: readonly TextInsertion[]): Judgement | undefined;
  /** The first of the words that names a folder (or may, being expanded by the shell); undefined when none does. */
  firstFolder(words: readonly ShellWord[]): Promise<ShellWord | undefined>;
}

export const allow = (reason: string): Judgement => ({ decision: 'allow', reason });
export const ask = (reason: string): Judgement => ({ decision: 'ask', reason });

/** The program's name for rules: quote-removed, by basename, so `/bin/rm` and `r''m` are rm. */
export function programName(word: ShellWord): string {
  return path.posix.basename(word.text) || word.text;
}

/** Inert operands may be known only at run time, but a glob or brace would turn them into file names. */
export function inertOperands(name: string, operands: readonly ShellWord[]): string | undefined {
  const expanding = operands.find((word) => word.expands);
  return expanding ? `${name} gets ${expanding.source}, which the shell expands into file names or more words` : undefined;
}
