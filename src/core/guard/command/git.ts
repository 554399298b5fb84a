// git: only the global options that change nothing, then a read-only subcommand whose options are
// all in its table (gitSpecs.ts). Revisions and pathspecs that look like paths, and everything
// after `--`, are judged as reads, so `git diff /dev/null ~/.ssh/id_rsa` (which compares files
// outside the repository) asks. Every folder git may start in must be inside an ordinary
// repository: a bare-looking folder (HEAD, objects/, refs/, config) has a config that can run programs.
import type { Judgement } from '../../decisions';
import { allow, ask, type InvocationJudge } from './judgement';
import { parseOptions, type OptionTable, type ParsedArguments } from './options';
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

export async function judgeGit(args: readonly ShellWord[], judge: InvocationJudge): Promise<Judgement> {
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
  const verdict = await judgeSubcommand(sub, args.slice(globals.index + 1), judge);
  if (verdict.decision !== 'allow') {
    return verdict;
  }
  const where = await judge.gitRepositories(globals.directories);
  return where.decision === 'allow' ? verdict : where;
}

async function judgeSubcommand(sub: string, rest: readonly ShellWord[], judge: InvocationJudge): Promise<Judgement> {
  const known = GIT_SUBCOMMANDS[sub];
  if (known) {
    return judgeParsed(sub, known.table, rest, known.operands, judge);
  }
  const first = rest[0]?.literal ? rest[0].text : undefined;
  switch (sub) {
    case 'branch':
    case 'tag':
      return judgeListing(sub, rest);
    case 'config':
      return judgeConfig(rest, judge);
    case 'remote':
      if (rest.every((word) => word.literal && (word.text === '-v' || word.text === '--verbose'))) {
        return allow('git remote only lists');
      }
      return first === 'get-url' ? judgeParsed('remote get-url', GIT_REMOTE_GET_URL, rest.slice(1), 'names', judge) : ask(`git remote ${first ?? ''} changes or contacts remotes`);
    case 'stash':
      if (first === 'list') {
        return judgeParsed('stash list', GIT_LOG, rest.slice(1), 'revisionsAndPaths', judge);
      }
      return first === 'show' ? judgeParsed('stash show', GIT_STASH_SHOW, rest.slice(1), 'revisionsAndPaths', judge) : ask('git stash changes the stash and the working tree');
    case 'reflog':
      if (first === undefined || first === 'show' || rest[0].text.startsWith('-')) {
        return judgeParsed('reflog', GIT_LOG, first === 'show' ? rest.slice(1) : rest, 'revisionsAndPaths', judge);
      }
      return ask(`git reflog ${first} changes the reflog`);
    case 'worktree':
      return first === 'list' ? judgeParsed('worktree list', GIT_WORKTREE_LIST, rest.slice(1), 'none', judge) : ask('git worktree changes worktrees');
    case 'notes':
      return first === 'list' || first === 'show' ? judgeParsed(`notes ${first}`, GIT_LOG, rest.slice(1), 'revisionsAndPaths', judge) : ask('git notes changes notes');
    default:
      return ask(`git ${sub} is not a read-only git subcommand`);
  }
}

async function judgeParsed(sub: string, table: OptionTable, rest: readonly ShellWord[], operands: GitOperands, judge: InvocationJudge): Promise<Judgement> {
  const outcome = parseOptions(`git ${sub}`, table, rest);
  if (!outcome.ok) {
    return outcome.judgement;
  }
  const paths = operandPaths(sub, outcome.parsed, operands);
  if (typeof paths === 'string') {
    return ask(paths);
  }
  const verdict = paths.length > 0 ? await judge.readPaths(paths) : allow('no paths');
  return verdict.decision === 'allow' ? allow(`git ${sub} only reads the repository`) : verdict;
}

/** The operands judged as reads: everything after `--`, and before it whatever looks like a path. */
function operandPaths(sub: string, parsed: ParsedArguments, kind: GitOperands): ShellWord[] | string {
  let operands = parsed.operands;
  let before = parsed.beforeDashes;
  if (kind === 'none' && operands.length > 0) {
    return `git ${sub} takes no operands, so ${operands[0].source} is not understood`;
  }
  if (kind === 'patternThenRevisionsAndPaths' && !parsed.options.some((option) => ['-e', '-f'].includes(option.name)) && before > 0) {
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
  return operands.filter((word, index) => index >= before || looksLikePath(word.text));
}

function looksLikePath(text: string): boolean {
  return text.includes('/') || text.startsWith('.') || text.startsWith('~');
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
