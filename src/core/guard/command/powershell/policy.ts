// Decides whether a PowerShell command line runs at once, asks the user, or is refused: the same
// closed principles as the bash policy (../policy.ts). The line is parsed with tree-sitter's
// PowerShell grammar and walked; every node type, cmdlet, alias, parameter, native program, .NET
// type and method must be on a table (cmdlets.ts) to run without asking, every path a cmdlet
// reads, a native program reads or a redirection writes is judged by the guard's path judge, and
// script blocks, sub-expressions and parenthesised pipelines are judged where they stand. What
// cannot be known before the line runs (a variable in a path or a command's name, splatting, `&`
// with a non-literal, a pipeline feeding file names to a reading cmdlet) asks; so does the unknown.
import { strictest, type Judgement } from '../../../decisions';
import { oneLine } from '../../../text/truncate';
import type { InvocationJudge, TextInsertion } from '../judgement';
import { LinePaths } from '../linePaths';
import { LineRewrite } from '../lineRewrite';
import type { CommandPolicyOptions } from '../policyOptions';
import { judgeInvocation } from '../programs';
import { judgeByPatterns, normalisedLine, wholeLineAskRule } from '../settingsPatterns';
import type { SyntaxNode } from '../shell/bashParser';
import type { ShellWord } from '../shell/words';
import type { CommandFinding, CommandVerdict } from '../verdict';
import { CMDLETS_BY_NAME, CMDLETS_BY_OWN_NAME, COMMON_PARAMETERS, NATIVE_PROGRAMS, RISK_BY_NAME, SAFE_INSTANCE_METHODS, SAFE_STATIC_METHODS, SAFE_TYPES, type CmdletSpec, type ParameterKind } from './cmdlets';
import { parsePowerShell } from './parser';

/** Nodes that only group or sequence statements. */
const STATEMENT_STRUCTURE = new Set(['program', 'statement_list', 'pipeline', 'pipeline_chain', 'pipeline_chain_tail', 'empty_statement', 'comment', 'script_block', 'script_block_body', 'statement_block']);

/** Expression nodes that compute a value from their children and do nothing else. */
const EXPRESSION_STRUCTURE = new Set([
  'logical_expression', 'bitwise_expression', 'comparison_expression', 'additive_expression', 'multiplicative_expression',
  'format_expression', 'range_expression', 'array_literal_expression', 'unary_expression', 'expression_with_unary_operator',
  'parenthesized_expression', 'sub_expression', 'array_expression', 'script_block_expression', 'hash_literal_expression',
  'hash_literal_body', 'hash_entry', 'key_expression', 'string_literal', 'expandable_string_literal', 'expandable_here_string_literal',
  'verbatim_string_characters', 'verbatim_here_string_characters', 'integer_literal', 'decimal_integer_literal',
  'hexadecimal_integer_literal', 'real_literal', 'comparison_operator', 'format_operator', 'simple_name', 'element_access',
  'argument_list', 'argument_expression_list', 'argument_expression', 'logical_argument_expression', 'bitwise_argument_expression',
  'comparison_argument_expression', 'additive_argument_expression', 'multiplicative_argument_expression', 'format_argument_expression',
  'range_argument_expression', 'command_argument_sep', 'generic_token', 'redirected_file_name',
]);

/** Variables an expression may read: plain names, the automatic `$_`, `$$`, `$?`, `$^`, and the environment (secrets are not in it). */
const READABLE_VARIABLE = /^\$(?:(?:global:|script:|local:)?[A-Za-z_][A-Za-z0-9_]*|_|\$|\?|\^|env:[A-Za-z_][A-Za-z0-9_]*)$/i;

/** A bare word is known before the line runs when it has none of these (variables, escapes, sub-expressions, splatting, lists, quotes). */
const DYNAMIC_IN_WORD = /[$`@(){},;'"<>|&]/;

/** Characters PowerShell reads as operators where the grammar may keep them in a word (`ls >.env` is a redirection to PowerShell, a word to the grammar). */
const OPERATOR_IN_WORD = /[<>|&;]/;

class PowerShellLineJudge {
  private readonly findings: CommandFinding[] = [];
  private readonly paths: LinePaths;
  private readonly rewrite = new LineRewrite();
  private mayWrite = false;
  /** The folders are POSIX paths (PowerShell off Windows, and the unit tests): a path from `/` is absolute there, not the root of a drive. */
  private readonly posixHost: boolean;

  constructor(private readonly source: string, private readonly options: CommandPolicyOptions) {
    this.paths = new LinePaths({ ...options, ignoreCaseInGlobs: true });
    this.posixHost = options.cwd.startsWith('/') && !/^\/[A-Za-z]:/.test(options.cwd);
  }

  verdict(): CommandVerdict {
    const worst = strictest(this.findings, { decision: 'allow', reason: '' });
    const commandLine = worst.decision === 'allow' && !this.rewrite.empty ? this.rewrite.apply(this.source) : undefined;
    return {
      decision: worst.decision,
      findings: [...this.findings],
      readOnly: worst.decision === 'allow' && !this.mayWrite,
      ...(commandLine === undefined ? {} : { commandLine }),
    };
  }

  noteLine(judgement: Judgement): void {
    this.findings.push({ decision: judgement.decision, reason: judgement.reason });
  }

  private note(subject: string, judgement: Judgement): void {
    this.findings.push({ subject: oneLine(subject, 120), decision: judgement.decision, reason: judgement.reason });
  }

  private ask(subject: string, reason: string): void {
    this.note(subject, { decision: 'ask', reason });
  }

  /** Statements: pipelines of commands and expressions. Anything else (if, foreach, function, class, assignment...) asks. */
  async walkStatements(node: SyntaxNode): Promise<void> {
    if (node.type === 'ERROR' || node.isMissing) {
      this.ask(node.text || this.source, 'the PowerShell parser could not make sense of this part, so it cannot be checked');
      return;
    }
    if (node.type === 'pipeline_chain') {
      await this.walkPipeline(node);
      return;
    }
    if (node.type === 'assignment_expression' || node.type === 'left_assignment_expression') {
      this.ask(node.text, 'sets a variable, which can change what later commands do');
      return;
    }
    if (!STATEMENT_STRUCTURE.has(node.type)) {
      this.ask(node.text, `uses the PowerShell construct "${node.type}", which this policy does not check`);
      return;
    }
    for (const child of node.namedChildren) {
      if (child) {
        await this.walkStatements(child);
      }
    }
  }

  /** One pipeline: each command judged with its place in it; what flows in from the left can name files. */
  private async walkPipeline(node: SyntaxNode): Promise<void> {
    let previous: CmdletSpec | 'other' | undefined;
    for (const child of node.namedChildren) {
      if (!child) {
        continue;
      }
      if (child.type === 'command') {
        previous = await this.judgeCommand(child, previous);
      } else if (child.type === 'redirections' || child.type === 'redirection') {
        await this.judgeRedirections(child);
      } else if (child.type === 'comment') {
        continue;
      } else {
        await this.walkExpression(child);
        previous = 'other';
      }
    }
  }

  private async judgeRedirections(node: SyntaxNode): Promise<void> {
    if (node.type === 'redirections') {
      for (const child of node.namedChildren) {
        if (child) {
          await this.judgeRedirections(child);
        }
      }
      return;
    }
    const operator = node.namedChildren.find((child) => child?.type === 'file_redirection_operator' || child?.type === 'merging_redirection_operator');
    if (!operator || operator.type === 'merging_redirection_operator') {
      return;
    }
    const target = node.namedChildren.find((child) => child?.type === 'redirected_file_name');
    const element = target?.namedChildren.find((child) => child !== null && child.type !== 'command_argument_sep') ?? null;
    if (!element) {
      this.ask(node.text, 'a redirection without a target');
      return;
    }
    if (/^\$null$/i.test(element.text)) {
      this.note(node.text, { decision: 'allow', reason: 'discards the output' });
      return;
    }
    const words = literalWords(element);
    if (!words || words.length !== 1) {
      this.ask(node.text, `the redirection target ${element.text} is only known when it runs`);
      return;
    }
    const judgement = await this.judgePathWord(words[0], 'write', false);
    this.mayWrite = true;
    this.note(node.text, judgement.decision === 'allow' ? { decision: 'allow', reason: `writes ${words[0].text}, ${judgement.reason}` } : judgement);
  }

  /** One command: a cmdlet of the table, a native program of the bash tables, or it asks. Returns what it is, for the next command of the pipeline. */
  private async judgeCommand(node: SyntaxNode, previous: CmdletSpec | 'other' | undefined): Promise<CmdletSpec | 'other'> {
    const subject = node.text;
    const foreach = node.namedChildren.find((child) => child?.type === 'foreach_command');
    const nameNode = node.childForFieldName('command_name');
    const elementsNode = foreach ?? node.childForFieldName('command_elements');
    const elements = (elementsNode?.namedChildren ?? []).filter((child): child is SyntaxNode => child !== null && child.type !== 'command_argument_sep');
    const operator = node.namedChildren.find((child) => child?.type === 'command_invokation_operator');
    if (operator && operator.text.trim() !== '&') {
      this.ask(subject, 'dot-sourcing runs a script in this session, which cannot be checked');
      return 'other';
    }
    const name = foreach ? '%' : commandName(nameNode);
    if (name === undefined) {
      this.ask(subject, `the command name ${nameNode?.text ?? ''} is only known when it runs`);
      return 'other';
    }
    const redirections = elements.filter((child) => child.type === 'redirection');
    for (const redirection of redirections) {
      await this.judgeRedirections(redirection);
    }
    const args = elements.filter((child) => child.type !== 'redirection');
    const call = args.find((child) => child.type === 'argument_list');
    if (call) {
      this.ask(subject, `${subject} calls a method in an argument, which can do anything`);
      return 'other';
    }
    const operatorWord = args.find((child) => child.type === 'generic_token' && OPERATOR_IN_WORD.test(child.text));
    if (operatorWord) {
      this.ask(subject, `${operatorWord.text} holds a character PowerShell reads as a redirection or operator, which the grammar keeps in the word`);
      return 'other';
    }
    const settings = this.settingsJudgement(name, args);
    if (settings) {
      this.note(subject, settings);
      return 'other';
    }
    const resolved = resolveCommand(name);
    if (resolved.kind === 'asks') {
      this.ask(subject, resolved.reason);
      return 'other';
    }
    if (resolved.kind === 'native') {
      this.note(subject, await this.judgeNative(resolved.name, nameNode, args));
      return 'other';
    }
    const spec = resolved.spec;
    if (previous !== undefined && spec.readsPipelinePaths && !(spec.readsPipelinePaths === 'unlessAfterGetContent' && previous !== 'other' && previous.name === 'Get-Content')) {
      this.ask(subject, `${spec.name} reads the files its pipeline input names, which are only known when it runs`);
      return spec;
    }
    this.note(subject, await this.judgeCmdlet(spec, args));
    return spec;
  }

  /** workspaceAgentTools.runCommand.deny and .allow, and VS Code's rules that ask, on the command's words as written. */
  private settingsJudgement(name: string, args: readonly SyntaxNode[]): Judgement | undefined {
    const words: ShellWord[] = [plainWord(name), ...args.map((arg) => literalWords(arg)?.[0] ?? { ...plainWord(arg.text), literal: false })];
    const settings = judgeByPatterns(normalisedLine(words), this.options);
    if (settings?.by === 'allow') {
      this.mayWrite = true;
    }
    return settings?.judgement;
  }

  /** A cmdlet of the table: every parameter known, every value judged by its kind. */
  private async judgeCmdlet(spec: CmdletSpec, args: readonly SyntaxNode[]): Promise<Judgement> {
    const judgements: Judgement[] = [];
    let position = 0;
    for (let index = 0; index < args.length; index += 1) {
      const arg = args[index];
      let parameter: string;
      let value: SyntaxNode | undefined;
      if (arg.type === 'command_parameter') {
        const written = arg.text.replace(/:$/, '');
        if (written === '--' || !/^-[A-Za-z][A-Za-z0-9]*$/.test(written)) {
          return ask(`${spec.name} ${arg.text} is not a parameter this policy knows`);
        }
        parameter = written.slice(1).toLowerCase();
        const kind = spec.parameters[parameter] ?? COMMON_PARAMETERS[parameter];
        if (!kind) {
          return ask(`${spec.name} ${written} is not a parameter this policy knows (a parameter is only recognised written in full)`);
        }
        const colon = arg.text.endsWith(':') || arg.namedChildren.length > 0 || arg.children.some((child) => child?.type === ':');
        if (kind === 'switch') {
          if (colon) {
            const switchValue = args[index + 1];
            index += 1;
            if (!switchValue || !/^\$(true|false)$/i.test(switchValue.text)) {
              return ask(`${spec.name} ${written}: takes $true or $false here`);
            }
          }
          continue;
        }
        value = args[index + 1];
        index += 1;
        if (!value || value.type === 'command_parameter') {
          return ask(`${spec.name} ${written} has no value`);
        }
      } else {
        const positional = spec.positional[position] ?? (spec.restPositional ? spec.positional[spec.positional.length - 1] : undefined);
        position += 1;
        if (positional === undefined) {
          return ask(`${spec.name} gets more arguments than this policy knows it takes (${arg.text})`);
        }
        parameter = positional;
        value = arg;
      }
      const kind = spec.parameters[parameter] ?? COMMON_PARAMETERS[parameter];
      judgements.push(await this.judgeValue(spec, kind, value));
    }
    const worst = strictest(judgements, { decision: 'allow', reason: `${spec.name} ${spec.does}` });
    return worst.decision === 'allow' ? { decision: 'allow', reason: `${spec.name} ${spec.does}` } : worst;
  }

  private async judgeValue(spec: CmdletSpec, kind: ParameterKind, value: SyntaxNode): Promise<Judgement> {
    switch (kind) {
      case 'switch':
      case 'value':
        await this.walkExpression(value);
        return { decision: 'allow', reason: 'a value' };
      case 'script': {
        const block = scriptBlockOf(value);
        if (!block) {
          return ask(`${spec.name} gets ${value.text} where this policy only follows a script block ({ ... })`);
        }
        await this.walkExpression(block);
        return { decision: 'allow', reason: 'a script block judged on its own' };
      }
      case 'path':
      case 'literalPath':
      case 'folder': {
        const words = literalWords(value);
        if (!words) {
          await this.walkExpression(value);
          return ask(`the path ${value.text} is only known when it runs`);
        }
        const judgements: Judgement[] = [];
        for (const word of words) {
          judgements.push(kind === 'folder' ? await this.changeDirectory(word) : await this.judgePathWord(word, 'read', kind === 'path'));
        }
        return strictest(judgements, { decision: 'allow', reason: 'inside the workspace' });
      }
    }
  }

  private async changeDirectory(word: ShellWord): Promise<Judgement> {
    const problem = windowsPathProblem(word.text, this.posixHost);
    if (problem) {
      return ask(problem);
    }
    return this.paths.changeDirectory(forwardSlashes(word));
  }

  /** A path a cmdlet reads or a redirection writes: the guard's judge on every file it can name. */
  private async judgePathWord(word: ShellWord, access: 'read' | 'write', wildcards: boolean): Promise<Judgement> {
    const problem = windowsPathProblem(word.text, this.posixHost);
    if (problem) {
      return ask(problem);
    }
    return this.paths.judgePath({ ...forwardSlashes(word), expands: wildcards && /[*?[]/.test(word.text) }, access);
  }

  /** A native program judged by the bash policy's tables, on arguments PowerShell passes unchanged. */
  private async judgeNative(name: string, nameNode: SyntaxNode | null, args: readonly SyntaxNode[]): Promise<Judgement> {
    const words: ShellWord[] = [{ ...plainWord(name), ...(nameNode ? { start: nameNode.startIndex, end: nameNode.endIndex } : {}) }];
    for (const arg of args) {
      const problem = nativeArgumentProblem(name, arg);
      if (problem) {
        return ask(problem);
      }
      const found = arg.type === 'command_parameter' ? [wordAt(arg, arg.text)] : literalWords(arg);
      if (!found || found.length !== 1) {
        await this.walkExpression(arg);
        return ask(`${name} gets ${arg.text}, which is only known when it runs (a list or a variable can become several arguments)`);
      }
      words.push({ ...found[0], expands: /[*?[]/.test(found[0].text) });
    }
    return judgeInvocation(words, this.invocationJudge());
  }

  private invocationJudge(): InvocationJudge {
    return {
      readPaths: async (words) => {
        const judgements: Judgement[] = [];
        for (const word of words) {
          judgements.push(await this.judgePathWord(word, 'read', word.expands));
        }
        return strictest(judgements, { decision: 'allow', reason: 'no paths' });
      },
      changeDirectory: async () => ask('a program changes folder in a way this policy does not follow'),
      wrapped: async (words) => ask(`${words[0]?.text ?? 'a program'} runs another program, which this policy does not follow in PowerShell`),
      // No line of PowerShell's asks only because it writes in the workspace: runCommand.askAfterStaged is bash's (bubblewrap's) alone.
      writePaths: async () => ({ judgement: ask('PowerShell lines are not staged'), inWorkspace: false }),
      gitRepositories: (folders) => this.paths.gitRepositories(folders.map(forwardSlashes)),
      rewrite: (edits) => this.recordRewrite(edits),
      firstFolder: (words) => this.paths.firstFolder(words.map(forwardSlashes)),
    };
  }

  /** git's safety options go into the line only as words PowerShell and bash read alike: plain words or single-quoted text. */
  private recordRewrite(edits: readonly TextInsertion[]): Judgement | undefined {
    const unsafe = edits.find((edit) => !/^(?:\s+(?:'[^']*'|[A-Za-z0-9._/=:%+^-]+))*$/.test(edit.text));
    if (unsafe) {
      return ask(`git's safety options ${unsafe.text.trim()} cannot be written as PowerShell words with certainty`);
    }
    return this.rewrite.record(edits, false);
  }

  /** An expression: literals, operators, allowed variables, member reads, a closed few methods; commands inside are judged. */
  async walkExpression(node: SyntaxNode): Promise<void> {
    if (node.type === 'ERROR' || node.isMissing) {
      this.ask(node.text || this.source, 'the PowerShell parser could not make sense of this part, so it cannot be checked');
      return;
    }
    switch (node.type) {
      case 'statement_list':
      case 'pipeline':
      case 'script_block':
      case 'script_block_body':
        await this.walkStatements(node);
        return;
      case 'variable':
        if (!READABLE_VARIABLE.test(node.text)) {
          this.ask(node.text, node.text.startsWith('@') ? 'splatting passes arguments only known when it runs' : `${node.text} reads a variable or provider path this policy does not read`);
        }
        return;
      case 'generic_token':
        if (OPERATOR_IN_WORD.test(node.text)) {
          this.ask(node.text, `${node.text} holds a character PowerShell reads as a redirection or operator, which the grammar keeps in the word`);
        } else if (/\$\(|@\(|@\{|\$\{|^@/.test(node.text)) {
          this.ask(node.text, `${node.text} runs or splats something inside a word`);
        } else if (/\$(?!(?:env|global|script|local):)[A-Za-z_][A-Za-z0-9_]*:/i.test(node.text)) {
          this.ask(node.text, `${node.text} reads a variable of a PowerShell drive (a file, a function, the registry), which this policy does not read`);
        }
        return;
      case 'member_access':
        this.judgeMemberAccess(node);
        break;
      case 'invokation_expression':
        if (!safeInvocation(node)) {
          this.ask(node.text, `${node.text} calls a .NET method, which can do anything (only a few methods that compute a value run without asking)`);
          return;
        }
        break;
      case 'cast_expression':
      case 'type_literal': {
        const type = typeName(node);
        if (type === undefined || !SAFE_TYPES.has(type)) {
          this.ask(node.text, `${node.text} names a .NET type, which can do anything (only a few value types run without asking)`);
          return;
        }
        break;
      }
      case 'redirection':
      case 'redirections':
        await this.judgeRedirections(node);
        return;
      case 'pipeline_chain':
        await this.walkStatements(node);
        return;
      case 'command':
        await this.judgeCommand(node, undefined);
        return;
      default:
        if (!EXPRESSION_STRUCTURE.has(node.type)) {
          this.ask(node.text, `uses the PowerShell construct "${node.type}", which this policy does not check`);
          return;
        }
    }
    for (const child of node.namedChildren) {
      // A type is checked once, by the cast, member or call that names it; a member's name is not an expression.
      const checked = child?.type === 'member_name' || (child?.type === 'type_literal' && (node.type === 'member_access' || node.type === 'invokation_expression' || node.type === 'cast_expression'));
      if (child && !checked) {
        await this.walkExpression(child);
      }
    }
  }

  /** `$_.Name`, `[DateTime]::Now`: reading a member by a plain name; a computed member name asks. */
  private judgeMemberAccess(node: SyntaxNode): void {
    const member = node.namedChildren.find((child) => child?.type === 'member_name');
    if (!member || member.namedChildren.some((child) => child?.type !== 'simple_name')) {
      this.ask(node.text, `${node.text} reads a member whose name is only known when it runs`);
      return;
    }
    const type = node.namedChildren.find((child) => child?.type === 'type_literal');
    if (type) {
      const name = typeName(type);
      if (name === undefined || !SAFE_TYPES.has(name)) {
        this.ask(node.text, `${node.text} names a .NET type, which can do anything (only a few value types run without asking)`);
      }
    }
  }
}

const ask = (reason: string): Judgement => ({ decision: 'ask', reason });

function plainWord(text: string): ShellWord {
  return { text, source: text, literal: true, expands: false, prefix: text };
}

/** The literal words a command element stands for (one, or each of a comma list); undefined when any is only known when it runs. */
function literalWords(node: SyntaxNode): ShellWord[] | undefined {
  switch (node.type) {
    case 'generic_token':
      return DYNAMIC_IN_WORD.test(node.text) || node.namedChildren.length > 0 ? undefined : [wordAt(node, node.text)];
    case 'array_literal_expression': {
      const elements = node.namedChildren.filter((child): child is SyntaxNode => child !== null);
      const words: ShellWord[] = [];
      for (const element of elements) {
        const found = literalWords(element);
        if (!found) {
          return undefined;
        }
        words.push(...found);
      }
      return words.length ? words : undefined;
    }
    case 'unary_expression':
    case 'string_literal':
    case 'integer_literal':
      return node.namedChildren.length === 1 && node.namedChildren[0] ? literalWords(node.namedChildren[0]) : undefined;
    case 'decimal_integer_literal':
      return [wordAt(node, node.text)];
    case 'verbatim_string_characters':
      return node.text.startsWith("'") && node.text.endsWith("'") && node.text.length >= 2 ? [wordAt(node, node.text.slice(1, -1).replace(/''/g, "'"))] : undefined;
    case 'expandable_string_literal': {
      const inner = node.text.slice(1, -1);
      return node.namedChildren.length === 0 && node.text.length >= 2 && !/[$`]/.test(inner) ? [wordAt(node, inner.replace(/""/g, '"'))] : undefined;
    }
    default:
      return undefined;
  }
}

function wordAt(node: SyntaxNode, text: string): ShellWord {
  return { text, source: node.text, literal: true, expands: false, prefix: text, start: node.startIndex, end: node.endIndex };
}

/** A path word with PowerShell's backslashes as the guard's separators. */
function forwardSlashes(word: ShellWord): ShellWord {
  return word.text.includes('\\') ? { ...word, text: word.text.replace(/\\/g, '/'), prefix: word.prefix.replace(/\\/g, '/') } : word;
}

/** Why a path PowerShell reads is not judged here: a drive or provider path (`C:\`, `Env:`, `HKLM:`), a UNC or device path, the root of the current drive. */
function windowsPathProblem(text: string, posixHost: boolean): string | undefined {
  if (/^[A-Za-z][A-Za-z0-9_.-]*::/.test(text) || /^[A-Za-z][A-Za-z0-9_]+:/.test(text)) {
    return `${text} names a PowerShell drive or provider (the environment, the registry, functions, variables...), which this policy does not read`;
  }
  if (posixHost && text.startsWith('/')) {
    return undefined;
  }
  if (/^[\\/]{2}/.test(text)) {
    return `${text} is a network or device path, which this policy does not read`;
  }
  if (/^[A-Za-z]:/.test(text)) {
    return `${text} is an absolute Windows path, which this policy does not judge yet: use a path relative to the workspace`;
  }
  if (/^[\\/]/.test(text)) {
    return `${text} starts at the root of a drive, which this policy does not judge yet: use a path relative to the workspace`;
  }
  if (text.includes(':')) {
    return `${text} has a colon, which on Windows names an alternate data stream or a drive: this policy does not judge it`;
  }
  return undefined;
}

/** Why an argument of a native program asks: what Windows PowerShell passes differently from what it shows. */
function nativeArgumentProblem(name: string, arg: SyntaxNode): string | undefined {
  if (arg.type === 'stop_parsing') {
    return `--% passes the rest of the line to ${name} unparsed, which this policy does not read`;
  }
  if (arg.type === 'command_parameter' && (arg.text.endsWith(':') || arg.childCount > 0)) {
    return `${name} ${arg.text}: PowerShell splits a parameter with a colon before it reaches a native program`;
  }
  if (arg.text === '--') {
    return `${name} gets --, which PowerShell may take for itself instead of passing it on`;
  }
  const words = literalWords(arg) ?? (arg.type === 'command_parameter' ? [wordAt(arg, arg.text)] : undefined);
  const text = words?.length === 1 ? words[0].text : undefined;
  if (text === '') {
    return `${name} gets an empty argument, which Windows PowerShell 5.1 drops, shifting the others`;
  }
  if (text !== undefined && text.includes('"')) {
    return `${name} gets an argument with a double quote, which Windows PowerShell 5.1 passes so that the program can split it into other arguments`;
  }
  if (text !== undefined && /\s/.test(text) && text.endsWith('\\')) {
    return `${name} gets an argument with a space that ends in a backslash, which Windows PowerShell 5.1 passes so that it joins the next argument`;
  }
  return undefined;
}

/** The command's name as PowerShell looks it up, or undefined when it is only known when it runs. */
function commandName(node: SyntaxNode | null): string | undefined {
  if (!node) {
    return undefined;
  }
  if (node.type === 'command_name') {
    return /[$`@(){}'"<>|&;]/.test(node.text) || node.namedChildren.length > 0 ? undefined : node.text;
  }
  if (node.type === 'command_name_expr') {
    const only = node.namedChildren.length === 1 ? node.namedChildren[0] : null;
    const words = only ? literalWords(only) : undefined;
    return words?.length === 1 && !/[$`@(){}'"]/.test(words[0].text) ? words[0].text : undefined;
  }
  return undefined;
}

type ResolvedCommand = { kind: 'cmdlet'; spec: CmdletSpec } | { kind: 'native'; name: string } | { kind: 'asks'; reason: string };

/** A name as PowerShell resolves it (aliases first, then cmdlets, then programs on PATH), against the closed tables. */
function resolveCommand(name: string): ResolvedCommand {
  const lower = name.toLowerCase();
  const qualified = /^([A-Za-z][A-Za-z0-9.]*)\\([A-Za-z][A-Za-z0-9-]*)$/.exec(name);
  if (qualified) {
    const spec = CMDLETS_BY_OWN_NAME.get(qualified[2].toLowerCase());
    return spec && spec.module.toLowerCase() === qualified[1].toLowerCase()
      ? { kind: 'cmdlet', spec }
      : { kind: 'asks', reason: `${name} is not a cmdlet this policy knows by its module` };
  }
  if (/[\\/:]/.test(name)) {
    return { kind: 'asks', reason: `runs the program or script ${name} from a path, which can contain anything` };
  }
  const script = /\.(ps1|psm1|psd1|bat|cmd|vbs|vbe|js|jse|wsf|wsh|msc|com|lnk|scr|pif|cpl)$/i.exec(name);
  if (script) {
    return { kind: 'asks', reason: `${name} is a script or a program of a kind that runs code, which cannot be checked` };
  }
  const spec = CMDLETS_BY_NAME.get(lower);
  if (spec) {
    return { kind: 'cmdlet', spec };
  }
  const risk = RISK_BY_NAME.get(lower) ?? RISK_BY_NAME.get(lower.replace(/\.exe$/, ''));
  if (risk) {
    return { kind: 'asks', reason: `${name} ${risk}` };
  }
  const program = lower.replace(/\.exe$/, '');
  if (NATIVE_PROGRAMS.has(program)) {
    return { kind: 'native', name: program };
  }
  return { kind: 'asks', reason: `${name} is not on the list of read-only cmdlets and programs` };
}

/** The script block a `script` parameter gets (`{ ... }`, maybe wrapped in expression nodes), or undefined. */
function scriptBlockOf(node: SyntaxNode): SyntaxNode | undefined {
  let current: SyntaxNode | null = node;
  while (current && (current.type === 'array_literal_expression' || current.type === 'unary_expression') && current.namedChildren.length === 1) {
    current = current.namedChildren[0];
  }
  return current?.type === 'script_block_expression' ? current : undefined;
}

/** A type literal's or cast's type name, lower case, without `System.`; undefined for generic or array types. */
function typeName(node: SyntaxNode): string | undefined {
  const literal = node.type === 'type_literal' ? node : node.namedChildren.find((child) => child?.type === 'type_literal');
  const match = literal ? /^\[\s*([A-Za-z][A-Za-z0-9.]*)\s*\]$/.exec(literal.text) : null;
  return match ? match[1].toLowerCase().replace(/^system\./, '') : undefined;
}

/** A method call on the closed list: `[Math]::Round(...)`, `$_.Name.ToUpper()`. */
function safeInvocation(node: SyntaxNode): boolean {
  const member = node.namedChildren.find((child) => child?.type === 'member_name');
  if (!member || member.namedChildren.some((child) => child?.type !== 'simple_name')) {
    return false;
  }
  const method = member.text.toLowerCase();
  const isStatic = node.children.some((child) => child?.type === '::');
  const type = node.namedChildren.find((child) => child?.type === 'type_literal');
  if (isStatic) {
    const name = type ? typeName(type) : undefined;
    const methods = name === undefined ? undefined : SAFE_STATIC_METHODS[name === 'int32' ? 'int' : name];
    return methods !== undefined && methods.has(method);
  }
  return !type && SAFE_INSTANCE_METHODS.has(method);
}

/**
 * Judges a PowerShell command line. Parser failures and empty lines ask. cmd.exe lines have no
 * policy: judgeCmdLine.
 */
export async function evaluatePowerShellPolicy(command: string, options: CommandPolicyOptions): Promise<CommandVerdict> {
  const tree = await parsePowerShell(command, options.powerShellParser);
  if (!tree) {
    return { decision: 'ask', findings: [{ decision: 'ask', reason: 'the PowerShell parser could not read the command line' }] };
  }
  try {
    const judge = new PowerShellLineJudge(command, options);
    const unread = unreadCharacter(command);
    if (unread) {
      judge.noteLine({ decision: 'ask', reason: unread });
    }
    if (tree.rootNode.hasError) {
      judge.noteLine({ decision: 'ask', reason: 'the PowerShell parser could not make sense of the whole line, so it cannot be checked' });
    }
    await judge.walkStatements(tree.rootNode);
    const floor = wholeLineAskRule(command, options.terminalAskRules);
    if (floor) {
      judge.noteLine(floor);
    }
    return judge.verdict();
  } finally {
    tree.delete();
  }
}

/**
 * Characters PowerShell reads where the grammar does not: typographic quotes are quotes
 * (`Get-Content ‘.env’` reads .env), typographic dashes are dashes, Unicode spaces separate
 * words, a lone carriage return ends a line.
 */
function unreadCharacter(command: string): string | undefined {
  if (/[\u2018-\u201E]/.test(command)) {
    return 'the line has a typographic quote, which PowerShell reads as a quote and this policy does not';
  }
  if (/[\u2013-\u2015]/.test(command)) {
    return 'the line has a typographic dash, which PowerShell reads as a dash and this policy does not';
  }
  if (/[\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\v\f]/.test(command)) {
    return 'the line has a Unicode space, which PowerShell reads as a space between words and this policy does not';
  }
  if (/\r(?!\n)/.test(command)) {
    return 'the line has a carriage return that PowerShell reads as a line end and this policy does not';
  }
  return undefined;
}

/** cmd.exe has no policy: its quoting, `%VAR%` and `!VAR!` expansion and `^` escapes are not parsed here, so every line asks. */
export function judgeCmdLine(): CommandVerdict {
  return { decision: 'ask', findings: [{ decision: 'ask', reason: 'the shell is cmd.exe, whose lines this extension does not check: every cmd line asks (set the default terminal profile to PowerShell to have read-only lines run without asking)' }] };
}
