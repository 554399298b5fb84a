// The closed list of read-only programs: for each, every option it may be given without asking
// (spelled exactly; see optionTable in options.ts for the notation) and what its operands are.
// An option or program that is not here asks. Options that write, run programs or change state
// are listed under `asks` so the question names what they do. sed, awk, find, git, test and the
// wrappers have modules of their own; their option tables are here too where getopt reads them.
import { optionTable, type OptionTable, type ParsedArguments } from './options';

/** What a program's operands (the words that are not options) are. */
export type OperandRule =
  /** Files or folders the program reads; `max` operands at most, more ask with `beyond`. */
  | { readonly kind: 'paths'; readonly max?: number; readonly beyond?: string }
  /** Text that is never opened (names, numbers, formats, sets of characters). */
  | { readonly kind: 'inert' }
  /** The first operand is a pattern (unless an option gave one), the rest are paths. */
  | { readonly kind: 'patternThenPaths'; readonly patternOptions: readonly string[] }
  /** Any operand asks, with this reason. */
  | { readonly kind: 'none'; readonly reason: string };

export interface ProgramSpec {
  readonly table: OptionTable;
  readonly operands: OperandRule;
  /** A last look at the parsed arguments for what the table cannot say; a string asks with it. */
  readonly check?: (parsed: ParsedArguments) => string | undefined;
  /** Operands starting with `@` name a file of more options (binutils response files). */
  readonly responseFiles?: boolean;
  /**
   * The program reads the files inside a folder operand, following symbolic links there (diff):
   * a folder operand asks unless one of these options turns the following off.
   */
  readonly followsLinksInFolders?: { readonly unless: readonly string[] };
}

const HELP = 'help version';
const PATHS: OperandRule = { kind: 'paths' };
const INERT: OperandRule = { kind: 'inert' };

function spec(short: string, long: string, operands: OperandRule, asks: Readonly<Record<string, string>> = {}, extra: Partial<OptionTable> = {}): ProgramSpec {
  return { table: optionTable(short, `${long} ${HELP}`, asks, extra), operands };
}

const WRITES_FILE = 'writes a file';
/** Following links while walking a tree can read anything a link in the workspace points at. */
const FOLLOWS_LINKS = 'follows symbolic links, which can lead it out of the workspace';
/** A list of names in a file (or on standard input) names files no one can judge before they are read. */
const NAMES_FROM_FILE = 'reads the names of the files to open from a file or standard input, which cannot be checked before they are read';
const FILES0_FROM = { '--files0-from': NAMES_FROM_FILE };

const GREP = spec(
  'EFGPe:f@iyvwxcLlm:oqsbHhnTZA:B:C:aD:d:rRUz',
  'extended-regexp fixed-strings basic-regexp perl-regexp regexp= file=@ ignore-case no-ignore-case word-regexp line-regexp null-data ' +
    'no-messages invert-match count color? colour? files-without-match files-with-matches max-count= only-matching quiet silent ' +
    'byte-offset with-filename no-filename label= line-number initial-tab null after-context= before-context= context= text ' +
    'binary-files= devices= directories= exclude= exclude-from=@ exclude-dir= include= recursive dereference-recursive line-buffered binary',
  { kind: 'patternThenPaths', patternOptions: ['-e', '-f', '--regexp', '--file'] },
  { '-R': FOLLOWS_LINKS, '--dereference-recursive': FOLLOWS_LINKS },
  { numericOption: /^-\d+$/ },
);

const RG_LONG =
  'after-context= before-context= context= context-separator= no-context-separator encoding= no-encoding text no-text byte-offset ' +
  'no-byte-offset count count-matches color= colors= column no-column crlf no-crlf debug trace dfa-size-limit= max-depth= maxdepth= ' +
  'regexp= file=@ files fixed-strings no-fixed-strings follow no-follow glob= iglob= glob-case-insensitive no-glob-case-insensitive ' +
  'heading no-heading hidden no-hidden with-filename no-filename ignore-case ignore-file=@ ignore-file-case-insensitive ' +
  'no-ignore-file-case-insensitive include-zero no-include-zero invert-match no-invert-match json no-json files-with-matches ' +
  'files-without-match line-buffered no-line-buffered line-number no-line-number line-regexp max-columns= max-columns-preview ' +
  'no-max-columns-preview max-count= max-filesize= mmap no-mmap multiline no-multiline multiline-dotall no-multiline-dotall no-config ' +
  'no-ignore no-ignore-dot no-ignore-exclude no-ignore-files no-ignore-global no-ignore-messages no-ignore-parent no-ignore-vcs ' +
  'ignore-dot ignore-exclude ignore-files ignore-global ignore-messages ignore-parent ignore-vcs no-messages messages ' +
  'no-pcre2-unicode pcre2-unicode null null-data one-file-system no-one-file-system only-matching passthru passthrough ' +
  'path-separator= pcre2 no-pcre2 pcre2-version pretty quiet regex-size-limit= replace= search-zip no-search-zip smart-case ' +
  'no-smart-case sort= sortr= stats no-stats stop-on-nonmatch threads= trim no-trim type= type-not= type-list type-add= type-clear= ' +
  'unrestricted vimgrep word-regexp case-sensitive auto-hybrid-regex no-auto-hybrid-regex engine= field-context-separator= ' +
  'field-match-separator= block-buffered no-block-buffered no-unicode unicode hyperlink-format= binary no-binary generate=';

const RUNS_PROGRAM = 'runs another program';

const RG = spec('A:B:C:E:abcd:e:f@Fg:HhiIj:lLm:M:nNopPqr:sSt:T:uUvVwxz0', RG_LONG, { kind: 'patternThenPaths', patternOptions: ['-e', '-f', '--regexp', '--file', '--files', '--type-list', '--pcre2-version', '--generate'] }, {
  '--pre': 'runs a program on every file it searches',
  '--pre-glob': 'chooses files for --pre, which runs a program',
  '--hostname-bin': RUNS_PROGRAM,
  '-L': FOLLOWS_LINKS,
  '--follow': FOLLOWS_LINKS,
});

/** --check reads the files a checksum list names, wherever they are. */
const CHECKS_LISTED_FILES = { '-c': NAMES_FROM_FILE, '--check': NAMES_FROM_FILE };
const CHECKSUM = spec('bctwz', 'binary check tag text zero ignore-missing quiet status strict warn', PATHS, CHECKS_LISTED_FILES);

const GNU_AWK_LONG = 'assign= field-separator= characters-as-bytes traditional copyright source= gen-pot trace csv lint? bignum use-lc-numeric non-decimal-data optimize posix re-interval no-optimize sandbox lint-old';
const LOADS_CODE = 'loads a program from a file, which cannot be checked';

/** awk's options (gawk's, which include mawk's and the one-true-awk's); the program is judged in awk.ts. */
export const AWK_TABLE: OptionTable = optionTable('F:v:bcCe:gkL?MnNOPrsStV', `${GNU_AWK_LONG} ${HELP}`, {
  '-f': LOADS_CODE,
  '--file': LOADS_CODE,
  '-E': LOADS_CODE,
  '--exec': LOADS_CODE,
  '-i': LOADS_CODE,
  '--include': LOADS_CODE,
  '-l': 'loads a compiled extension, which can do anything',
  '--load': 'loads a compiled extension, which can do anything',
  '-d': 'writes its variables to a file',
  '--dump-variables': 'writes its variables to a file',
  '-D': 'starts the debugger, which can run commands',
  '--debug': 'starts the debugger, which can run commands',
  '-o': 'writes the program to a file',
  '--pretty-print': 'writes the program to a file',
  '-p': 'writes a profile to a file',
  '--profile': 'writes a profile to a file',
  '-W': "passes mawk's -W options, which include exec",
});

/** sed's options; the script is judged in sed.ts. */
export const SED_TABLE: OptionTable = optionTable('nrEsuze:l:', `quiet silent debug expression= regexp-extended separate unbuffered null-data line-length= posix sandbox follow-symlinks ${HELP}`, {
  '-f': 'runs a script from a file, which cannot be checked',
  '--file': 'runs a script from a file, which cannot be checked',
  '-i': 'edits files in place',
  '--in-place': 'edits files in place',
});

/** jq's options; `--arg name value` and friends take two words. */
export const JQ_TABLE: OptionTable = (() => {
  const table = optionTable(
    'nRsrjacCMSehV0bfL@',
    `null-input raw-input slurp raw-output raw-output0 join-output ascii-output compact-output color-output monochrome-output sort-keys exit-status from-file tab indent= unbuffered stream stream-errors seq args jsonargs build-configuration binary ${HELP}`,
  );
  return {
    ...table,
    long: {
      ...table.long,
      arg: { value: 'required', kinds: ['inert', 'inert'] },
      argjson: { value: 'required', kinds: ['inert', 'inert'] },
      slurpfile: { value: 'required', kinds: ['inert', 'path'] },
      rawfile: { value: 'required', kinds: ['inert', 'path'] },
    },
  };
})();

/** ls walks folders with -R; with -L too it follows the links it meets there. */
function recursiveListing(ls: ProgramSpec): ProgramSpec {
  const has = (parsed: ParsedArguments, ...names: string[]): boolean => parsed.options.some((option) => names.includes(option.name));
  return { ...ls, check: (parsed) => (has(parsed, '-R', '--recursive') && has(parsed, '-L', '--dereference') ? `ls -R -L ${FOLLOWS_LINKS}` : undefined) };
}

/** The programs that run without asking when every option is known and every path is allowed. */
export const PROGRAM_SPECS: Readonly<Record<string, ProgramSpec>> = {
  ls: recursiveListing(spec(
    'aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1I:T:w:',
    'all almost-all author escape block-size= ignore-backups color? classify? file-type format= full-time group-directories-first no-group ' +
      'human-readable si dereference-command-line dereference-command-line-symlink-to-dir hide= hyperlink? indicator-style= inode ' +
      'ignore= kibibytes dereference numeric-uid-gid literal hide-control-chars show-control-chars quote-name quoting-style= reverse ' +
      'recursive size sort= time= time-style= tabsize= width= context zero',
    PATHS,
  )),
  cat: spec('AbeEnstTuv', 'show-all number-nonblank show-ends number squeeze-blank show-tabs show-nonprinting', PATHS),
  head: spec('c:n:qvz', 'bytes= lines= quiet silent verbose zero-terminated', PATHS, {}, { numericOption: /^-\d+[bkmclqv]?$/ }),
  tail: spec('c:n:fFqvzs:', 'bytes= lines= follow? retry pid= quiet silent sleep-interval= verbose zero-terminated max-unchanged-stats= debug', PATHS, {}, { numericOption: /^-\d+[bcfl]?$/ }),
  wc: spec('clmwL', 'bytes chars lines max-line-length words files0-from=@ total= debug', PATHS, FILES0_FROM),
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: RG,
  sort: spec(
    'bcCdfgGhiMmnRrsuVzk:t:S:',
    'ignore-leading-blanks dictionary-order ignore-case general-numeric-sort ignore-nonprinting month-sort human-numeric-sort numeric-sort ' +
      'random-sort random-source=@ reverse sort= version-sort batch-size= check? debug files0-from=@ key= merge parallel= stable ' +
      'buffer-size= field-separator= unique zero-terminated',
    PATHS,
    {
      '-o': WRITES_FILE,
      '--output': WRITES_FILE,
      '-T': 'writes temporary files in the folder it names',
      '--temporary-directory': 'writes temporary files in the folder it names',
      '--compress-program': 'runs a program to compress its temporary files',
      ...FILES0_FROM,
    },
  ),
  uniq: { ...spec('cdDf:is:uw:z', 'count repeated all-repeated? skip-fields= ignore-case skip-chars= unique zero-terminated check-chars= group?', { kind: 'paths', max: 1, beyond: 'writes its second file name' }, {}, { numericOption: /^-\d+$/ }) },
  cut: spec('b:c:d:f:nsz', 'bytes= characters= delimiter= fields= complement only-delimited output-delimiter= zero-terminated', PATHS),
  tr: spec('cCdst', 'complement delete squeeze-repeats truncate-set1', INERT),
  nl: spec('b:d:f:h:i:l:n:ps:v:w:', 'body-numbering= section-delimiter= footer-numbering= header-numbering= line-increment= join-blank-lines= number-format= no-renumber number-separator= starting-line-number= number-width=', PATHS),
  tac: spec('brs:', 'before regex separator=', PATHS),
  rev: spec('hV0', 'zero', PATHS),
  od: spec('A:abcdfij:lN:osS:t:vw?x', 'address-radix= endian= skip-bytes= read-bytes= strings? format= output-duplicates width? traditional', PATHS),
  hexdump: spec('bcCde:f@n:os:vxL?', 'one-byte-octal one-byte-char canonical two-bytes-decimal two-bytes-octal two-bytes-hex format= format-file=@ color? length= skip= no-squeezing', PATHS),
  // xxd reads its options itself: whole words only (no clusters), its long names by any prefix, so
  // only the short spellings are known here.
  xxd: { table: { short: {}, long: optionTable('', 'a b C c= E e g= h i l= n= o= p ps r R= s= u v d').long, permute: true, longOnly: true }, operands: { kind: 'paths', max: 1, beyond: 'writes its second file name' } },
  strings: { ...spec('adfn:t:e:owT:s:U:', 'all data print-file-name bytes= radix= encoding= target= include-all-whitespace output-separator= unicode=', PATHS, {}, { numericOption: /^-\d+$/ }), responseFiles: true },
  md5sum: CHECKSUM,
  sha1sum: CHECKSUM,
  sha224sum: CHECKSUM,
  sha256sum: CHECKSUM,
  sha384sum: CHECKSUM,
  sha512sum: CHECKSUM,
  b2sum: spec('bctwzl:', 'binary check tag text zero ignore-missing quiet status strict warn length=', PATHS, CHECKS_LISTED_FILES),
  cksum: spec('a:bcl:wz', 'algorithm= base64 check length= raw tag untagged zero ignore-missing quiet status strict warn debug', PATHS, CHECKS_LISTED_FILES),
  comm: spec('123z', 'check-order nocheck-order output-delimiter= total zero-terminated', PATHS),
  join: spec('a:e:ij:1:2:o:t:v:z', 'ignore-case check-order nocheck-order header zero-terminated', PATHS),
  paste: spec('d:sz', 'delimiters= serial zero-terminated', PATHS),
  fold: spec('bsw:', 'bytes spaces width=', PATHS),
  fmt: spec('cp:stuw:g:', 'crown-margin prefix= split-only tagged-paragraph uniform-spacing width= goal=', PATHS, {}, { numericOption: /^-\d+$/ }),
  expand: spec('it:', 'initial tabs=', PATHS, {}, { numericOption: /^-\d+(,\d+)*$/ }),
  unexpand: spec('at:', 'all first-only tabs=', PATHS, {}, { numericOption: /^-\d+(,\d+)*$/ }),
  base64: spec('diw:', 'decode ignore-garbage wrap=', { kind: 'paths', max: 1, beyond: 'takes one file' }),
  diff: {
    ...spec(
      'abBcC:dD:eEfF:hiI:L:nNpPqrsS:tTuU:vwW:x:X@yZ',
      'normal brief report-identical-files context? unified? label= show-c-function show-function-line= ed rcs side-by-side width= ' +
        'left-column suppress-common-lines initial-tab tabsize= expand-tabs suppress-blank-empty new-file unidirectional-new-file ' +
        'recursive no-dereference starting-file= exclude= exclude-from=@ text strip-trailing-cr ignore-case ignore-file-name-case ' +
        'no-ignore-file-name-case ignore-tab-expansion ignore-trailing-space ignore-space-change ignore-all-space ignore-blank-lines ' +
        'ignore-matching-lines= minimal horizon-lines= speed-large-files from-file=@ to-file=@ ifdef= old-group-format= ' +
        'new-group-format= unchanged-group-format= changed-group-format= line-format= old-line-format= new-line-format= ' +
        'unchanged-line-format= color? palette=',
      PATHS,
      { '-l': 'runs pr on its output', '--paginate': 'runs pr on its output' },
      { numericOption: /^-\d+$/ },
    ),
    followsLinksInFolders: { unless: ['--no-dereference'] },
  },
  cmp: spec('bi:ln:s', 'print-bytes ignore-initial= verbose bytes= quiet silent', PATHS),
  stat: spec('Lfc:t', 'dereference file-system format= printf= terse cached=', PATHS),
  file: {
    ...spec(
      'bcdEe:F:f@hikLlm@NnP:rsv0',
      'brief checking-printout debug exclude= exclude-quiet= separator= files-from=@ no-dereference mime mime-type mime-encoding apple ' +
        'extension keep-going list dereference magic-file=@ no-pad no-buffer parameter= raw special-files print0',
      PATHS,
      {
        '-C': 'compiles a magic file, which writes a file',
        '--compile': 'compiles a magic file, which writes a file',
        '-p': 'resets the access times of the files it reads',
        '--preserve-date': 'resets the access times of the files it reads',
        '-S': 'turns its sandbox off',
        '--no-sandbox': 'turns its sandbox off',
        '-z': 'runs decompressors on the files',
        '-Z': 'runs decompressors on the files',
        '--uncompress': 'runs decompressors on the files',
        '--uncompress-noreport': 'runs decompressors on the files',
        '-f': NAMES_FROM_FILE,
        '--files-from': NAMES_FROM_FILE,
      },
    ),
    check: (parsed) =>
      parsed.options.some((option) => ['-m', '--magic-file'].includes(option.name) && option.values.some((value) => value.text.includes(':')))
        ? 'file -m with a list of magic files is not checked file by file'
        : undefined,
  },
  du: spec('aB:bcDd:HhkLlmPSsxX@t:0', 'null all apparent-size block-size= bytes total dereference-args max-depth= files0-from=@ human-readable inodes si summarize threshold= time? time-style= exclude-from=@ exclude= one-file-system count-links dereference no-dereference separate-dirs', PATHS, { ...FILES0_FROM, '-L': FOLLOWS_LINKS, '--dereference': FOLLOWS_LINKS }),
  df: spec('aB:hiHklPt:Tx:', 'all block-size= human-readable si inodes local output? portability print-type total type= exclude-type=', PATHS, { '--sync': 'flushes the disks first' }),
  realpath: spec('eLmPqsz', 'canonicalize-existing canonicalize-missing logical physical quiet relative-to=@ relative-base=@ strip no-symlinks zero', PATHS),
  readlink: spec('efmnqsvz', 'canonicalize canonicalize-existing canonicalize-missing no-newline quiet silent verbose zero', PATHS),
  basename: spec('as:z', 'multiple suffix= zero', INERT),
  dirname: spec('z', 'zero', INERT),
  tree: spec(
    'adlfxL:P:I:qNQpugshDFvtcUrAiSnCXJH:T:',
    'gitignore gitfile=@ ignore-case matchdirs metafirst prune info infofile=@ noreport charset= filelimit= timefmt= si du inodes device ' +
      'dirsfirst filesfirst sort= nolinks hintro=@ houtro=@ fromfile fromtabfile fflinks hyperlink scheme= authority= opt-toggle',
    PATHS,
    { '-o': WRITES_FILE, '-R': 'writes 00Tree.html files into every folder', '-l': FOLLOWS_LINKS },
  ),
  column: spec(
    'c:C:deE:H:i:Jl:LmN:n:o:O:p:r:R:s:tT:W:xw:',
    'columns= table-column= table-noheadings table-header-repeat table-noextreme= table-hide= tree-id= json table-columns-limit= ' +
      'keep-empty-lines table-maxout table-name= table-columns= output-separator= table-order= tree-parent= tree= table-right= ' +
      'separator= table table-truncate= table-wrap= fillrows output-width=',
    PATHS,
  ),
  printf: spec('', '', INERT, { '-v': 'assigns its output to a shell variable' }, { permute: false }),
  pwd: spec('LP', '', { kind: 'none', reason: 'pwd takes no operands' }),
  sleep: spec('', '', INERT),
  date: {
    ...spec('d:f@I?r@Ru', 'date= debug file=@ iso-8601? resolution rfc-email rfc-3339= reference=@ universal utc', INERT, { '-s': 'sets the system clock', '--set': 'sets the system clock' }),
    check: (parsed) => (parsed.operands.some((word) => !word.literal || !word.text.startsWith('+')) ? 'date with an operand that is not a +FORMAT sets the system clock' : undefined),
  },
  uname: spec('asnrvmpio', 'all kernel-name nodename kernel-release kernel-version machine processor hardware-platform operating-system', { kind: 'none', reason: 'uname takes no operands' }),
  whoami: spec('', '', { kind: 'none', reason: 'whoami takes no operands' }),
  id: spec('agGnruzZ', 'context group groups name real user zero', INERT),
  nproc: spec('', 'all ignore=', { kind: 'none', reason: 'nproc takes no operands' }),
  hostname: spec('aAdfiIsy', 'alias all-fqdns domain fqdn long ip-address all-ip-addresses short yp nis', { kind: 'none', reason: 'sets the host name' }, {
    '-b': 'sets the host name',
    '--boot': 'sets the host name',
    '-F': 'sets the host name from a file',
    '--file': 'sets the host name from a file',
  }),
  which: spec('as', 'all', INERT),
  type: spec('afptP', '', INERT),
  seq: spec('f:s:w', 'format= separator= equal-width', INERT, {}, { numericOption: /^-\d+(\.\d+)?$/ }),
  expr: spec('', '', INERT, {}, { permute: false }),
  printenv: spec('0', 'null', INERT),
  wait: spec('fn', '', INERT, { '-p': 'assigns the job id to a shell variable' }, { permute: false }),
  tty: spec('s', 'silent quiet', { kind: 'none', reason: 'tty takes no operands' }),
  arch: spec('', '', { kind: 'none', reason: 'arch takes no operands' }),
  groups: spec('', '', INERT),
  uptime: spec('ps', 'pretty since', { kind: 'none', reason: 'uptime takes no operands' }),
  jq: {
    table: JQ_TABLE,
    operands: { kind: 'patternThenPaths', patternOptions: ['-f', '--from-file'] },
    check: (parsed) => {
      if (parsed.options.some((option) => option.name === '-f' || option.name === '--from-file')) {
        return undefined;
      }
      const filter = parsed.operands[0];
      if (filter && !filter.literal) {
        return `the jq filter ${filter.source} is only known when it runs`;
      }
      return filter && /\b(import|include)\b/.test(filter.text) ? 'the jq filter loads modules, which can read files' : undefined;
    },
  },
};

/** Programs whose arguments are all inert text, options included: nothing to parse. */
export const INERT_PROGRAMS = new Set(['echo', 'true', 'false', ':']);
