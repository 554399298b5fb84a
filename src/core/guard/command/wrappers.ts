// Wrappers run another command: their own options are skipped (or refused where they change how
// the wrapped command runs) and the wrapped command is judged from the start, settings included.
import type { Judgement } from '../../decisions';
import { allow, ask, unpredictable, type InvocationJudge } from './judgement';
import type { ShellWord } from './shell/words';

export type WrapperJudge = (args: readonly ShellWord[], judge: InvocationJudge) => Promise<Judgement>;

/**
 * Skips a wrapper's own options and judges what it runs. `valued` are options that take the next
 * word; `leading` says how many plain words (such as timeout's duration) come before the command.
 */
function wrapperOf(name: string, valued: readonly string[], leading = 0, refused: readonly string[] = []): WrapperJudge {
  return async (args, judge) => {
    let index = 0;
    while (index < args.length && args[index].text.startsWith('-') && args[index].text !== '-') {
      const option = args[index].text;
      if (option === '--') {
        index += 1;
        break;
      }
      if (refused.some((flag) => option === flag || option.startsWith(`${flag}=`))) {
        return ask(`${name} ${option} changes how the wrapped command runs`);
      }
      index += valued.includes(option) ? 2 : 1;
    }
    index += leading;
    const wrapped = args.slice(index);
    const hidden = unpredictable(args.slice(0, index + 1));
    if (hidden) {
      return ask(`${name} gets ${hidden.source}, which is only known when it runs`);
    }
    if (wrapped.length === 0) {
      return name === 'env' ? allow('env only prints the environment') : ask(`${name} is used without a command`);
    }
    return judge.wrapped(wrapped);
  };
}

export const WRAPPERS: Record<string, WrapperJudge> = {
  env: async (args, judge) => {
    const assignment = args.find((word) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(word.text));
    if (assignment) {
      return ask(`env sets ${assignment.text.split('=')[0]} for the command, which can change what it runs`);
    }
    return wrapperOf('env', ['-u', '--unset'], 0, ['-S', '--split-string', '-C', '--chdir', '-P'])(args, judge);
  },
  command: async (args, judge) => {
    if (args.some((word) => word.text === '-v' || word.text === '-V')) {
      return allow('command -v only looks a command up');
    }
    return wrapperOf('command', [])(args, judge);
  },
  nice: wrapperOf('nice', ['-n', '--adjustment']),
  timeout: wrapperOf('timeout', ['-s', '--signal', '-k', '--kill-after'], 1),
  time: wrapperOf('time', ['-f', '--format', '-o', '--output'], 0, ['-o', '--output', '-a', '--append']),
  nohup: wrapperOf('nohup', []),
  stdbuf: wrapperOf('stdbuf', ['-i', '-o', '-e']),
  ionice: wrapperOf('ionice', ['-c', '-n', '-p', '-P', '-u'], 0, ['-p', '-P', '-u']),
};
