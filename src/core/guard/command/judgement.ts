// The vocabulary every rule set of the command policy shares: what a rule may ask of the policy,
// the two verdict helpers, and how arguments are read (program name, positional words, option values).
import * as path from 'node:path';
import type { Judgement } from '../../decisions';
import type { ShellWord } from './shell/words';

/** What the rules need from the policy: path checks, `cd`, and judging a wrapped command. */
export interface InvocationJudge {
  /** Judges the words as paths the command reads (relative to every directory the line may be in). */
  readPaths(words: readonly ShellWord[]): Promise<Judgement>;
  /** Judges a `cd` to the word (undefined: `cd` alone, the home folder) and records the new directory. */
  changeDirectory(word: ShellWord | undefined): Promise<Judgement>;
  /** Judges the command a wrapper (env, timeout, nice, time, command...) runs, settings included. */
  wrapped(words: readonly ShellWord[]): Promise<Judgement>;
}

export const allow = (reason: string): Judgement => ({ decision: 'allow', reason });
export const ask = (reason: string): Judgement => ({ decision: 'ask', reason });

/** The program's name for rules: quote-removed, by basename, so `/bin/rm` and `r''m` are rm. */
export function programName(word: ShellWord): string {
  return path.posix.basename(word.text) || word.text;
}

export function positional(words: readonly ShellWord[]): ShellWord[] {
  const result: ShellWord[] = [];
  let afterDashes = false;
  for (const word of words) {
    if (!afterDashes && word.text === '--') {
      afterDashes = true;
    } else if (afterDashes || !word.text.startsWith('-') || word.text === '-') {
      result.push(word);
    }
  }
  return result;
}

/**
 * Paths hidden inside options: `--file=/etc/shadow`, `--files0-from=list`, `-f~/.ssh/key`. Values
 * that look like paths (a slash, a leading dot or tilde) are judged like positional paths.
 */
export function optionValuePaths(words: readonly ShellWord[]): ShellWord[] {
  const result: ShellWord[] = [];
  for (const word of words) {
    const value = /^--[^=]+=(.*)$/s.exec(word.text)?.[1] ?? /^-[A-Za-z](.+)$/s.exec(word.text)?.[1];
    if (value !== undefined && /^[.~]|\//.test(value)) {
      result.push({ ...word, text: value });
    }
  }
  return result;
}

/** Arguments that can turn into other arguments at run time, which flag checks cannot see. */
export function unpredictable(args: readonly ShellWord[]): ShellWord | undefined {
  return args.find((word) => !word.literal || word.expands);
}

