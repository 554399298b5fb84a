// awk: read-only unless the program can run commands, redirect output, read other files or load code.
import type { Judgement } from '../../decisions';
import { ask, positional } from './judgement';
import type { ShellWord } from './shell/words';

export function judgeAwk(name: string, args: readonly ShellWord[]): Judgement | undefined {
  for (const word of args) {
    const text = word.text;
    if (text === '-f' || text.startsWith('--file') || text === '-i' || text.startsWith('--include') || text === '-l' || text.startsWith('--load') || text === '-E' || text.startsWith('--exec')) {
      return ask(`${name} ${text} loads a program from a file, which cannot be checked`);
    }
  }
  // Programs can come as the first operand or through any number of -e/--source options, so every
  // argument is checked: a file name with these characters asks too, which is the safe side.
  for (const word of args) {
    const unsafe = /\bsystem\s*\(|\|&?|>|\bgetline\b|@load|\bENVIRON\b/.exec(word.text);
    if (unsafe) {
      return ask(`${name} program uses ${unsafe[0].trim()}, which can run commands or read and write files`);
    }
  }
  return positional(args).length === 0 ? ask(`${name} has no program to check`) : undefined;
}
