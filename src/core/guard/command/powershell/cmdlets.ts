// The closed tables of the PowerShell policy: the cmdlets that run without asking, each with its
// module, its built-in aliases (the same in Windows PowerShell 5.1 and PowerShell 7 on Windows) and
// every parameter it may get, by kind; the native programs judged by the bash policy's tables; the
// .NET types and methods an expression may use. Names compare in any case, as PowerShell does.
// What is not here asks: another cmdlet, an alias not listed, a parameter not listed (an
// abbreviation of a listed one too: write it in full), a native program not listed.

/**
 * How a parameter's value is judged. `switch` takes none (`-Recurse`, `-Recurse:$false`); `value`
 * takes one judged as an expression (a pattern, a number, property names, a script block walked as
 * code); `path` is a file the cmdlet reads, wildcards expanded; `literalPath` the same without
 * wildcards; `script` must be a script block, walked as code; `folder` is where Set-Location goes.
 */
export type ParameterKind = 'switch' | 'value' | 'path' | 'literalPath' | 'script' | 'folder';

export interface CmdletSpec {
  /** The cmdlet's name as PowerShell spells it. */
  readonly name: string;
  /** The module that ships it: `Module\Name` names it too. */
  readonly module: string;
  /** Its built-in aliases. */
  readonly aliases: readonly string[];
  /** Every parameter (and parameter alias) it may get, lower case, by kind. */
  readonly parameters: Readonly<Record<string, ParameterKind>>;
  /** The parameters positional arguments bind to, in order. */
  readonly positional: readonly string[];
  /** The last positional parameter takes every further positional argument (Write-Output a b c). */
  readonly restPositional?: boolean;
  /**
   * It reads the files its pipeline input names (a path string, a FileInfo's PSPath): anywhere but
   * first in a pipeline it reads files no word of the line names, so it asks. `afterGetContent`:
   * except right after Get-Content, whose output is lines (Select-String searches them).
   */
  readonly readsPipelinePaths?: 'always' | 'unlessAfterGetContent';
  /** What it does, for the finding: `Get-Content only reads`. */
  readonly does: string;
}

/** Common parameters every cmdlet takes that change nothing outside the command. */
export const COMMON_PARAMETERS: Readonly<Record<string, ParameterKind>> = {
  erroraction: 'value', ea: 'value', warningaction: 'value', wa: 'value', informationaction: 'value', infa: 'value',
  verbose: 'switch', vb: 'switch', debug: 'switch', db: 'switch', outbuffer: 'value', ob: 'value',
};

const PATHS = { path: 'path', literalpath: 'literalPath', lp: 'literalPath', pspath: 'literalPath' } as const;
const FILTERS = { filter: 'value', include: 'value', exclude: 'value' } as const;
const FORMAT = { property: 'value', groupby: 'value', force: 'switch', expand: 'value', view: 'value', inputobject: 'value', displayerror: 'switch', showerror: 'switch' } as const;

export const CMDLET_SPECS: readonly CmdletSpec[] = [
  {
    name: 'Get-ChildItem', module: 'Microsoft.PowerShell.Management', aliases: ['gci', 'ls', 'dir'], does: 'only lists files',
    parameters: { ...PATHS, ...FILTERS, recurse: 'switch', s: 'switch', depth: 'value', force: 'switch', name: 'switch', directory: 'switch', ad: 'switch', d: 'switch', file: 'switch', af: 'switch', hidden: 'switch', ah: 'switch', h: 'switch', readonly: 'switch', ar: 'switch', system: 'switch', as: 'switch', attributes: 'value' },
    positional: ['path', 'filter'], readsPipelinePaths: 'always',
  },
  {
    name: 'Get-Content', module: 'Microsoft.PowerShell.Management', aliases: ['gc', 'cat', 'type'], does: 'only reads',
    parameters: { ...PATHS, ...FILTERS, totalcount: 'value', head: 'value', first: 'value', tail: 'value', last: 'value', readcount: 'value', raw: 'switch', encoding: 'value', delimiter: 'value', force: 'switch', asbytestream: 'switch' },
    positional: ['path'], readsPipelinePaths: 'always',
  },
  {
    name: 'Select-String', module: 'Microsoft.PowerShell.Utility', aliases: ['sls'], does: 'only reads',
    parameters: { ...PATHS, include: 'value', exclude: 'value', pattern: 'value', simplematch: 'switch', casesensitive: 'switch', context: 'value', notmatch: 'switch', allmatches: 'switch', list: 'switch', quiet: 'switch', raw: 'switch', encoding: 'value', noemphasis: 'switch', culture: 'value', inputobject: 'value' },
    positional: ['pattern', 'path'], readsPipelinePaths: 'unlessAfterGetContent',
  },
  {
    name: 'Get-Item', module: 'Microsoft.PowerShell.Management', aliases: ['gi'], does: 'only reads file information',
    parameters: { ...PATHS, ...FILTERS, force: 'switch' },
    positional: ['path'], readsPipelinePaths: 'always',
  },
  {
    name: 'Test-Path', module: 'Microsoft.PowerShell.Management', aliases: [], does: 'only tests paths',
    parameters: { ...PATHS, ...FILTERS, pathtype: 'value', type: 'value', isvalid: 'switch', olderthan: 'value', newerthan: 'value' },
    positional: ['path'], readsPipelinePaths: 'always',
  },
  {
    name: 'Resolve-Path', module: 'Microsoft.PowerShell.Management', aliases: ['rvpa'], does: 'only resolves paths',
    parameters: { ...PATHS, relative: 'switch', relativebasepath: 'literalPath' },
    positional: ['path'], readsPipelinePaths: 'always',
  },
  {
    name: 'Get-FileHash', module: 'Microsoft.PowerShell.Utility', aliases: [], does: 'only reads',
    parameters: { ...PATHS, algorithm: 'value' },
    positional: ['path'], readsPipelinePaths: 'always',
  },
  {
    name: 'Set-Location', module: 'Microsoft.PowerShell.Management', aliases: ['cd', 'sl', 'chdir'], does: 'changes to a folder inside the workspace',
    parameters: { path: 'folder', literalpath: 'folder', lp: 'folder', pspath: 'folder' },
    positional: ['path'], readsPipelinePaths: 'always',
  },
  {
    name: 'Get-Location', module: 'Microsoft.PowerShell.Management', aliases: ['gl', 'pwd'], does: 'only prints the folder',
    parameters: { stack: 'switch', stackname: 'value', psprovider: 'value', psdrive: 'value' }, positional: [],
  },
  {
    name: 'Split-Path', module: 'Microsoft.PowerShell.Management', aliases: [], does: 'only edits path strings',
    parameters: { path: 'value', literalpath: 'value', parent: 'switch', leaf: 'switch', leafbase: 'switch', extension: 'switch', qualifier: 'switch', noqualifier: 'switch', isabsolute: 'switch' },
    positional: ['path'],
  },
  {
    name: 'Join-Path', module: 'Microsoft.PowerShell.Management', aliases: [], does: 'only joins path strings',
    parameters: { path: 'value', childpath: 'value', additionalchildpath: 'value' }, positional: ['path', 'childpath', 'additionalchildpath'], restPositional: true,
  },
  {
    name: 'Where-Object', module: 'Microsoft.PowerShell.Core', aliases: ['where', '?'], does: 'only filters objects',
    parameters: { filterscript: 'script', inputobject: 'value' }, positional: ['filterscript'],
  },
  {
    name: 'ForEach-Object', module: 'Microsoft.PowerShell.Core', aliases: ['foreach', '%'], does: 'only runs the script blocks judged with it',
    parameters: { process: 'script', begin: 'script', end: 'script', inputobject: 'value' }, positional: ['process'], restPositional: true,
  },
  {
    name: 'Sort-Object', module: 'Microsoft.PowerShell.Utility', aliases: ['sort'], does: 'only sorts objects',
    parameters: { property: 'value', descending: 'switch', unique: 'switch', casesensitive: 'switch', top: 'value', bottom: 'value', stable: 'switch', culture: 'value', inputobject: 'value' },
    positional: ['property'],
  },
  {
    name: 'Select-Object', module: 'Microsoft.PowerShell.Utility', aliases: ['select'], does: 'only selects objects',
    parameters: { property: 'value', excludeproperty: 'value', expandproperty: 'value', first: 'value', last: 'value', skip: 'value', skiplast: 'value', unique: 'switch', index: 'value', skipindex: 'value', wait: 'switch', inputobject: 'value' },
    positional: ['property'],
  },
  {
    name: 'Measure-Object', module: 'Microsoft.PowerShell.Utility', aliases: ['measure'], does: 'only counts objects',
    parameters: { property: 'value', sum: 'switch', average: 'switch', maximum: 'switch', minimum: 'switch', line: 'switch', word: 'switch', character: 'switch', ignorewhitespace: 'switch', allstats: 'switch', standarddeviation: 'switch', inputobject: 'value' },
    positional: ['property'],
  },
  {
    name: 'Group-Object', module: 'Microsoft.PowerShell.Utility', aliases: ['group'], does: 'only groups objects',
    parameters: { property: 'value', noelement: 'switch', asstring: 'switch', ashashtable: 'switch', casesensitive: 'switch', culture: 'value', inputobject: 'value' },
    positional: ['property'],
  },
  {
    name: 'Get-Unique', module: 'Microsoft.PowerShell.Utility', aliases: ['gu'], does: 'only filters objects',
    parameters: { asstring: 'switch', ontype: 'switch', caseinsensitive: 'switch', inputobject: 'value' }, positional: [],
  },
  {
    name: 'Compare-Object', module: 'Microsoft.PowerShell.Utility', aliases: ['compare'], does: 'only compares objects',
    parameters: { referenceobject: 'value', differenceobject: 'value', property: 'value', includeequal: 'switch', excludedifferent: 'switch', passthru: 'switch', casesensitive: 'switch', syncwindow: 'value', culture: 'value' },
    positional: ['referenceobject', 'differenceobject'],
  },
  { name: 'Format-Table', module: 'Microsoft.PowerShell.Utility', aliases: ['ft'], does: 'only formats output', parameters: { ...FORMAT, autosize: 'switch', wrap: 'switch', hidetableheaders: 'switch', repeatheader: 'switch' }, positional: ['property'] },
  { name: 'Format-List', module: 'Microsoft.PowerShell.Utility', aliases: ['fl'], does: 'only formats output', parameters: FORMAT, positional: ['property'] },
  { name: 'Format-Wide', module: 'Microsoft.PowerShell.Utility', aliases: ['fw'], does: 'only formats output', parameters: { ...FORMAT, autosize: 'switch', column: 'value' }, positional: ['property'] },
  { name: 'Format-Custom', module: 'Microsoft.PowerShell.Utility', aliases: ['fc'], does: 'only formats output', parameters: { ...FORMAT, depth: 'value' }, positional: ['property'] },
  { name: 'Out-String', module: 'Microsoft.PowerShell.Utility', aliases: [], does: 'only formats output', parameters: { stream: 'switch', width: 'value', nonewline: 'switch', inputobject: 'value' }, positional: [] },
  { name: 'Out-Host', module: 'Microsoft.PowerShell.Core', aliases: ['oh'], does: 'only prints', parameters: { paging: 'switch', inputobject: 'value' }, positional: [] },
  { name: 'Out-Null', module: 'Microsoft.PowerShell.Core', aliases: [], does: 'only discards output', parameters: { inputobject: 'value' }, positional: [] },
  { name: 'Write-Output', module: 'Microsoft.PowerShell.Utility', aliases: ['echo', 'write'], does: 'only prints its arguments', parameters: { inputobject: 'value', noenumerate: 'switch' }, positional: ['inputobject'], restPositional: true },
  {
    name: 'Write-Host', module: 'Microsoft.PowerShell.Utility', aliases: [], does: 'only prints its arguments',
    parameters: { object: 'value', nonewline: 'switch', separator: 'value', foregroundcolor: 'value', backgroundcolor: 'value' }, positional: ['object'], restPositional: true,
  },
  {
    name: 'Get-Date', module: 'Microsoft.PowerShell.Utility', aliases: [], does: 'only prints the date',
    parameters: { date: 'value', format: 'value', uformat: 'value', year: 'value', month: 'value', day: 'value', hour: 'value', minute: 'value', second: 'value', millisecond: 'value', displayhint: 'value', asutc: 'switch' },
    positional: ['date'],
  },
  { name: 'Get-Process', module: 'Microsoft.PowerShell.Management', aliases: ['gps', 'ps'], does: 'only lists processes', parameters: { name: 'value', id: 'value', includeusername: 'switch' }, positional: ['name'] },
  { name: 'Get-Member', module: 'Microsoft.PowerShell.Utility', aliases: ['gm'], does: 'only describes objects', parameters: { name: 'value', membertype: 'value', static: 'switch', force: 'switch', view: 'value', inputobject: 'value' }, positional: ['name'] },
  { name: 'ConvertTo-Json', module: 'Microsoft.PowerShell.Utility', aliases: [], does: 'only converts objects', parameters: { inputobject: 'value', depth: 'value', compress: 'switch', enumsasstrings: 'switch', asarray: 'switch' }, positional: ['inputobject'] },
  { name: 'ConvertFrom-Json', module: 'Microsoft.PowerShell.Utility', aliases: [], does: 'only converts text', parameters: { inputobject: 'value', ashashtable: 'switch', depth: 'value', noenumerate: 'switch' }, positional: ['inputobject'] },
  { name: 'Start-Sleep', module: 'Microsoft.PowerShell.Utility', aliases: ['sleep'], does: 'only waits', parameters: { seconds: 'value', milliseconds: 'value', duration: 'value' }, positional: ['seconds'] },
];

/** Every cmdlet by its name and each alias, lower case. */
export const CMDLETS_BY_NAME: ReadonlyMap<string, CmdletSpec> = new Map(CMDLET_SPECS.flatMap((spec) => [spec.name, ...spec.aliases].map((name) => [name.toLowerCase(), spec] as [string, CmdletSpec])));

/** Every cmdlet by its own name only (a module-qualified name never names an alias), lower case. */
export const CMDLETS_BY_OWN_NAME: ReadonlyMap<string, CmdletSpec> = new Map(CMDLET_SPECS.map((spec) => [spec.name.toLowerCase(), spec]));

/**
 * Native programs judged by the bash policy's tables (programSpecs.ts, git.ts): those whose name
 * on Windows is the same program with the same options (Git for Windows, ripgrep, GNU tools).
 * Left out, so they ask: names PowerShell takes as aliases (ls, cat, sort, echo, pwd, diff...)
 * and Windows' own programs of the same name that do something else (find, sort, expand, tree,
 * more, date, where, hostname, strings).
 */
export const NATIVE_PROGRAMS: ReadonlySet<string> = new Set([
  'git', 'rg', 'grep', 'egrep', 'fgrep', 'wc', 'head', 'tail', 'cut', 'tr', 'uniq', 'nl', 'tac', 'rev', 'od', 'hexdump', 'xxd',
  'md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'comm', 'join', 'paste', 'fold',
  'fmt', 'unexpand', 'base64', 'cmp', 'stat', 'file', 'du', 'realpath', 'readlink', 'basename', 'dirname', 'column', 'jq',
  'uname', 'nproc', 'seq', 'expr', 'whoami',
  // Interpreters: the bash policy lets only a lone --version through.
  'node', 'python', 'python3', 'ruby', 'perl', 'deno', 'bun',
]);

/** Why well-known commands ask, in words the user recognises (everything not allowed asks anyway). */
export const KNOWN_RISKS: ReadonlyArray<[readonly string[], string]> = [
  [['invoke-expression', 'iex', 'invoke-command', 'icm', 'add-type', 'import-module', 'ipmo', 'new-module', 'nmo'], 'runs PowerShell code that cannot be checked'],
  [['start-process', 'saps', 'start', 'invoke-item', 'ii', 'start-job', 'sajb', 'start-threadjob'], 'starts another program or opens a file with its program'],
  [['remove-item', 'rm', 'del', 'erase', 'rd', 'ri', 'rmdir', 'clear-content', 'clc', 'clear-item', 'cli', 'remove-itemproperty', 'rp'], 'deletes or empties files'],
  [['set-content', 'sc', 'add-content', 'ac', 'out-file', 'new-item', 'ni', 'md', 'mkdir', 'copy-item', 'cp', 'copy', 'cpi', 'move-item', 'mv', 'move', 'mi', 'rename-item', 'ren', 'rni', 'set-item', 'si', 'tee-object', 'tee', 'export-csv', 'epcsv', 'export-clixml', 'expand-archive', 'compress-archive', 'set-itemproperty', 'sp', 'new-itemproperty', 'set-acl'], 'creates or changes files'],
  [['invoke-webrequest', 'iwr', 'curl', 'wget', 'invoke-restmethod', 'irm', 'start-bitstransfer', 'test-connection', 'test-netconnection', 'send-mailmessage', 'new-pssession', 'enter-pssession', 'etsn'], 'uses the network (downloads can carry instructions or code)'],
  [['stop-process', 'kill', 'spps', 'stop-service', 'spsv', 'restart-service', 'start-service', 'sasv', 'stop-computer', 'restart-computer'], 'stops processes or changes services'],
  [['set-variable', 'sv', 'set', 'new-variable', 'nv', 'remove-variable', 'rv', 'clear-variable', 'clv', 'set-alias', 'sal', 'new-alias', 'nal', 'set-executionpolicy', 'set-psdebug', 'set-strictmode', 'push-location', 'pushd', 'pop-location', 'popd', 'invoke-history', 'r', 'h', 'ihy'], 'changes the session: variables, aliases, folders or policy that later commands depend on'],
  [['new-object'], 'creates a .NET or COM object, which can do anything'],
  [['pwsh', 'powershell', 'cmd', 'bash', 'sh', 'wsl', 'wscript', 'cscript', 'mshta', 'rundll32', 'regsvr32', 'msiexec'], 'runs code (a script, inline code or its input), which can do anything'],
];

export const RISK_BY_NAME: ReadonlyMap<string, string> = new Map(KNOWN_RISKS.flatMap(([names, reason]) => names.map((name) => [name, reason] as [string, string])));

/** Types an expression may name (casts, static members), lower case, with and without `System.`. */
export const SAFE_TYPES: ReadonlySet<string> = new Set(['int', 'int32', 'int64', 'long', 'double', 'decimal', 'string', 'char', 'bool', 'boolean', 'byte', 'datetime', 'timespan', 'math', 'io.path', 'regex', 'version'].flatMap((name) => [name, `system.${name}`]));

/** Static methods of the safe types that compute and touch nothing, lower case (`[Math]::Round`, `[IO.Path]::GetFileName`). */
export const SAFE_STATIC_METHODS: Readonly<Record<string, ReadonlySet<string>>> = {
  math: new Set(['abs', 'ceiling', 'floor', 'round', 'max', 'min', 'pow', 'sqrt', 'truncate', 'sign', 'log', 'log10', 'exp']),
  string: new Set(['join', 'format', 'isnullorempty', 'isnullorwhitespace', 'concat', 'compare', 'equals']),
  'io.path': new Set(['getfilename', 'getfilenamewithoutextension', 'getextension', 'getdirectoryname', 'combine', 'join', 'changeextension', 'ispathrooted', 'hasextension']),
  regex: new Set(['escape', 'unescape', 'ismatch', 'match', 'matches', 'split']),
  datetime: new Set(['parse', 'parseexact', 'daysinmonth', 'isleapyear']),
  int: new Set(['parse', 'tryparse']),
};

/**
 * Instance methods that only compute a value on strings, numbers and collections, and that no
 * object PowerShell hands a command (FileInfo, Process...) has with another meaning: Replace is
 * left out (FileInfo.Replace replaces files), as are Delete, MoveTo, CopyTo, Kill and the like.
 */
export const SAFE_INSTANCE_METHODS: ReadonlySet<string> = new Set([
  'tostring', 'toupper', 'tolower', 'toupperinvariant', 'tolowerinvariant', 'trim', 'trimstart', 'trimend', 'startswith', 'endswith',
  'substring', 'indexof', 'lastindexof', 'contains', 'split', 'padleft', 'padright', 'equals', 'gettype', 'compareto', 'tochararray', 'gethashcode',
]);
