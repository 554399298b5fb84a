// awk: read-only unless the program can run commands, redirect output, read other files, read
// the environment or load code. The program is tokenized (strings, regex literals and comments
// skipped), so `$1 > 3` or `NR>1` is a comparison while `print > "f"` is a redirection.
import type { Judgement } from '../../decisions';
import { allow, ask, inertOperands, type InvocationJudge } from './judgement';
import { optionValues, parseOptions, scriptsAndFiles } from './options';
import { AWK_TABLE } from './programSpecs';
import type { ShellWord } from './shell/words';

/** Names that run commands, read other input, reach the environment or change which files are read. */
const FORBIDDEN_NAMES: Readonly<Record<string, string>> = {
  system: 'runs a command',
  getline: 'reads from a file or a command',
  ENVIRON: 'reads the environment, which can hold secrets',
  ARGV: 'can change which files are read',
  ARGC: 'can change which files are read',
  PROCINFO: 'reaches gawk internals',
  SYMTAB: 'reaches any variable by name, ARGV included',
  FUNCTAB: 'calls functions by name',
};

/** Variables an assignment operand or -v must not set. */
const PROTECTED_VARIABLES = new Set(Object.keys(FORBIDDEN_NAMES).filter((name) => /^[A-Z]/.test(name)));

export async function judgeAwk(name: string, args: readonly ShellWord[], judge: InvocationJudge): Promise<Judgement> {
  const outcome = parseOptions(name, AWK_TABLE, args);
  if (!outcome.ok) {
    return outcome.judgement;
  }
  const parsed = outcome.parsed;
  const { scripts: programs, files: operands } = scriptsAndFiles(parsed, '-e', '--source');
  if (programs.length === 0) {
    return ask(`${name} has no program to check`);
  }
  const hidden = programs.find((word) => !word.literal);
  if (hidden) {
    return ask(`the ${name} program ${hidden.source} is only known when it runs`);
  }
  const expanding = inertOperands(name, programs);
  if (expanding) {
    return ask(expanding);
  }
  for (const program of programs) {
    const unsafe = unsafeAwkConstruct(program.text);
    if (unsafe) {
      return ask(`${name} program ${unsafe}`);
    }
  }
  const assignments = [...optionValues(parsed, '-v', '--assign'), ...operands.filter(isAssignment)];
  const protectedOne = assignments.find((word) => PROTECTED_VARIABLES.has(word.prefix.split('=')[0]) || !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word.prefix));
  if (protectedOne) {
    return ask(`${name} assignment ${protectedOne.source} sets a variable that changes what it reads, or is not understood`);
  }
  const files = operands.filter((word) => !isAssignment(word));
  if (files.length === 0) {
    return allow(`${name} only reads and prints`);
  }
  const verdict = await judge.readPaths(files);
  return verdict.decision === 'allow' ? allow(`${name} only reads and prints`) : verdict;
}

/** An operand `name=value` is an assignment awk makes between files, not a file. */
function isAssignment(word: ShellWord): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*=/.test(word.prefix);
}

interface Token {
  readonly kind: 'name' | 'number' | 'string' | 'regex' | 'operator' | 'newline';
  readonly text: string;
}

/** Splits an awk program into tokens; strings, regex literals and comments become single tokens or vanish. */
export function tokenizeAwk(program: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  const operandEnds = (): boolean => {
    const last = tokens[tokens.length - 1];
    return last !== undefined && (last.kind === 'name' || last.kind === 'number' || last.kind === 'string' || last.kind === 'regex' || [')', ']', '$', '++', '--'].includes(last.text));
  };
  while (index < program.length) {
    const char = program[index];
    if (char === '\\' && program[index + 1] === '\n') {
      index += 2;
    } else if (char === '\n') {
      tokens.push({ kind: 'newline', text: '\n' });
      index += 1;
    } else if (/\s/.test(char)) {
      index += 1;
    } else if (char === '#') {
      while (index < program.length && program[index] !== '\n') {
        index += 1;
      }
    } else if (char === '"' || (char === '/' && !operandEnds())) {
      const end = delimitedEnd(program, index, char);
      tokens.push({ kind: char === '"' ? 'string' : 'regex', text: program.slice(index, end) });
      index = end;
    } else if (/[A-Za-z_]/.test(char)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(program.slice(index))?.[0] ?? char;
      tokens.push({ kind: 'name', text: name });
      index += name.length;
    } else if (/[0-9.]/.test(char)) {
      const number = /^[0-9.]+([eE][-+]?[0-9]+)?/.exec(program.slice(index))?.[0] ?? char;
      tokens.push({ kind: 'number', text: number });
      index += number.length;
    } else {
      const operator = /^(\|\||&&|>>|>=|<=|==|!=|\+\+|--|\+=|-=|\*=|\/=|%=|\^=|\*\*=|\*\*|!~|\|&|.)/s.exec(program.slice(index))?.[0] ?? char;
      tokens.push({ kind: 'operator', text: operator });
      index += operator.length;
    }
  }
  return tokens;
}

/** The end (exclusive) of a string or regex literal opened at `start`; the end of the text when unclosed. */
function delimitedEnd(program: string, start: number, delimiter: string): number {
  let index = start + 1;
  while (index < program.length && program[index] !== delimiter) {
    index += program[index] === '\\' ? 2 : 1;
  }
  return Math.min(index + 1, program.length);
}

/** What in the program makes it more than a reader and printer, in words; undefined when nothing does. */
export function unsafeAwkConstruct(program: string): string | undefined {
  const tokens = tokenizeAwk(program);
  let printDepth: number | undefined;
  let depth = 0;
  for (const [index, token] of tokens.entries()) {
    const text = token.text;
    if (token.kind === 'name' && Object.prototype.hasOwnProperty.call(FORBIDDEN_NAMES, text)) {
      return `uses ${text}, which ${FORBIDDEN_NAMES[text]}`;
    }
    if (token.kind !== 'operator' && token.kind !== 'newline' && !(token.kind === 'name' && (text === 'print' || text === 'printf'))) {
      continue;
    }
    if (text === '@') {
      return 'uses @ (a directive or an indirect call), which can load code or call any function';
    }
    if (text === '|' || text === '|&') {
      return `uses ${text}, which runs a command`;
    }
    if (text === 'print' || text === 'printf') {
      printDepth = depth;
    } else if (text === '(' || text === '[') {
      depth += 1;
    } else if (text === ')' || text === ']') {
      depth -= 1;
    } else if (text === ';' || text === '}' || text === '{' || (text === '\n' && !continuesLine(tokens[index - 1]))) {
      printDepth = undefined;
    } else if ((text === '>' || text === '>>') && printDepth !== undefined && depth <= printDepth) {
      return `redirects print output with ${text}, which writes a file`;
    }
  }
  return undefined;
}

/** A newline after these does not end a statement. */
function continuesLine(previous: Token | undefined): boolean {
  return previous !== undefined && [',', '&&', '||', '{', 'do', 'else'].includes(previous.text);
}
