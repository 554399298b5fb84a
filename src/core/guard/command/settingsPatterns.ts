// The user's runCommand.allow and runCommand.deny patterns: what they match against and how.
import { programName } from './judgement';
import type { ShellWord } from './shell/words';

/** The text settings patterns are matched against: program name by basename, then the arguments. */
export function normalisedLine(words: readonly ShellWord[]): string {
  return [programName(words[0]), ...words.slice(1).map((word) => (word.literal ? word.text : word.source))].join(' ');
}

/** A `/regex/flags` entry tests the line; any other entry is a prefix of whole words. */
export function matchesPattern(pattern: string, line: string): boolean {
  const regex = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  if (regex) {
    try {
      return new RegExp(regex[1], regex[2]).test(line);
    } catch {
      return false;
    }
  }
  const prefix = pattern.trim().split(/\s+/).filter(Boolean);
  const words = line.split(' ');
  return prefix.length > 0 && prefix.every((part, index) => words[index] === part);
}
