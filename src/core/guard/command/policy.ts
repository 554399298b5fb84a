// Decides whether a command line runs at once, asks the user, or is refused. The line is parsed
// with tree-sitter's bash grammar and every simple command in it is judged: in lists, pipelines,
// subshells, functions, loops, $(...) and backticks anywhere, process substitution, arithmetic and
// heredocs. Redirection targets are judged as paths. What cannot be understood asks.
import * as path from 'node:path';
import { strictest, type CommandDecision, type Judgement } from '../../decisions';
import { oneLine } from '../../text/truncate';
import { programName, type InvocationJudge } from './judgement';
import { judgeInvocation } from './programs';
import { parseBash, type SyntaxNode } from './shell/bashParser';
import { shellWord, type ShellWord } from './shell/words';

/** The policy's answer for a whole command line. */
export interface CommandVerdict {
  readonly decision: CommandDecision;
  /** One line per sub-command or construct: what it is and why it was allowed, asks or is refused. */
  readonly reasons: readonly string[];
}

/** How a path a command touches fares under the guard's rule table. */
export type PathJudge = (absolutePath: string, access: 'read' | 'write') => Promise<Judgement>;

export interface CommandPolicyOptions {
  /** The absolute folder the command starts in. */
  readonly cwd: string;
  /** The home folder, for `~`. */
  readonly home: string;
  /** workspaceAgentTools.runCommand.allow: prefixes or /regex/ of commands that run without asking. */
  readonly allow: readonly string[];
  /** workspaceAgentTools.runCommand.deny: prefixes or /regex/ of commands that are refused. */
  readonly deny: readonly string[];
  /** The guard's verdict for a path (read for `<` and arguments of reading commands, write for `>`). */
  readonly judgePath: PathJudge;
}

/** Targets any redirection may use: they are not files. */
const HARMLESS_DEVICES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/stdin', '/dev/tty', '/dev/zero']);

/** Node types that only group or sequence other statements; walking into them is enough. */
const STRUCTURE = new Set([
  'program', 'list', 'pipeline', 'subshell', 'compound_statement', 'redirected_statement', 'if_statement',
  'elif_clause', 'else_clause', 'while_statement', 'for_statement', 'c_style_for_statement', 'do_group',
  'case_statement', 'case_item', 'negated_command', 'test_command', 'comment', 'word', 'string', 'raw_string',
  'string_content', 'concatenation', 'simple_expansion', 'expansion', 'command_substitution', 'process_substitution',
  'arithmetic_expansion', 'ansi_c_string', 'translated_string', 'number', 'variable_name', 'special_variable_name',
  'heredoc_redirect', 'herestring_redirect', 'heredoc_start', 'heredoc_body', 'heredoc_content', 'heredoc_end',
  'file_descriptor', 'binary_expression', 'unary_expression', 'parenthesized_expression', 'ternary_expression',
  'postfix_expression', 'test_operator', 'regex', 'extglob_pattern', 'brace_expression', 'subscript', 'command_name',
  'array', 'variable_assignments',
]);

/** Backticks re-read inside backticks up to this depth; deeper ones ask. */
const MAX_BACKTICK_DEPTH = 4;

/** More `cd`s than this in one line and the directory is no longer tracked: the line asks. */
const MAX_TRACKED_DIRECTORIES = 16;

class LineJudge {
  private readonly findings: Array<{ judgement: Judgement; subject: string }> = [];
  /** Every folder the line may be in at this point of the walk, so `(cd x); cat y` is judged both ways. */
  private directories: string[];
  private directoriesUnknown = false;
  private backtickDepth = 0;

  constructor(private readonly source: string, private readonly options: CommandPolicyOptions) {
    this.directories = [options.cwd];
  }

  verdict(): CommandVerdict {
    const worst = strictest(this.findings.map((finding) => finding.judgement), { decision: 'allow', reason: '' });
    const reasons = this.findings.map(({ judgement, subject }) => `${subject}: ${DECISION_WORDS[judgement.decision]} (${judgement.reason})`);
    return { decision: worst.decision, reasons: reasons.length ? reasons : ['no command to run: only tests or comments'] };
  }

  private note(subject: string, judgement: Judgement): void {
    this.findings.push({ subject: oneLine(subject, 120), judgement });
  }

  /**
   * Where the grammar splits words differently from bash, the parse cannot be trusted: a
   * backslash-newline inside a word (bash joins `-de\<newline>lete` into `-delete`, the grammar
   * sees two words) and carriage returns (bash treats them as word characters).
   */
  checkTokenization(): void {
    if (/\S\\\r?\n\S/.test(this.source)) {
      this.note(this.source, { decision: 'ask', reason: 'a backslash-newline joins parts of a word, which this policy does not read the way the shell does' });
    }
    if (this.source.includes('\r')) {
      this.note(this.source, { decision: 'ask', reason: 'the line contains a carriage return, which the shell treats as part of a word' });
    }
  }

  async walk(node: SyntaxNode): Promise<void> {
    if (node.type === 'ERROR' || node.isMissing) {
      this.note(node.text || this.source, { decision: 'ask', reason: 'the shell parser could not make sense of this part, so it cannot be checked' });
    }
    switch (node.type) {
      case 'command':
        await this.judgeCommand(node);
        break;
      case 'variable_assignment':
        if (node.parent?.type !== 'command') {
          this.note(node.text, { decision: 'ask', reason: 'sets a shell variable, which can change what later commands do' });
        }
        break;
      case 'declaration_command':
      case 'unset_command':
        this.note(node.text, { decision: 'ask', reason: 'declares, exports or unsets variables, which can change what later commands do' });
        break;
      case 'function_definition':
        this.note(node.text, { decision: 'ask', reason: 'defines a shell function, which can replace any command name' });
        break;
      case 'file_redirect':
        await this.judgeRedirect(node);
        break;
      case 'command_substitution':
        await this.rereadBackticks(node);
        break;
      default:
        if (!STRUCTURE.has(node.type) && node.type !== 'ERROR') {
          this.note(node.text, { decision: 'ask', reason: `uses the shell construct "${node.type}", which this policy does not check` });
        }
    }
    for (const child of node.namedChildren) {
      if (child) {
        await this.walk(child);
      }
    }
  }

  /**
   * Inside backticks the shell removes the backslash of \\, \` and \$ and parses the result again,
   * so `echo \`rm x\`` or `echo \$(rm x)` inside backticks run rm. The grammar keeps them escaped;
   * the unescaped text is parsed and judged as a command line of its own.
   */
  private async rereadBackticks(node: SyntaxNode): Promise<void> {
    const text = node.text;
    if (!text.startsWith('`') || !text.includes('\\')) {
      return;
    }
    if (this.backtickDepth >= MAX_BACKTICK_DEPTH) {
      this.note(text, { decision: 'ask', reason: 'backticks nested this deep are not checked' });
      return;
    }
    const inner = text.slice(1, text.endsWith('`') ? -1 : undefined).replace(/\\([\\`$])/g, '$1');
    const tree = await parseBash(inner);
    if (!tree) {
      this.note(text, { decision: 'ask', reason: 'the shell parser could not read the inside of the backticks' });
      return;
    }
    this.backtickDepth += 1;
    try {
      await this.walk(tree.rootNode);
    } finally {
      this.backtickDepth -= 1;
      tree.delete();
    }
  }

  private async judgeCommand(node: SyntaxNode): Promise<void> {
    const assignments = node.namedChildren.filter((child): child is SyntaxNode => child?.type === 'variable_assignment');
    const nameNode = node.childForFieldName('name');
    const argumentNodes = node.childrenForFieldName('argument').filter((child): child is SyntaxNode => child !== null);
    const subject = node.text;
    if (assignments.length > 0) {
      this.note(subject, { decision: 'ask', reason: `sets ${assignments.map((child) => child.childForFieldName('name')?.text ?? '?').join(', ')} for the command, which can change what it runs` });
    }
    const nameWordNode = nameNode?.namedChildren[0] ?? null;
    if (!nameWordNode) {
      return;
    }
    const words = [shellWord(nameWordNode), ...argumentNodes.map(shellWord)];
    if (!words[0].literal || words[0].expands) {
      this.note(subject, { decision: 'ask', reason: `the command name ${words[0].source} is only known when it runs` });
      return;
    }
    this.note(subject, await this.judgeWords(words));
  }

  /** Settings first (deny, then allow), then the built-in rules. Wrappers come back here. */
  private async judgeWords(words: readonly ShellWord[]): Promise<Judgement> {
    if (!words[0].literal || words[0].expands) {
      return { decision: 'ask', reason: `the command name ${words[0].source} is only known when it runs` };
    }
    const line = normalisedLine(words);
    const denied = this.options.deny.find((pattern) => matchesPattern(pattern, line));
    if (denied) {
      return { decision: 'deny', reason: `matches the deny pattern ${denied} of workspaceAgentTools.runCommand.deny` };
    }
    const allowed = this.options.allow.find((pattern) => matchesPattern(pattern, line));
    if (allowed) {
      return { decision: 'allow', reason: `matches ${allowed} of workspaceAgentTools.runCommand.allow` };
    }
    return judgeInvocation(words, this.invocationJudge());
  }

  private invocationJudge(): InvocationJudge {
    return {
      readPaths: (words) => this.judgePaths(words, 'read'),
      changeDirectory: (word) => this.changeDirectory(word),
      wrapped: (words) => this.judgeWords(words),
    };
  }

  private async judgePaths(words: readonly ShellWord[], access: 'read' | 'write'): Promise<Judgement> {
    const judgements: Judgement[] = [];
    for (const word of words) {
      judgements.push(await this.judgePath(word, access));
    }
    return strictest(judgements, { decision: 'allow', reason: 'no paths' });
  }

  private async judgePath(word: ShellWord, access: 'read' | 'write'): Promise<Judgement> {
    if (!word.literal) {
      return { decision: 'ask', reason: `the path ${word.source} is only known when it runs` };
    }
    if (word.expands && /(^|\/)\.[*?[]/.test(word.text)) {
      return { decision: 'ask', reason: `the pattern ${word.text} can match .. and reach outside the folder` };
    }
    if (this.directoriesUnknown && !word.text.startsWith('/') && !word.text.startsWith('~')) {
      return { decision: 'ask', reason: `after the cd the folder of ${word.text} is not known` };
    }
    if (HARMLESS_DEVICES.has(word.text) || /^\/dev\/fd\/\d+$/.test(word.text)) {
      return { decision: 'allow', reason: `${word.text} is not a file` };
    }
    const judgements: Judgement[] = [];
    for (const directory of this.directories) {
      judgements.push(await this.options.judgePath(this.resolve(directory, word.text), access));
    }
    return strictest(judgements, { decision: 'allow', reason: 'inside the workspace' });
  }

  private resolve(directory: string, target: string): string {
    if (target === '~' || target.startsWith('~/')) {
      return path.posix.join(this.options.home, target.slice(1));
    }
    return path.posix.resolve(directory, target);
  }

  private async changeDirectory(word: ShellWord | undefined): Promise<Judgement> {
    const target = word ?? { text: '~', source: '~', literal: true, expands: false };
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

  private async judgeRedirect(node: SyntaxNode): Promise<void> {
    const operator = node.children.filter((child): child is SyntaxNode => child !== null && !child.isNamed).map((child) => child.type).join('');
    const destinationNode = node.childForFieldName('destination');
    if (!destinationNode) {
      this.note(node.text, { decision: 'ask', reason: 'a redirection without a target' });
      return;
    }
    const destination = shellWord(destinationNode);
    const duplicates = (operator === '>&' || operator === '<&') && /^(\d+-?|-)$/.test(destination.text);
    if (duplicates || destinationNode.type === 'number' && (operator === '>&' || operator === '<&')) {
      return;
    }
    const access = operator === '<' ? 'read' : 'write';
    const judgement = await this.judgePath(destination, access);
    const verb = access === 'read' ? 'reads' : 'writes';
    this.note(node.text, judgement.decision === 'allow' ? { decision: 'allow', reason: `${verb} ${destination.text}, ${judgement.reason}` } : judgement);
  }
}

const DECISION_WORDS: Record<CommandDecision, string> = { allow: 'runs without asking', ask: 'needs approval', deny: 'refused' };

/** The text settings patterns are matched against: program name by basename, then the arguments. */
function normalisedLine(words: readonly ShellWord[]): string {
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

/** Judges a whole command line. Parser failures and empty lines ask. */
export async function evaluateCommandPolicy(command: string, options: CommandPolicyOptions): Promise<CommandVerdict> {
  const tree = await parseBash(command);
  if (!tree) {
    return { decision: 'ask', reasons: ['the shell parser could not read the command line'] };
  }
  try {
    const judge = new LineJudge(command, options);
    judge.checkTokenization();
    await judge.walk(tree.rootNode);
    return judge.verdict();
  } finally {
    tree.delete();
  }
}
