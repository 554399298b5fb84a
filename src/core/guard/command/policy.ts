// Decides whether a command line runs at once, asks the user, or is refused. The line is parsed
// with tree-sitter's bash grammar and every simple command in it is judged: in lists, pipelines,
// subshells, functions, loops, $(...) and backticks anywhere, process substitution, arithmetic and
// heredocs. Redirection targets and path arguments are judged as paths, globs and braces on every
// file they can name. Expansions that can run a command or assign ask. What cannot be understood asks.
import { strictest, withoutCause, type Judgement } from '../../decisions';
import { oneLine } from '../../text/truncate';
import { unsafeArithmetic, unsafeHeredocText, unsafeParameterExpansion } from './expansions';
import { unreadableHeredoc } from './heredocs';
import type { InvocationJudge } from './judgement';
import { LinePaths } from './linePaths';
import { LineRewrite } from './lineRewrite';
import type { CommandPolicyOptions } from './policyOptions';
import { judgeInvocation } from './programs';
import { judgeRedirect } from './redirects';
import { judgeByPatterns, normalisedLine, suggestedAllowRule, wholeLineAskRule } from './settingsPatterns';
import { parseBash, type SyntaxNode } from './shell/bashParser';
import { shellWord, type ShellWord } from './shell/words';
import { judgeTestNode } from './testExpressions';
import type { CommandFinding, CommandVerdict } from './verdict';

export type { CommandPolicyOptions, PathJudge } from './policyOptions';

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

class LineJudge {
  private readonly findings: CommandFinding[] = [];
  /** The folders the line may be in (cd) and the paths judged from them. */
  private readonly paths: LinePaths;
  private backtickDepth = 0;
  /** The text the nodes being walked come from: the line, or the inside of backticks read again. */
  private text: string;
  /** A redirect writes a file or a user's allow pattern let a command through: the line may change files. */
  private mayWrite = false;
  /** Loop variables (`for f in *.md`) and the words they take, while the loop body is walked. */
  private readonly bindings = new Map<string, readonly ShellWord[]>();
  /** Text to insert into the line that runs (git's safety options). */
  private readonly rewrite = new LineRewrite();
  /** Inside backticks whose text holds backslashes, bash reads other text than the parser shows: nothing can be placed there. */
  private escapedBackticks = 0;
  /** The runCommand.allow entries that would let the asking sub-commands through, by the index of their finding. */
  private readonly allowRules = new Map<number, readonly string[]>();
  /** How many sub-commands VS Code's terminal rules made ask: an allow rule would not let those through. */
  private floorHits = 0;

  constructor(private readonly source: string, private readonly options: CommandPolicyOptions) {
    this.paths = new LinePaths(options);
    this.text = source;
  }

  verdict(): CommandVerdict {
    const worst = strictest(this.findings, { decision: 'allow', reason: '' });
    const commandLine = worst.decision === 'allow' && !this.rewrite.empty ? this.rewrite.apply(this.source) : undefined;
    const allowRules = worst.decision === 'ask' ? this.allowRulesFor() : undefined;
    return {
      decision: worst.decision,
      findings: [...this.findings],
      readOnly: worst.decision === 'allow' && !this.mayWrite,
      ...(commandLine === undefined ? {} : { commandLine }),
      ...(allowRules ? { allowRules } : {}),
    };
  }

  /** The rules that would let the whole line through, when every finding that asks is a sub-command one of them covers. */
  private allowRulesFor(): readonly string[] | undefined {
    const rules = new Set<string>();
    for (const [index, finding] of this.findings.entries()) {
      if (finding.decision === 'allow') {
        continue;
      }
      const covering = this.allowRules.get(index);
      if (!covering) {
        return undefined;
      }
      covering.forEach((rule) => rules.add(rule));
    }
    return rules.size ? [...rules] : undefined;
  }

  /** A finding about the whole line (VS Code's command-line rules). */
  noteLine(judgement: Judgement): void {
    this.findings.push({ decision: judgement.decision, reason: judgement.reason });
  }

  private note(subject: string, judgement: Judgement): void {
    const cause = judgement.decision === 'ask' && judgement.cause ? { cause: judgement.cause } : {};
    this.findings.push({ subject: oneLine(subject, 120), decision: judgement.decision, reason: judgement.reason, ...cause });
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
      case 'file_redirect': {
        const redirect = await judgeRedirect(node, this.paths);
        if (redirect) {
          this.mayWrite ||= redirect.writes;
          this.note(node.text, redirect.judgement);
        }
        break;
      }
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
    const tree = await parseBash(inner, this.options.bashParser);
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
    const floorHits = this.floorHits;
    for (const words of variants) {
      if (!words[0].literal || words[0].expands) {
        this.note(subject, { decision: 'ask', reason: `the command name ${words[0].source} is only known when it runs` });
        return;
      }
      judgements.push(await this.judgeWords(words));
    }
    const judgement = strictest(judgements.slice(1), judgements[0]);
    // A sub-command that asks for itself (not for a floor of VS Code's rules) is what an allow rule covers.
    const rules = judgement.decision === 'ask' && this.floorHits === floorHits ? variants.map((words) => suggestedAllowRule(words)) : [];
    if (rules.length > 0 && rules.every((rule) => rule !== undefined)) {
      this.allowRules.set(this.findings.length, rules);
    }
    this.note(subject, judgement);
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
    const settings = judgeByPatterns(normalisedLine(words), this.options);
    if (settings?.by === 'terminal') {
      this.floorHits += 1;
    } else if (settings?.by === 'allow') {
      this.mayWrite = true;
    }
    return settings?.judgement ?? judgeInvocation(words, this.invocationJudge());
  }

  private invocationJudge(): InvocationJudge {
    return {
      readPaths: (words) => this.paths.judgePaths(words, 'read'),
      changeDirectory: (word) => this.paths.changeDirectory(word),
      // A wrapper (env, nice, timeout, nohup...) may change what the command does: no cause goes through it.
      wrapped: async (words) => withoutCause(await this.judgeWords(words)),
      writePaths: (words) => this.paths.judgeWrites(words),
      gitRepositories: (folders) => this.paths.gitRepositories(folders),
      rewrite: (edits) => this.rewrite.record(edits, this.backtickDepth > 0 || this.escapedBackticks > 0),
      firstFolder: (words) => this.paths.firstFolder(words),
    };
  }
}

/** Judges a whole command line. Parser failures and empty lines ask. */
export async function evaluateCommandPolicy(command: string, options: CommandPolicyOptions): Promise<CommandVerdict> {
  const tree = await parseBash(command, options.bashParser);
  if (!tree) {
    return { decision: 'ask', findings: [{ decision: 'ask', reason: 'the shell parser could not read the command line' }] };
  }
  try {
    const judge = new LineJudge(command, options);
    judge.checkTokenization();
    await judge.walk(tree.rootNode);
    const floor = wholeLineAskRule(command, options.terminalAskRules);
    if (floor) {
      judge.noteLine(floor);
    }
    return judge.verdict();
  } finally {
    tree.delete();
  }
}
