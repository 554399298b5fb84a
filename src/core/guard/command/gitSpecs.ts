// The option tables of git's read-only subcommands (git's parse-options: clusters, attached values,
// `--name=value`; its abbreviations of long options are not accepted here). Options that write a
// file, run a program (external diff, textconv filters, a pager on files) or reach outside the
// repository are listed under `asks`; any option not in a table asks too. Options that enter
// submodules (whose configs are not the workspace's), verify signatures (a program) or merge
// again (merge drivers) are left out of the tables, so they ask.
import { optionTable, type OptionTable } from './options';

const WRITES = 'writes a file';
const RUNS = 'runs a program configured outside the command line';

/** Options that ask in every subcommand that parses them. */
const GIT_ASKS: Readonly<Record<string, string>> = {
  '--output': WRITES,
  '--ext-diff': RUNS,
  '--textconv': RUNS,
  '--filters': RUNS,
  '--no-index': 'compares or searches files outside the repository',
  '-O': 'opens files in a pager or reads an order file',
  '--open-files-in-pager': 'opens the files in a pager, which runs a program',
  '--upload-pack': RUNS,
  '--exec': RUNS,
  '--contents': 'reads the file it names instead of the working tree',
};

const DIFF_SHORT = 'puU?stzB?M?C?Dl:S:G:RaWwbI:X?0123cm';
const DIFF_LONG =
  'patch no-patch unified? output-indicator-new= output-indicator-old= output-indicator-context= raw patch-with-raw indent-heuristic ' +
  'no-indent-heuristic minimal patience histogram anchored= diff-algorithm= stat? stat-width= stat-name-width= stat-count= stat-graph-width= ' +
  'compact-summary numstat shortstat dirstat? cumulative dirstat-by-file? summary patch-with-stat name-only name-status ' +
  'color? no-color color-moved? no-color-moved color-moved-ws= no-color-moved-ws word-diff? word-diff-regex= color-words? no-renames ' +
  'rename-empty no-rename-empty check ws-error-highlight= full-index binary abbrev? no-abbrev break-rewrites? find-renames? find-copies? ' +
  'find-copies-harder irreversible-delete diff-filter= find-object= pickaxe-all pickaxe-regex skip-to= rotate-to= relative? no-relative ' +
  'text ignore-cr-at-eol ignore-space-at-eol ignore-space-change ignore-all-space ignore-blank-lines ignore-matching-lines= ' +
  'inter-hunk-context= function-context exit-code quiet no-ext-diff no-textconv src-prefix= dst-prefix= no-prefix ' +
  'default-prefix line-prefix= ita-invisible-in-index ita-visible-in-index cached staged merge-base base ours theirs diff-merges= ' +
  'no-diff-merges combined-all-paths cc dd first-parent';

const LOG_SHORT = 'n:iEFPgL:';
const LOG_LONG =
  'max-count= skip= since= after= until= before= since-as-filter= author= committer= grep-reflog= grep= all-match invert-grep ' +
  'regexp-ignore-case extended-regexp fixed-strings perl-regexp basic-regexp merges no-merges min-parents= max-parents= no-min-parents ' +
  'no-max-parents exclude-first-parent-only not all branches? tags? remotes? glob= exclude= reflog single-worktree ' +
  'ignore-missing bisect stdin cherry-mark cherry-pick left-only right-only cherry walk-reflogs merge boundary simplify-by-decoration ' +
  'show-pulls full-history dense sparse simplify-merges ancestry-path? date-order author-date-order topo-order reverse no-walk? do-walk ' +
  'pretty? format= abbrev-commit no-abbrev-commit oneline encoding= expand-tabs? no-expand-tabs notes? no-notes show-notes? ' +
  'relative-date date= parents children left-right graph show-linear-break? decorate? no-decorate decorate-refs= ' +
  'decorate-refs-exclude= source mailmap no-mailmap use-mailmap no-use-mailmap full-diff log-size follow no-follow clear-decorations ' +
  'count no-graph';

const NUMBER = /^-\d+$/;

function table(short: string, long: string, extra: { numeric?: boolean; asks?: Readonly<Record<string, string>> } = {}): OptionTable {
  return optionTable(short, `${long} help`, { ...GIT_ASKS, ...extra.asks }, extra.numeric ? { numericOption: NUMBER } : {});
}

const LOG = table(LOG_SHORT + DIFF_SHORT, `${LOG_LONG} ${DIFF_LONG}`, { numeric: true });
const DIFF = table(DIFF_SHORT, DIFF_LONG);
const DIFF_PLUMBING = table(`${DIFF_SHORT}rtv`, `${DIFF_LONG} root stdin always no-commit-id pretty? format= ${LOG_LONG}`, { numeric: true });

/** What the operands of a subcommand are besides revisions and pathspecs. */
export type GitOperands = 'revisionsAndPaths' | 'patternThenRevisionsAndPaths' | 'none' | 'names';

export interface GitSubcommand {
  readonly table: OptionTable;
  readonly operands: GitOperands;
}

const sub = (t: OptionTable, operands: GitOperands = 'revisionsAndPaths'): GitSubcommand => ({ table: t, operands });

/** The read-only subcommands of git and how their arguments are read. */
export const GIT_SUBCOMMANDS: Readonly<Record<string, GitSubcommand>> = {
  status: sub(table('sbu?zM?', 'short branch show-stash porcelain? long untracked-files? ignored? null column? no-column ahead-behind no-ahead-behind renames no-renames find-renames?')),
  diff: sub(DIFF),
  log: sub(LOG),
  whatchanged: sub(LOG),
  show: sub(LOG),
  'rev-list': sub(LOG),
  'diff-tree': sub(DIFF_PLUMBING),
  'diff-files': sub(DIFF_PLUMBING),
  'diff-index': sub(DIFF_PLUMBING),
  blame: sub(table('bL:ltS@pcfnsewM?C?h', 'root show-stats reverse first-parent porcelain line-porcelain incremental encoding= date= progress no-progress ignore-rev= ignore-revs-file=@ color-lines color-by-age show-name show-number show-email abbrev? score-debug minimal')),
  annotate: sub(table('bL:ltS@pcfnsewM?C?h', 'root show-stats reverse first-parent porcelain line-porcelain incremental encoding= date= progress no-progress ignore-rev= ignore-revs-file=@ color-lines color-by-age show-name show-number show-email abbrev? score-debug minimal')),
  'rev-parse': sub(table('q', 'parseopt sq-quote keep-dashdash stop-at-non-option stuck-long revs-only no-revs flags no-flags default= prefix= verify quiet sq short? not abbrev-ref? symbolic symbolic-full-name all branches? tags? remotes? glob= exclude= exclude-hidden= disambiguate= local-env-vars path-format= git-dir git-common-dir resolve-git-dir=@ git-path= show-toplevel shared-index-path absolute-git-dir is-inside-git-dir is-inside-work-tree is-bare-repository is-shallow-repository show-cdup show-prefix show-object-format? show-ref-format since= after= until= before=')),
  'ls-files': sub(table('cdmoiskuzx:X@tvf', 'cached deleted modified others ignored stage unmerged killed directory no-empty-directory eol deduplicate exclude= exclude-from=@ exclude-per-directory= exclude-standard error-unmatch with-tree= full-name abbrev? debug sparse format=')),
  'ls-tree': sub(table('drtlz', 'long name-only name-status object-only full-name full-tree abbrev? format=')),
  'cat-file': sub(table('tsepZ', 'batch? batch-check? batch-command? batch-all-objects buffer follow-symlinks unordered allow-unknown-type mailmap use-mailmap no-mailmap path=')),
  describe: sub(table('', 'dirty? broken? all tags contains abbrev= candidates= exact-match debug long match= exclude= always first-parent')),
  shortlog: sub(table('nseciEFPgL:w?', `numbered summary email format= group= committer ${LOG_LONG}`, { numeric: true })),
  grep: sub(
    table('aiIrwvhHEGFPnlLzocpC:A:B:Wf@e:qm:', 'cached untracked no-exclude-standard exclude-standard text no-textconv ignore-case max-depth= recursive no-recursive word-regexp invert-match full-name extended-regexp basic-regexp fixed-strings perl-regexp line-number column files-with-matches name-only files-without-match null only-matching count color? no-color break heading show-function context= after-context= before-context= function-context threads= and or not all-match quiet max-count=', { numeric: true }),
    'patternThenRevisionsAndPaths',
  ),
  'merge-base': sub(table('a', 'all octopus independent is-ancestor fork-point')),
  'name-rev': sub(table('', 'tags refs= exclude= all annotate-stdin name-only no-undefined always')),
  'show-ref': sub(table('dsq', 'head branches tags heads dereference hash? verify abbrev? quiet exists')),
  'for-each-ref': sub(table('', 'count= sort= format= color? shell perl python tcl points-at= merged? no-merged? contains? no-contains? ignore-case omit-empty exclude= include-root-refs'), 'names'),
  'count-objects': sub(table('vH', 'verbose human-readable'), 'none'),
  'check-ignore': sub(table('qvnz', 'quiet verbose non-matching stdin')),
  'check-attr': sub(table('az', 'all cached stdin source=')),
  version: sub(table('', 'build-options'), 'none'),
  var: sub(table('l', ''), 'names'),
  cherry: sub(table('v', 'abbrev?')),
  'range-diff': sub(table(DIFF_SHORT + LOG_SHORT, `creation-factor= no-dual-color left-only right-only ${DIFF_LONG} ${LOG_LONG}`, { numeric: true })),
  'show-branch': sub(table('arg', 'all remotes topo-order date-order current sparse more= list independent merge-base no-name sha1-name topics reflog? color? no-color')),
};

/** `git branch` and `git tag` when they only list: operands are patterns only with -l/--list. */
export const GIT_BRANCH_LIST = table('arlvqi', 'all remotes list verbose quiet show-current contains? no-contains? merged? no-merged? points-at= sort= format= color? no-color column? no-column abbrev= no-abbrev ignore-case omit-empty');
export const GIT_TAG_LIST = table('ln?i', 'list sort= format= contains? no-contains? merged? no-merged? points-at= column? no-column ignore-case color? omit-empty');
export const GIT_CONFIG_READ = table('lz', 'get get-all get-regexp get-urlmatch list show-origin show-scope name-only null global system local worktree file=@ blob= type= bool int bool-or-int path expiry-date default= includes no-includes');
/** `git stash show` without asking only prints which files changed: a patch could hold a stashed secret file, and it takes no pathspecs to leave those out. */
export const GIT_STASH_SHOW = table('', 'stat? numstat shortstat name-only name-status summary compact-summary');
export const GIT_LOG = LOG;
export const GIT_REMOTE_GET_URL = table('', 'push all');
export const GIT_WORKTREE_LIST = table('vz', 'porcelain verbose expire=');
