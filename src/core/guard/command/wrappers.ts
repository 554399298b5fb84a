// Wrappers run another command: their own options are parsed with an exact table (an option that
// changes how the wrapped command runs asks, as does any option the table does not know) and the
// wrapped command is judged from the start, settings included. cd is here too: it is the other
// builtin whose one operand the policy follows.
import type { Judgement } from '../../decisions';
import { allow, ask, type InvocationJudge } from './judgement';
import { optionTable, parseOptions, type OptionTable } from './options';
import type { ShellWord } from './shell/words';

export type WrapperJudge = (args: readonly ShellWord[], judge: InvocationJudge) => Promise<Judgement>;

const HELP = 'help version';

/** Wrappers stop reading options at the first operand: the command's own options follow it. */
function table(short: string, long: string, asks: Readonly<Record<string, string>> = {}, numericOption?: RegExp): OptionTable {
  return optionTable(short, `${long} ${HELP}`, asks, { permute: false, numericOption });
}

/**
 * A wrapper with its option table; `leading` operands (timeout's duration) come before the
 * command. `alone` is the judgement when there is no command.
 */
function wrapperOf(name: string, options: OptionTable, leading: number, alone: Judgement): WrapperJudge {
  return async (args, judge) => {
    const outcome = parseOptions(name, options, args);
    if (!outcome.ok) {
      return outcome.judgement;
    }
    const operands = outcome.parsed.operands;
    const wrapped = operands.slice(leading);
    const hidden = operands.slice(0, leading + 1).find((word) => !word.literal || word.expands);
    if (hidden) {
      return ask(`${name} gets ${hidden.source}, which is only known when it runs`);
    }
    if (wrapped.length === 0) {
      return operands.length === 0 ? alone : ask(`${name} is used without a command`);
    }
    return judge.wrapped(wrapped);
  };
}

const CHANGES_HOW = 'changes how the wrapped command runs';
const ENV_TABLE = table('i0u:', 'ignore-environment null unset=');

export const WRAPPERS: Readonly<Record<string, WrapperJudge>> = {
  env: async (args, judge) => {
    const outcome = parseOptions('env', ENV_TABLE, args);
    if (!outcome.ok) {
      return outcome.judgement;
    }
    const assignment = outcome.parsed.operands.find((word) => /^[^=]*=/.test(word.prefix) || !word.literal);
    if (assignment) {
      return ask(`env ${assignment.source} sets a variable for the command (or is only known when it runs), which can change what it runs`);
    }
    return wrapperOf('env', ENV_TABLE, 0, allow('env only prints the environment'))(args, judge);
  },
  command: judgeCommandBuiltin,
  nice: wrapperOf('nice', table('n:', 'adjustment=', {}, /^-\d+$/), 0, allow('nice only prints the niceness')),
  timeout: wrapperOf('timeout', table('fk:ps:v', 'foreground kill-after= preserve-status signal= verbose'), 1, ask('timeout is used without a command')),
  time: wrapperOf('time', table('f:pqv', 'format= portability quiet verbose', { '-o': 'writes a file', '--output': 'writes a file', '-a': 'appends to a file', '--append': 'appends to a file' }), 0, allow('time alone only times nothing')),
  nohup: wrapperOf('nohup', table('', ''), 0, ask('nohup is used without a command')),
  stdbuf: wrapperOf('stdbuf', table('i:o:e:', 'input= output= error='), 0, ask('stdbuf is used without a command')),
  ionice: wrapperOf('ionice', table('c:n:t', 'class= classdata= ignore', { '-p': CHANGES_HOW, '-P': CHANGES_HOW, '-u': CHANGES_HOW, '--pid': CHANGES_HOW, '--pgid': CHANGES_HOW, '--uid': CHANGES_HOW }), 0, allow('ionice only prints the I/O class')),
};

/**
 * `command [-pvV] name [args]`: only a leading cluster of -v or -V makes it a lookup (then every
 * word is a name to look up); otherwise it runs the named command, which is judged.
 */
async function judgeCommandBuiltin(args: readonly ShellWord[], judge: InvocationJudge): Promise<Judgement> {
  let index = 0;
  let lookup = false;
  while (index < args.length && args[index].literal && !args[index].expands && /^-[pvV]+$/.test(args[index].text)) {
    lookup ||= /[vV]/.test(args[index].text);
    index += 1;
  }
  if (args[index]?.literal && args[index].text === '--') {
    index += 1;
  }
  if (lookup) {
    return allow('command -v only looks commands up');
  }
  const rest = args.slice(index);
  if (rest.length === 0) {
    return allow('command alone does nothing');
  }
  return judge.wrapped(rest);
}

const CD_TABLE = table('LPe@', '');

/** `cd [-L|-P [-e]] [-@] [--] [dir]`: the one folder is judged and tracked. */
export async function judgeCd(args: readonly ShellWord[], judge: InvocationJudge): Promise<Judgement> {
  const outcome = parseOptions('cd', CD_TABLE, args);
  if (!outcome.ok) {
    return outcome.judgement;
  }
  const operands = outcome.parsed.operands;
  const where = await judge.changeDirectory(operands[0]);
  return operands.length > 1 ? ask('cd with more than one folder is not understood') : where;
}
