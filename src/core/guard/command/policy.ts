// Decides whether a command line runs at once, asks the user, or is refused. The line is parsed
// with tree-sitter's bash grammar and every simple command in it is judged: in lists, pipelines,
// subshells, functions, loops, $(...) and backticks anywhere, process substitution, arithmetic and
// heredocs. Redirection targets and path arguments are judged as paths, globs and braces on every
// file they can name. Expansions that can run a command or assign ask. What cannot be understood asks.
import { strictest, type CommandDecision, type Judgement } from '../../decisions';
import { oneLine } from '../../text/truncate';
import { unsafeArithmetic, unsafeHeredocText, unsafeParameterExpansion } from './expansions';
import { findRepository, type FoundRepository, type RepositoryView } from './gitRepository';
import { expandPathWord, joinRaw, type ListDirectory } from './globs';
import { unreadableHeredoc } from './heredocs';
import { programName, type InvocationJudge, type TextInsertion } from './judgement';
import { judgeInvocation } from './programs';
import { parseBash, type SyntaxNode } from './shell/bashParser';
import { shellWord, type ShellWord } from './shell/words';
import { judgeTestNode } from './testExpressions';

/** The policy's answer for a whole command line. */
export interface CommandVerdict {
  readonly decision: CommandDecision;
  /** One line per sub-command or construct: what it is and why it was allowed, asks or is refused. */
  readonly reasons: readonly string[];
  /**
   * True when the line runs without asking and can change no file: no redirect writes a file and no
   * runCommand.allow pattern let a command through (those may write). Checkpoints skip only these.
   */
  readonly readOnly?: boolean;
  /**
   * The command line to run when it differs from the one judged: every `git` that runs without
   * asking gets its safety options (gitSafety.ts). Only set when the decision is allow.
   */
  readonly commandLine?: string;
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
  /** The names in a folder (undefined when it is not a listable folder), to expand globs. */
  readonly listDirectory: ListDirectory;
  /** The disk as git's discovery sees it, to find the repository each git would use. */
  readonly repositories: RepositoryView;
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
  'postfix_expression', 'test_operator', 'regex', 'extglob_pattern', 'brace_expression', 'command_name',
  'array', 'variable_assignments',
]);

/** More combinations of loop values than this in one command and the loop variable is not followed. */
const MAX_LOOP_VARIANTS = 16;

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
  /** The text the nodes being walked come from: the line, or the inside of backticks read again. */
  private text: string;
  /** A redirect writes a file or a user's allow pattern let a command through: the line may change files. */
  private mayWrite = false;
  /** Loop variables (`for f in *.md`) and the words they take, while the loop body is walked. */
  private readonly bindings = new Map<string, readonly ShellWord[]>();
  /** Text to insert into the line that runs, by the position of its first insertion (git's safety options). */
  private readonly insertions = new Map<number, { key: string; edits: readonly TextInsertion[] }>();
  /** Inside backticks whose text holds backslashes, bash reads other text than the parser shows: nothing can be placed there. */
  private escapedBackticks = 0;

  constructor(private readonly source: string, private readonly options: CommandPolicyOptions) {
    this.directories = [options.cwd];
    this.text = source;
  }

  verdict(): CommandVerdict {
    const worst = strictest(this.findings.map((finding) => finding.judgement), { decision: 'allow', reason: '' });
    const reasons = this.findings.map(({ judgement, subject }) => `${subject}: ${DECISION_WORDS[judgement.decision]} (${judgement.reason})`);
    const commandLine = worst.decision === 'allow' && this.insertions.size > 0 ? this.rewritten() : undefined;
    return { decision: worst.decision, reasons: reasons.length ? reasons : ['no command to run: only tests or comments'], readOnly: worst.decision === 'allow' && !this.mayWrite, ...(commandLine === undefined ? {} : { commandLine }) };
  }

  /** The source with every recorded insertion, each group in its own order where positions meet. */
  private rewritten(): string {
    const edits = [...this.insertions.values()].flatMap((group) => group.edits).map((edit, order) => ({ ...edit, order }));
    edits.sort((a, b) => a.at - b.at || a.order - b.order);
    let out = '';
    let from = 0;
    for (const edit of edits) {
      out += this.source.slice(from, edit.at) + edit.text;
      from = edit.at;
    }
    return out + this.source.slice(from);
  }

  private rewrite(edits: readonly TextInsertion[]): Judgement | undefined {
    if (edits.length === 0) {
      return undefined;
    }
    if (this.backtickDepth > 0 || this.escapedBackticks > 0) {
      return { decision: 'ask', reason: 'git inside backticks with backslashes cannot be given its safety options with certainty' };
    }
    const key = JSON.stringify(edits);
    const anchor = edits[0].at;
    const previous = this.insertions.get(anchor);
    if (previous && previous.key !== key) {
      return { decision: 'ask', reason: 'git gets different arguments in different rounds of the loop, so its safety options cannot be placed once for all' };
    }
    this.insertions.set(anchor, { key, edits });
    return undefined;
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
        if (node.text.startsWith('`') && node.text.includes('\\')) {
          this.escapedBackticks += 1;
          try {
            await this.walkChildren(node);
          } finally {
            this.escapedBackticks -= 1;
          }
          return;
        }
        break;
      case 'for_statement':
        await this.walkFor(node);
        return;
      default:
        this.judgeConstruct(node);
    }
    await this.walkChildren(node);
  }

  private async walkChildren(node: SyntaxNode): Promise<void> {
    for (const child of node.namedChildren) {
      if (child) {
        await this.walk(child);
      }
    }
  }

  /** Expansions, arithmetic, subscripts, heredocs and tests that can run commands or assign. */
  private judgeConstruct(node: SyntaxNode): void {
    const asks = (reason: string | undefined): void => {
      if (reason) {
        this.note(node.text, { decision: 'ask', reason });
      }
    };
    switch (node.type) {
      case 'expansion':
        asks(unsafeParameterExpansion(node.text));
        break;
      case 'arithmetic_expansion':
        asks(unsafeArithmetic(node.text));
        break;
      case 'subscript':
        asks(`${node.text} has a subscript, which is evaluated as arithmetic and can run commands`);
        break;
      case 'heredoc_redirect':
        asks(unreadableHeredoc(node, this.text));
        break;
      case 'heredoc_body':
        asks(this.heredocQuoted(node) ? undefined : unsafeHeredocText(node.text));
        break;
      case 'string':
        asks(/\$\[/.test(node.text) ? `${node.text} contains $[, which evaluates arithmetic` : undefined);
        break;
      case 'test_command': {
        const judgement = judgeTestNode(node);
        if (judgement) {
          this.note(node.text, judgement);
        }
        break;
      }
      default:
        if (!STRUCTURE.has(node.type) && node.type !== 'ERROR') {
          this.note(node.text, { decision: 'ask', reason: `uses the shell construct "${node.type}", which this policy does not check` });
        }
    }
  }

  /** A heredoc whose delimiter is quoted (`<<'EOF'`, `<<\EOF`) keeps its body as plain text. */
  private heredocQuoted(body: SyntaxNode): boolean {
    const start = body.parent?.namedChildren.find((child) => child?.type === 'heredoc_start');
    return start !== undefined && start !== null && /['"\\]/.test(start.text);
  }

  /**
   * `for f in a *.md; do ...; done`: while the body is walked, `"$f"` (and a bare `$f` whose values
   * are plain words) stands for each value, so `wc -l "$f"` is judged on the files the glob names.
   */
  private async walkFor(node: SyntaxNode): Promise<void> {
    const name = node.childForFieldName('variable')?.text;
    const valueNodes = node.childrenForFieldName('value').filter((child): child is SyntaxNode => child !== null);
    const values = valueNodes.map((child) => shellWord(child));
    const bindable = name !== undefined && valueNodes.length > 0 && values.every((word) => word.literal);
    const previous = name !== undefined ? this.bindings.get(name) : undefined;
    if (name !== undefined) {
      this.bindings.delete(name);
    }
    for (const child of node.namedChildren) {
      if (!child) {
        continue;
      }
      if (bindable && child.type === 'do_group') {
        this.bindings.set(name, values);
      }
      await this.walk(child);
    }
    if (name !== undefined) {
      this.bindings.delete(name);
      if (previous) {
        this.bindings.set(name, previous);
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
    const outer = this.text;
    this.text = inner;
    try {
      await this.walk(tree.rootNode);
    } finally {
      this.text = outer;
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
    const variants = this.wordVariants([nameWordNode, ...argumentNodes]);
    const judgements: Judgement[] = [];
    for (const words of variants) {
      if (!words[0].literal || words[0].expands) {
        this.note(subject, { decision: 'ask', reason: `the command name ${words[0].source} is only known when it runs` });
        return;
      }
      judgements.push(await this.judgeWords(words));
    }
    this.note(subject, strictest(judgements.slice(1), judgements[0]));
  }

  /** The words of a command once per combination of loop-variable values (one combination without loops). */
  private wordVariants(nodes: readonly SyntaxNode[]): ShellWord[][] {
    let variants: ShellWord[][] = [[]];
    for (const node of nodes) {
      const choices = this.boundValues(node) ?? [shellWord(node)];
      if (variants.length * choices.length > MAX_LOOP_VARIANTS) {
        return [nodes.map((each) => shellWord(each))];
      }
      variants = variants.flatMap((variant) => choices.map((choice) => [...variant, { ...choice, source: node.text, start: node.startIndex, end: node.endIndex }]));
    }
    return variants;
  }

  /** The values a `"$f"` or `${f}` of a loop variable can take; undefined when the word is not one. */
  private boundValues(node: SyntaxNode): readonly ShellWord[] | undefined {
    const quoted = node.type === 'string' && node.namedChildren.length === 1 ? node.namedChildren[0] : null;
    const expansion = quoted ?? node;
    if (expansion.type !== 'simple_expansion' && expansion.type !== 'expansion') {
      return undefined;
    }
    const text = expansion.text;
    const name = /^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})$/.exec(text);
    const values = name ? this.bindings.get(name[1] ?? name[2]) : undefined;
    if (!values || (quoted && node.text !== `"${text}"`)) {
      return undefined;
    }
    // Unquoted, the value is split and globbed again: only plain one-word values stay themselves.
    if (!quoted && values.some((word) => word.expands || /\s/.test(word.text))) {
      return undefined;
    }
    return values;
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
      this.mayWrite = true;
      return { decision: 'allow', reason: `matches ${allowed} of workspaceAgentTools.runCommand.allow` };
    }
    return judgeInvocation(words, this.invocationJudge());
  }

  private invocationJudge(): InvocationJudge {
    return {
      readPaths: (words) => this.judgePaths(words, 'read'),
      changeDirectory: (word) => this.changeDirectory(word),
      wrapped: (words) => this.judgeWords(words),
      gitRepositories: (folders) => this.gitRepositories(folders),
      rewrite: (edits) => this.rewrite(edits),
      firstFolder: (words) => this.firstFolder(words),
    };
  }

  private async firstFolder(words: readonly ShellWord[]): Promise<ShellWord | undefined> {
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

  private async judgePaths(words: readonly ShellWord[], access: 'read' | 'write'): Promise<Judgement> {
    const judgements: Judgement[] = [];
    for (const word of words) {
      judgements.push(await this.judgePath(word, access));
    }
    return strictest(judgements, { decision: 'allow', reason: 'no paths' });
  }

  private async judgePath(word: ShellWord, access: 'read' | 'write'): Promise<Judgement> {
    if (word.pipe) {
      return { decision: 'allow', reason: `${word.source} is a pipe from commands judged on their own` };
    }
    if (!word.literal) {
      return { decision: 'ask', reason: `the path ${word.source} is only known when it runs` };
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

  private async judgeOne(text: string, absolute: string, access: 'read' | 'write'): Promise<Judgement> {
    if (HARMLESS_DEVICES.has(text) || /^\/dev\/fd\/\d+$/.test(text)) {
      return { decision: 'allow', reason: `${text} is not a file` };
    }
    return this.options.judgePath(absolute, access);
  }

  /** A glob or brace word: every word it can become in `directory` is judged, and none may look like an option. */
  private async judgePattern(text: string, directory: string, access: 'read' | 'write'): Promise<Judgement> {
    const expansion = await expandPathWord(text, directory, this.options.home, this.options.listDirectory);
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

  /**
   * Every folder git may start in (each folder the line may be in, then its -C folders) must lead
   * git to a workspace folder's own plain `.git`, or to no repository at all (gitRepository.ts).
   */
  private async gitRepositories(folders: readonly ShellWord[]): Promise<{ judgement: Judgement; repositories: FoundRepository[] }> {
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

  /** The absolute path of a word from `directory`, `..` left for the path judge to resolve on the disk. */
  private resolve(directory: string, target: string): string {
    if (target === '~' || target.startsWith('~/')) {
      return joinRaw(this.options.home, target.slice(2));
    }
    return joinRaw(directory, target);
  }

  private async changeDirectory(word: ShellWord | undefined): Promise<Judgement> {
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
    if (access === 'write' && !HARMLESS_DEVICES.has(destination.text)) {
      this.mayWrite = true;
    }
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
