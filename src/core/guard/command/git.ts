// git: only the global options that change nothing, then a read-only subcommand whose options are
// all in its table (gitSpecs.ts). Revisions and pathspecs that look like paths, and everything
// after `--`, are judged as reads, so `git diff /dev/null ~/.ssh/id_rsa` (which compares files
// outside the repository) asks; a `<rev>:<path>` operand is a read of that path. git runs without
// asking only in a workspace folder's own repository whose config holds only settings known to be
// harmless (gitRepository.ts, gitConfig.ts), or where it would find none, and then with the forced
// options of gitSafety.ts placed on its command line: no program the user's config names can run,
// no transport, and secret files are left out of what it prints.
import * as path from 'node:path';
import type { Judgement } from '../../decisions';
import type { FoundRepository } from './gitRepository';
import { GIT_CONTENT_SUBCOMMANDS, GIT_SECRET_EXCLUDES, GIT_SUBCOMMAND_FLAGS, gitGlobalInsertion, shellQuote } from './gitSafety';
import { allow, ask, type InvocationJudge, type TextInsertion } from './judgement';
import { optionValues, parseOptions, type OptionTable, type ParsedArguments } from './options';
import {
  GIT_BRANCH_LIST, GIT_CONFIG_READ, GIT_LOG, GIT_REMOTE_GET_URL, GIT_STASH_SHOW, GIT_SUBCOMMANDS, GIT_TAG_LIST, GIT_WORKTREE_LIST, type GitOperands,
} from './gitSpecs';
import type { ShellWord } from './shell/words';
const HARMLESS_GLOBALS = new Set(['--no-pager', '-P', '--no-optional-locks', '--literal-pathspecs', '--no-replace-objects', '--glob-pathspecs', '--noglob-pathspecs', '--icase-pathspecs']);
const NETWORK = new Set(['push', 'pull', 'fetch', 'clone', 'ls-remote', 'submodule', 'remote-update', 'send-email', 'request-pull', 'archive']);

interface Globals {
  readonly directories: ShellWord[];
  readonly index: number;
}

/** The global options before the subcommand; a judgement when one of them asks or ends the line. */
function readGlobals(args: readonly ShellWord[]): Globals | Judgement {
  const directories: ShellWord[] = [];
  let index = 0;
  while (index < args.length && (args[index].prefix.startsWith('-') || !args[index].literal)) {
    const word = args[index];
    if (!word.literal || word.expands) {
      return ask(`git gets ${word.source} before its subcommand, which is only known when it runs`);
    }
    if (word.text === '--version' || word.text === '--help') {
      return args.length === index + 1 ? allow(`git ${word.text} only prints information`) : ask(`git ${word.text} with more arguments is not understood`);
    }
    if (word.text === '-C') {
      const folder = args[index + 1];
      if (!folder) {
        return ask('git -C is missing its folder');
      }
      directories.push(folder);
      index += 2;
      continue;
    }
    if (!HARMLESS_GLOBALS.has(word.text)) {
      return ask(`git ${word.text} changes git's configuration, repository or environment for the command, which can make it run programs`);
    }
    index += 1;
  }
  return { directories, index };
}

/** What the policy learnt about a subcommand it allows, to place the forced options. */
interface SubcommandPlan {
  /** The subcommand as gitSafety.ts names it (`stash show`, `reflog`). */
  readonly name: string;
  /** Its last word: the subcommand flags go right after it. */
  readonly lastWord: ShellWord;
  /** The parsed arguments after it, when its table parsed them. */
  readonly parsed?: ParsedArguments;
  readonly operands: GitOperands | 'other';
}

type SubcommandOutcome = { readonly judgement: Judgement; readonly plan?: SubcommandPlan };

export async function judgeGit(gitWord: ShellWord, args: readonly ShellWord[], judge: InvocationJudge): Promise<Judgement> {
  const globals = readGlobals(args);
  if (!('index' in globals)) {
    return globals;
  }
  const subWord = args[globals.index];
  if (!subWord) {
    return allow('git alone only prints help');
  }
  const sub = subWord.text;
  if (!subWord.literal || subWord.expands) {
    return ask(`the git subcommand ${subWord.source} is only known when it runs`);
  }
  if (NETWORK.has(sub)) {
    return ask(`git ${sub} uses the network or changes remote repositories`);
  }
  const outcome = await judgeSubcommand(sub, subWord, args.slice(globals.index + 1), judge);
  if (outcome.judgement.decision !== 'allow') {
    return outcome.judgement;
  }
  const where = await judge.gitRepositories(globals.directories);
  if (where.judgement.decision !== 'allow') {
    return where.judgement;
  }
  const plan = outcome.plan ?? { name: sub, lastWord: subWord, operands: 'other' as const };
  const objects = await judgeObjectOperands(plan, globals.directories, where.repositories, judge);
  if (objects.decision !== 'allow') {
    return objects;
  }
  const edits = safetyEdits(gitWord, args, plan, globals, where.repositories);
  if (typeof edits === 'string') {
    return ask(edits);
  }
  const unplaced = judge.rewrite(edits);
  return unplaced ?? allow(`${outcome.judgement.reason}, with git's safety options`);
}

async function judgeSubcommand(sub: string, subWord: ShellWord, rest: readonly ShellWord[], judge: InvocationJudge): Promise<SubcommandOutcome> {
  const known = GIT_SUBCOMMANDS[sub];
  if (known) {
    return judgeParsed(sub, subWord, known.table, rest, known.operands, judge);
  }
  const first = rest[0]?.literal ? rest[0].text : undefined;
  const only = (judgement: Judgement): SubcommandOutcome => ({ judgement });
  switch (sub) {
    case 'branch':
    case 'tag':
      return only(judgeListing(sub, rest));
    case 'config':
      return only(await judgeConfig(rest, judge));
    case 'remote':
      if (rest.every((word) => word.literal && (word.text === '-v' || word.text === '--verbose'))) {
        return only(allow('git remote only lists'));
      }
      return first === 'get-url' ? judgeParsed('remote get-url', rest[0], GIT_REMOTE_GET_URL, rest.slice(1), 'names', judge) : only(ask(`git remote ${first ?? ''} changes or contacts remotes`));
    case 'stash':
      if (first === 'list') {
        return judgeParsed('stash list', rest[0], GIT_LOG, rest.slice(1), 'revisionsAndPaths', judge);
      }
      return first === 'show' ? judgeParsed('stash show', rest[0], GIT_STASH_SHOW, rest.slice(1), 'revisionsAndPaths', judge) : only(ask('git stash changes the stash and the working tree (and git stash show prints a patch only after approval: it could hold a stashed secret file)'));
    case 'reflog':
      if (first === undefined || first === 'show' || rest[0].text.startsWith('-')) {
        return judgeParsed('reflog', first === 'show' ? rest[0] : subWord, GIT_LOG, first === 'show' ? rest.slice(1) : rest, 'revisionsAndPaths', judge);
      }
      return only(ask(`git reflog ${first} changes the reflog`));
    case 'worktree':
      return first === 'list' ? judgeParsed('worktree list', rest[0], GIT_WORKTREE_LIST, rest.slice(1), 'none', judge) : only(ask('git worktree changes worktrees'));
    case 'notes':
      return first === 'list' || first === 'show' ? judgeParsed(`notes ${first}`, rest[0], GIT_LOG, rest.slice(1), 'revisionsAndPaths', judge) : only(ask('git notes changes notes'));
    default:
      return only(ask(`git ${sub} is not a read-only git subcommand`));
  }
}

async function judgeParsed(sub: string, lastWord: ShellWord, table: OptionTable, rest: readonly ShellWord[], operands: GitOperands, judge: InvocationJudge): Promise<SubcommandOutcome> {
  const outcome = parseOptions(`git ${sub}`, table, rest);
  if (!outcome.ok) {
    return { judgement: outcome.judgement };
  }
  const problem = optionProblem(sub, outcome.parsed);
  if (problem) {
    return { judgement: ask(problem) };
  }
  const paths = operandPaths(sub, outcome.parsed, operands);
  if (typeof paths === 'string') {
    return { judgement: ask(paths) };
  }
  // blame's -L is a range of the file it blames; log's names a file of its own.
  const following = sub === 'blame' || sub === 'annotate' ? [] : lineLogFiles(outcome.parsed);
  if (typeof following === 'string') {
    return { judgement: ask(following) };
  }
  const all = [...paths, ...following];
  const verdict = all.length > 0 ? await judge.readPaths(all) : allow('no paths');
  const judgement = verdict.decision === 'allow' ? allow(`git ${sub} only reads the repository`) : verdict;
  return { judgement, plan: { name: sub, lastWord, parsed: outcome.parsed, operands } };
}

/** Options whose values can run a program or merge again, which the tables cannot say. */
function optionProblem(sub: string, parsed: ParsedArguments): string | undefined {
  const signature = [...optionValues(parsed, '--format', '--pretty')].find((value) => /%G/.test(value.text));
  if (signature) {
    return `git ${sub} ${signature.source} shows signature checks, which run a signature program`;
  }
  const remerge = optionValues(parsed, '--diff-merges').find((value) => /^(r|remerge)$/.test(value.text));
  if (remerge) {
    return `git ${sub} --diff-merges=${remerge.text} merges again, which can run merge drivers`;
  }
  return undefined;
}

/**
 * The files of `-L<range>:<file>` (log's line history), as reads. Only the plain spellings
 * (`-L 1,5:file`, `-L :name:file`) are understood: a regex range can hide where the file starts.
 */
function lineLogFiles(parsed: ParsedArguments): ShellWord[] | string {
  const files: ShellWord[] = [];
  for (const value of optionValues(parsed, '-L')) {
    const match = /^(?:[+-]?\d*(?:,[+-]?\d*)?|:[A-Za-z0-9_.]+):(.+)$/.exec(value.text);
    if (!value.literal || !match) {
      return `git -L ${value.source} is not a line range the policy can read (use -L start,end:file)`;
    }
    files.push(literalWord(match[1], value.source));
  }
  return files;
}

/** The operands before `--`, without grep's pattern: revisions, or paths git finds on the disk. */
function revisionOperands(parsed: ParsedArguments, kind: GitOperands): readonly ShellWord[] {
  const before = parsed.operands.slice(0, parsed.beforeDashes);
  return kind === 'patternThenRevisionsAndPaths' && !hasPatternOption(parsed) ? before.slice(1) : before;
}

function hasPatternOption(parsed: ParsedArguments): boolean {
  return parsed.options.some((option) => ['-e', '-f'].includes(option.name));
}

/**
 * The operands judged as reads: everything after `--`, and before it whatever looks like a path.
 * With --follow every operand is judged: its one path may have any name.
 */
function operandPaths(sub: string, parsed: ParsedArguments, kind: GitOperands): ShellWord[] | string {
  let operands = parsed.operands;
  let before = parsed.beforeDashes;
  if (kind === 'none' && operands.length > 0) {
    return `git ${sub} takes no operands, so ${operands[0].source} is not understood`;
  }
  if (kind === 'patternThenRevisionsAndPaths' && !hasPatternOption(parsed) && before > 0) {
    operands = operands.slice(1);
    before -= 1;
  }
  const hidden = operands.find((word) => !word.literal);
  if (hidden) {
    return `git ${sub} gets ${hidden.source}, which is only known when it runs`;
  }
  if (kind === 'names') {
    return [];
  }
  const following = parsed.options.some((option) => option.name === '--follow');
  return operands.filter((word, index) => following || index >= before || looksLikePath(word.text));
}

function looksLikePath(text: string): boolean {
  return text.includes('/') || text.startsWith('.') || text.startsWith('~');
}

/** A literal word with the given text, for paths the policy derives from an operand. */
function literalWord(text: string, source: string): ShellWord {
  return { text, source, literal: true, expands: false, prefix: text };
}

/** An object name split as git reads it: `<rev>:<path>`, `:<path>`, `:<stage>:<path>`, or a revision alone. */
export function objectNameParts(text: string): { revision: string; path?: string } {
  if (text.startsWith(':/')) {
    return { revision: text };
  }
  const index = /^:[0-3]:/.exec(text);
  if (index) {
    return { revision: index[0], path: text.slice(index[0].length) };
  }
  let depth = 0;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    if (char === '{') {
      depth += 1;
    } else if (char === '}') {
      depth = Math.max(0, depth - 1);
    } else if (char === ':' && depth === 0) {
      return { revision: text.slice(0, at), path: text.slice(at + 1) };
    }
  }
  return { revision: text };
}

/** A full or abbreviated object id, which may name a blob: the policy cannot tell which file's. */
const HEX_ID = /^[0-9a-fA-F]{4,64}$/;

/** Suffixes that only walk commits (`~2`, `^`, `^2`): what they name is a commit. */
const COMMIT_SUFFIX = /^([~^]\d*)+$/;

/**
 * Object operands: `<rev>:<path>` (and `:<path>`) read that path of the repository, judged like
 * reading the file (a secret name is refused as `cat .env` is). A path is from the top of the
 * repository unless it starts with ./ or ../ (then from the folder git runs in). Object ids that may
 * be blobs ask where the subcommand would print the blob (cat-file; show gets `^{commit}` instead).
 */
async function judgeObjectOperands(plan: SubcommandPlan, directories: readonly ShellWord[], repositories: readonly FoundRepository[], judge: InvocationJudge): Promise<Judgement> {
  const parsed = plan.parsed;
  if (!parsed || (plan.operands !== 'revisionsAndPaths' && plan.operands !== 'patternThenRevisionsAndPaths')) {
    return allow('no object operands');
  }
  const revisions = revisionOperands(parsed, plan.operands);
  const reads: ShellWord[] = [];
  for (const word of revisions) {
    const parts = objectNameParts(word.text);
    if (parts.path !== undefined) {
      reads.push(...objectPathReads(parts.path, word.source, directories, repositories));
    }
  }
  const names = parsed.options.map((option) => option.name);
  if (plan.name === 'cat-file' && names.includes('--batch-all-objects') && (names.includes('--batch') || names.includes('--batch-command'))) {
    return ask('git cat-file --batch-all-objects prints every object, secret files\' contents included');
  }
  if (plan.name === 'cat-file' && catFilePrintsContents(parsed)) {
    const byId = revisions.find((word) => objectNameParts(word.text).path === undefined && HEX_ID.test(baseRevision(word.text)));
    if (byId) {
      return ask(`git cat-file ${byId.source} may print a file's contents by its object id, and the policy cannot tell which file (a secret's?); name it as <revision>:<path> instead`);
    }
  }
  if (plan.name === 'diff' && revisions.some((word) => objectNameParts(word.text).path !== undefined)) {
    const byId = revisions.find((word) => objectNameParts(word.text).path === undefined && HEX_ID.test(baseRevision(word.text)));
    if (byId) {
      return ask(`git diff ${byId.source} compares blobs by object id, which may be a secret file's contents; name both as <revision>:<path> instead`);
    }
  }
  if (plan.name === 'show') {
    const unsure = revisions.find((word) => showPeel(word.text) === 'unsure');
    if (unsure) {
      return ask(`git show ${unsure.source} may print a blob by its object id, and the policy cannot tell which file's (a secret's?)`);
    }
  }
  return reads.length > 0 ? judge.readPaths(reads) : allow('no object paths');
}

function objectPathReads(objectPath: string, source: string, directories: readonly ShellWord[], repositories: readonly FoundRepository[]): ShellWord[] {
  if (objectPath.startsWith('./') || objectPath.startsWith('../') || objectPath === '.' || objectPath === '..') {
    let relative = '';
    for (const folder of directories) {
      relative = folder.text.startsWith('/') || relative === '' ? folder.text : `${relative}/${folder.text}`;
    }
    return [literalWord(relative === '' ? objectPath : `${relative}/${objectPath}`, source)];
  }
  const tops = repositories.flatMap((repository) => (repository.kind === 'own' ? [repository.top] : []));
  return tops.length > 0 ? tops.map((top) => literalWord(path.posix.join(top, objectPath), source)) : [literalWord(objectPath === '' ? '.' : objectPath, source)];
}

/** The revision without its leading `^` and its suffixes (`~2`, `^{tree}`, `@{1}`). */
function baseRevision(text: string): string {
  return /^\^?([^~^@]*)/.exec(text)?.[1] ?? text;
}

/** What `git show` does with an operand: prints a commit, needs `^{commit}` to be sure, or may print a blob. */
function showPeel(text: string): 'fine' | 'peel' | 'unsure' {
  if (objectNameParts(text).path !== undefined || text.includes('..')) {
    return 'fine';
  }
  const base = baseRevision(text.replace(/^\^/, ''));
  if (!HEX_ID.test(base)) {
    return 'fine';
  }
  const suffix = text.replace(/^\^/, '').slice(base.length);
  return suffix === '' ? 'peel' : COMMIT_SUFFIX.test(suffix) ? 'fine' : 'unsure';
}

/** cat-file prints an object's contents unless it only asks for its type, size or existence. */
function catFilePrintsContents(parsed: ParsedArguments): boolean {
  return !parsed.options.some((option) => ['-t', '-s', '-e'].includes(option.name));
}

interface GlobalsSeen {
  readonly index: number;
  readonly directories: readonly ShellWord[];
}

/**
 * Where the forced options go: after `git`, after the subcommand, `^{commit}` after object ids
 * `git show` gets, and the secret excludes after the last argument. A string says why they
 * cannot be placed.
 */
function safetyEdits(gitWord: ShellWord, args: readonly ShellWord[], plan: SubcommandPlan, globals: GlobalsSeen, repositories: readonly FoundRepository[]): TextInsertion[] | string {
  const unplaceable = 'the policy cannot tell where to put git\'s safety options in this line';
  if (gitWord.end === undefined || plan.lastWord.end === undefined) {
    return unplaceable;
  }
  const drivers = [...new Set(repositories.flatMap((repository) => (repository.kind === 'own' ? repository.filterDrivers : [])))].sort();
  const oddDriver = drivers.find((name) => !/^[A-Za-z0-9._-]+$/.test(name));
  if (oddDriver !== undefined) {
    return `the git config names a filter driver ${JSON.stringify(oddDriver)} that the policy cannot switch off on the command line`;
  }
  const edits: TextInsertion[] = [{ at: gitWord.end, text: gitGlobalInsertion(drivers) }];
  const flags = GIT_SUBCOMMAND_FLAGS[plan.name];
  if (flags) {
    edits.push({ at: plan.lastWord.end, text: flags.map((flag) => ` ${flag}`).join('') });
  }
  const parsed = plan.parsed;
  if (!parsed || (plan.operands !== 'revisionsAndPaths' && plan.operands !== 'patternThenRevisionsAndPaths')) {
    return edits;
  }
  if (plan.name === 'show') {
    for (const word of revisionOperands(parsed, plan.operands)) {
      if (showPeel(word.text) === 'peel') {
        if (word.end === undefined) {
          return unplaceable;
        }
        edits.push({ at: word.end, text: shellQuote('^{commit}') });
      }
    }
  }
  if (!GIT_CONTENT_SUBCOMMANDS.has(plan.name) || !repositories.some((repository) => repository.kind === 'own')) {
    return edits;
  }
  if (parsed.options.some((option) => option.name === '--follow' || option.name === '-L')) {
    // git takes exactly one pathspec with --follow and none with -L; that file was judged as a read.
    return edits;
  }
  if (plan.name === 'diff' && revisionOperands(parsed, plan.operands).some((word) => objectNameParts(word.text).path !== undefined)) {
    // A diff of two blobs takes no pathspecs; both were judged as reads of their paths.
    return edits;
  }
  if (args.slice(0, globals.index).some((word) => word.text === '--literal-pathspecs')) {
    return 'git --literal-pathspecs would read the pathspecs that leave secret files out of its output as file names';
  }
  const last = args[args.length - 1];
  if (last.end === undefined) {
    return unplaceable;
  }
  // Without `--`, git takes pathspec magic (`:(...)`) as paths after any revisions; with it, as paths anyway.
  edits.push({ at: last.end, text: GIT_SECRET_EXCLUDES.map((pathspec) => ` ${shellQuote(pathspec)}`).join('') });
  return edits;
}

/** `git branch` / `git tag` list without operands, or with patterns after -l/--list; anything else changes refs. */
function judgeListing(sub: 'branch' | 'tag', rest: readonly ShellWord[]): Judgement {
  const outcome = parseOptions(`git ${sub}`, sub === 'branch' ? GIT_BRANCH_LIST : GIT_TAG_LIST, rest);
  if (!outcome.ok) {
    return ask(`${outcome.judgement.reason} (git ${sub} creates, renames or deletes with most options)`);
  }
  const listing = outcome.parsed.options.some((option) => ['-l', '--list', '--show-current'].includes(option.name));
  if (outcome.parsed.operands.length > 0 && !listing) {
    return ask(`git ${sub} ${outcome.parsed.operands[0].source} creates a ${sub}`);
  }
  return allow(`git ${sub} only lists`);
}

/** `git config` only reads with one of its reading options (or the get/list subcommands). */
async function judgeConfig(rest: readonly ShellWord[], judge: InvocationJudge): Promise<Judgement> {
  const first = rest[0]?.literal ? rest[0].text : '';
  const subcommand = first === 'get' || first === 'list';
  const outcome = parseOptions('git config', GIT_CONFIG_READ, subcommand ? rest.slice(1) : rest);
  if (!outcome.ok) {
    return outcome.judgement;
  }
  const parsed = outcome.parsed;
  const reading = subcommand || parsed.options.some((option) => /^--(get|get-all|get-regexp|get-urlmatch|list)$|^-l$/.test(option.name));
  if (!reading) {
    return ask('git config without --get or --list changes git settings');
  }
  const files = parsed.options.filter((option) => option.name === '--file').flatMap((option) => option.values);
  const verdict = files.length > 0 ? await judge.readPaths(files) : allow('no paths');
  return verdict.decision === 'allow' ? allow('git config only reads settings') : verdict;
}
