// git: the read-only subcommands run without asking; global options that change configuration,
// network subcommands and anything that changes the repository or the working tree ask.
import type { Judgement } from '../../decisions';
import { allow, ask, positional, unpredictable, type InvocationJudge } from './judgement';
import type { ShellWord } from './shell/words';

const GIT_READ_ONLY = new Set([
  'status', 'diff', 'log', 'show', 'blame', 'annotate', 'shortlog', 'describe', 'rev-parse', 'rev-list', 'ls-files',
  'ls-tree', 'cat-file', 'diff-tree', 'diff-files', 'diff-index', 'merge-base', 'name-rev', 'grep', 'whatchanged',
  'count-objects', 'check-ignore', 'check-attr', 'show-ref', 'for-each-ref', 'version', 'help', 'var', 'cherry',
  'range-diff', 'show-branch', 'verify-commit', 'verify-tag',
]);

const GIT_NETWORK = new Set(['push', 'pull', 'fetch', 'clone', 'ls-remote', 'submodule', 'remote-update', 'send-email', 'request-pull']);

export async function judgeGit(args: readonly ShellWord[], judge: InvocationJudge): Promise<Judgement> {
  let index = 0;
  const directories: ShellWord[] = [];
  while (index < args.length && args[index].text.startsWith('-')) {
    const option = args[index].text;
    if (['--version', '-v', '--help', '-h', '--html-path', '--man-path', '--info-path'].includes(option)) {
      return allow(`git ${option} only prints information`);
    }
    if (option === '-C') {
      if (args[index + 1]) {
        directories.push(args[index + 1]);
      }
      index += 2;
    } else if (['--no-pager', '-P', '--paginate', '-p', '--no-optional-locks', '--literal-pathspecs', '--no-replace-objects', '--bare'].includes(option)) {
      index += 1;
    } else {
      return ask(`git ${option} changes git's configuration for the command, which can make it run programs`);
    }
  }
  const hidden = unpredictable(args);
  if (hidden) {
    return ask(`git gets the argument ${hidden.source}, which is only known when it runs`);
  }
  const sub = args[index]?.text;
  const rest = args.slice(index + 1);
  if (sub === undefined) {
    return allow('git alone only prints help');
  }
  if (GIT_NETWORK.has(sub)) {
    return ask(`git ${sub} uses the network or changes remote repositories`);
  }
  const written = rest.find((word) => /^(--output|-o$|--ext-diff|--open-files-in-pager|-O)/.test(word.text));
  if (written) {
    return ask(`git ${sub} ${written.text} writes a file or runs a program`);
  }
  const listing = gitListingVerdict(sub, rest);
  if (listing) {
    return listing;
  }
  if (!GIT_READ_ONLY.has(sub)) {
    return ask(`git ${sub} changes the repository or the working tree`);
  }
  const where = await judge.readPaths(directories);
  return where.decision === 'allow' ? allow(`git ${sub} only reads the repository`) : where;
}

/** git commands that list by default and change things with arguments. */
function gitListingVerdict(sub: string, rest: readonly ShellWord[]): Judgement | undefined {
  const texts = rest.map((word) => word.text);
  const changes = (reason: string): Judgement => ask(`git ${sub} ${texts.join(' ')} ${reason}`.replace(/\s+/g, ' '));
  switch (sub) {
    case 'branch':
    case 'tag': {
      const listing = texts.some((text) => text === '-l' || text === '--list' || text === '--show-current');
      const flags = sub === 'branch' ? /^(-[dDmMcCfut]|--delete|--move|--copy|--force|--set-upstream|--unset-upstream|--edit-description|--track)/ : /^(-[dfasemuF]|--delete|--force|--annotate|--sign|--message|--file|--local-user|--edit)/;
      const modifying = texts.some((text) => flags.test(text));
      if (modifying || (!listing && positional(rest).length > 0)) {
        return changes(`creates, renames or deletes a ${sub}`);
      }
      return allow(`git ${sub} only lists`);
    }
    case 'remote':
      return texts.every((text) => text === '-v' || text === '--verbose') || texts[0] === 'get-url' ? allow('git remote only lists') : changes('changes or contacts remotes');
    case 'stash':
      return texts[0] === 'list' || texts[0] === 'show' ? allow(`git stash ${texts[0]} only reads`) : changes('changes the stash and the working tree');
    case 'config': {
      const reading = texts.some((text) => /^(--get|--get-all|--get-regexp|--get-urlmatch|--list|-l)$/.test(text));
      const writing = texts.some((text) => /^(--add|--unset|--unset-all|--replace-all|--edit|-e|--rename-section|--remove-section)$/.test(text));
      return reading && !writing ? allow('git config only reads settings') : changes('changes git settings');
    }
    case 'reflog':
      return texts.length === 0 || texts[0] === 'show' || texts[0].startsWith('-') ? allow('git reflog only lists') : changes('changes the reflog');
    case 'worktree':
      return texts[0] === 'list' ? allow('git worktree list only lists') : changes('changes worktrees');
    case 'notes':
      return texts[0] === 'list' || texts[0] === 'show' ? allow('git notes only reads') : changes('changes notes');
    default:
      return undefined;
  }
}

