// @ts-check
// workspace_grep and workspace_glob on a large tree, side by side in one run with raw ripgrep (the
// same flags; for glob `rg --files -g` plus the sort by modification time) and with the peers
// @modelcontextprotocol/server-filesystem and @google/gemini-cli-core, installed only into a bench
// folder outside the project. Prints medians, ratios and output sizes in characters.
//
// The tree: Debian's linux-source-6.1 (apt-get download, unpacked once into <scratch>/linux-src, the
// Debian block of its root .gitignore cut, git init), else a generated tree of the same shape.
// Peers: <scratch>/../bench-peers (or WAT_BENCH_PEERS), installed with npm on first use.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { firstLine, printTable, ratio } from './measure.mjs';
import { compiled, ourContext, ourTool, runTool } from './ourContext.mjs';

/**
 * The tools run from tsc's output (out/); their types come from the sources.
 * @typedef {import('./measure.mjs').BenchContext} BenchContext
 * @typedef {import('../../src/core/tools/grep.js').GrepInput} GrepInput
 * @typedef {import('../../src/core/tools/glob.js').GlobInput} GlobInput
 * @typedef {import('../../src/core/tools/toolSpec.js').ToolResult} ToolResult
 */
/**
 * A peer driven through its own API; each answers with the text the model would get.
 * @typedef {object} Peer
 * @property {(query: GlobInput) => Promise<string>} glob
 * @property {(file: string, lines: number) => Promise<string>} read
 * @property {() => Promise<unknown>} close
 * @typedef {Peer & { grep: (query: GrepInput) => Promise<string> }} GrepPeer
 */
/**
 * One measured subject: a median and the size of its output (once: a single run), or why it could not be measured.
 * @typedef {{ ms: number, chars: number, once?: boolean }} Measured
 * @typedef {Measured | { error: string }} Timing
 */

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RG = path.join(repo, 'node_modules/@vscode/ripgrep-linux-x64/bin/rg');
const RUNS = Number(process.env.WAT_BENCH_RUNS ?? 7);
const PEER_RUNS = Number(process.env.WAT_BENCH_PEER_RUNS ?? 3);
// Globs take 40-900 ms and differ from the reference by a few: 7 runs left their medians 5% apart from run to run.
const GLOB_RUNS = Number(process.env.WAT_BENCH_GLOB_RUNS ?? 21);

// ---------------------------------------------------------------------------------------------
// The tree

/**
 * Runs a command to its end and returns its stdout; throws when it fails.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string }} options
 */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr || result.error}`);
  }
  return result.stdout;
}

/**
 * @param {string} base
 * @param {BenchContext['log']} log
 */
function prepareLinuxTree(base, log) {
  const root = path.join(base, 'linux-source-6.1');
  const marker = path.join(base, '.prepared');
  if (existsSync(marker)) return root;
  mkdirSync(base, { recursive: true });
  let deb = readdirSync(base).find((name) => name.startsWith('linux-source-6.1_') && name.endsWith('.deb'));
  if (!deb) {
    log('Downloading linux-source-6.1 with apt-get download ...');
    run('apt-get', ['download', 'linux-source-6.1'], { cwd: base });
    deb = readdirSync(base).find((name) => name.startsWith('linux-source-6.1_') && name.endsWith('.deb'));
  }
  if (!existsSync(root)) {
    if (!deb) throw new Error(`apt-get download left no linux-source-6.1_*.deb in ${base}`);
    log(`Unpacking ${deb} (about a minute) ...`);
    run('sh', ['-c', 'dpkg-deb --fsys-tarfile "$1" | tar -x ./usr/src/ && tar -xJf usr/src/linux-source-6.1.tar.xz && rm -rf usr', 'unpack', deb], { cwd: base });
  }
  // Debian's block at the end of the root .gitignore ignores everything at the top level.
  const gitignore = path.join(root, '.gitignore');
  const text = readFileSync(gitignore, 'utf8');
  const cut = text.indexOf('# Debian packaging');
  if (cut !== -1) writeFileSync(gitignore, text.slice(0, cut));
  if (!existsSync(path.join(root, '.git'))) run('git', ['init', '-q'], { cwd: root });
  writeFileSync(marker, new Date().toISOString());
  return root;
}

/**
 * A tree shaped like the kernel's: ~78k files in nested folders, C sources and headers, Makefiles, Kconfig.
 * @param {string} root
 * @param {BenchContext['log']} log
 */
async function generateTree(root, log) {
  const marker = path.join(root, '.generated');
  if (existsSync(marker)) return root;
  log('Generating a kernel-shaped tree of ~78k files ...');
  const words = ['kmalloc_array', 'spin_lock_irqsave', 'MODULE_AUTHOR', 'copyright', 'EXPORT_SYMBOL_GPL', 'mutex_lock', 'static int', 'return -EINVAL;'];
  let made = 0;
  for (let a = 0; a < 20 && made < 78_000; a += 1) {
    for (let b = 0; b < 40 && made < 78_000; b += 1) {
      for (let c = 0; c < 12 && made < 78_000; c += 1) {
        const dir = path.join(root, `sub${a}`, `part${b}`, `mod${c}`);
        await fsp.mkdir(dir, { recursive: true });
        const files = [['Makefile', 'obj-y += x.o\n'], ['Kconfig', 'config X\n\tbool\n'], ...Array.from({ length: 6 }, (_, i) => [`f${i}.${i % 3 === 0 ? 'h' : 'c'}`, ''])];
        for (const [name, fixed] of files) {
          let body = fixed;
          if (!body) {
            for (let line = 0; line < 150; line += 1) body += `${words[(line * 7 + made) % words.length]}(${line}); /* line ${line} of ${name} */\n`;
          }
          await fsp.writeFile(path.join(dir, name), body);
          made += 1;
        }
      }
    }
  }
  writeFileSync(path.join(root, '.gitignore'), '*.o\n');
  run('git', ['init', '-q'], { cwd: root });
  writeFileSync(marker, String(made));
  return root;
}

/**
 * @param {string} scratchDir
 * @param {BenchContext['log']} log
 */
export async function ensureTree(scratchDir, log) {
  try {
    return { root: prepareLinuxTree(path.join(scratchDir, 'linux-src'), log), label: "Debian's linux-source-6.1" };
  } catch (error) {
    log(`linux-source-6.1 is not available (${firstLine(error)}); using a generated tree.`);
    return { root: await generateTree(path.join(scratchDir, 'generated-tree'), log), label: 'a generated kernel-shaped tree' };
  }
}

// ---------------------------------------------------------------------------------------------
// Subjects


/**
 * ripgrep spawned as a tool would: stdout piped and read to the end (a /dev/null stdout makes rg quit early).
 * @param {string} command
 * @param {string[]} args
 * @param {string} cwd
 * @returns {Promise<string>}
 */
function spawnCollect(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    /** @type {Buffer[]} */
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 || code === 1 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`${command} exited ${code}`))));
  });
}

const FILES_EXCLUDE = ['**/.git', '**/.svn', '**/.hg', '**/CVS', '**/.DS_Store', '**/Thumbs.db'];
/** @type {typeof import('../../src/core/search/ripgrep/node/run.js')} */
const { RIPGREP_THREADS } = compiled('core/search/ripgrep/node/run');
// The flags our engine passes to get the same files (files.exclude's defaults included), so the
// reference does the same work; only the output format differs (text here, --json in ours).
const RULE_FLAGS = ['--threads', String(RIPGREP_THREADS), '--no-config', '--no-require-git', '--no-ignore-dot', '--no-ignore-global', '--hidden', '--no-messages', '-g', '!.git', ...FILES_EXCLUDE.flatMap((glob) => ['-g', `!${glob}`])];

/** @param {GrepInput} query */
function rawGrepArgs(query) {
  const args = [...RULE_FLAGS];
  args.push('--crlf');
  if (query.output_mode === 'files_with_matches') args.push('--files-with-matches');
  else if (query.output_mode === 'count') args.push('--count');
  else args.push('--line-number');
  if (query.case_insensitive) args.push('--ignore-case');
  if (query.fixed_strings) args.push('--fixed-strings');
  if (query.glob) args.push('-g', query.glob);
  args.push('-e', query.pattern, '--', query.path ?? '.');
  return args;
}

/**
 * @param {string} root
 * @param {GlobInput} query
 */
async function rawGlob(root, query) {
  const listed = await spawnCollect(RG, ['--files', ...RULE_FLAGS, '-g', query.pattern, '--', '.'], root);
  const files = listed.split('\n').filter(Boolean);
  /** @type {[mtimeMs: number, file: string][]} */
  const dated = [];
  for (let start = 0; start < files.length; start += 128) {
    const batch = files.slice(start, start + 128);
    const stats = await Promise.all(batch.map((file) => fsp.stat(path.join(root, file))));
    batch.forEach((file, index) => dated.push([stats[index].mtimeMs, file]));
  }
  dated.sort((a, b) => b[0] - a[0]);
  return dated.map(([, file]) => file).join('\n');
}

/**
 * What the MCP client's callTool answers (the SDK is installed with the peers, not in the project).
 * @typedef {{ content: { text?: string }[], isError?: boolean }} McpToolResult
 */

/**
 * @modelcontextprotocol/server-filesystem over its stdio protocol, with the SDK's own client.
 * @param {string} peersDir
 * @param {string} root
 * @returns {Promise<Peer>}
 */
export async function startMcpPeer(peersDir, root) {
  const modules = path.join(peersDir, 'node_modules/@modelcontextprotocol');
  const serverEntry = path.join(modules, 'server-filesystem/dist/index.js');
  const { Client } = await import(pathToFileURL(path.join(modules, 'sdk/dist/esm/client/index.js')).href);
  const { StdioClientTransport } = await import(pathToFileURL(path.join(modules, 'sdk/dist/esm/client/stdio.js')).href);
  const client = new Client({ name: 'wat-bench', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [serverEntry, root], stderr: 'ignore' }));
  return {
    async glob(query) {
      /** @type {McpToolResult} */
      const result = await client.callTool({ name: 'search_files', arguments: { path: root, pattern: query.pattern } }, undefined, { timeout: 600_000 });
      return result.content.map((part) => part.text ?? '').join('\n');
    },
    async read(file, lines) {
      /** @type {McpToolResult} */
      const result = await client.callTool({ name: 'read_text_file', arguments: { path: file, head: lines } }, undefined, { timeout: 600_000 });
      if (result.isError) throw new Error(result.content.map((part) => part.text ?? '').join('\n'));
      return result.content.map((part) => part.text ?? '').join('\n');
    },
    close: () => client.close(),
  };
}

/**
 * What a gemini-cli-core tool invocation answers (the package is installed with the peers, not in the project).
 * @typedef {{ llmContent: unknown, error?: { message?: string } }} GeminiToolResult
 */

/**
 * @google/gemini-cli-core's GlobTool and RipGrepTool, in process, with the config they read.
 * @param {string} peersDir
 * @param {string} root
 * @returns {Promise<GrepPeer>}
 */
export async function startGeminiPeer(peersDir, root) {
  const peerRequire = createRequire(path.join(peersDir, 'package.json'));
  const core = await import(pathToFileURL(peerRequire.resolve('@google/gemini-cli-core')).href);
  const fileFiltering = { respectGitIgnore: true, respectGeminiIgnore: true };
  const { StandardFileSystemService } = await import(pathToFileURL(path.join(path.dirname(peerRequire.resolve('@google/gemini-cli-core')), 'src/services/fileSystemService.js')).href);
  const config = {
    getTargetDir: () => root,
    getWorkspaceContext: () => new core.WorkspaceContext(root),
    getFileService: () => new core.FileDiscoveryService(root, fileFiltering),
    getFileExclusions: () => ({ getGlobExcludes: () => [] }),
    getFileFilteringOptions: () => fileFiltering,
    getFileFilteringRespectGitIgnore: () => true,
    getDebugMode: () => false,
    getRipgrepPath: async () => RG,
    getFileSystemService: () => new StandardFileSystemService(),
    validatePathAccess: () => null,
    sandboxManager: undefined,
  };
  const bus = new core.MessageBus(core.PolicyEngine ? new core.PolicyEngine({}) : undefined);
  const globTool = new core.GlobTool(config, bus);
  const grepTool = new core.RipGrepTool(config, bus);
  const readTool = new core.ReadFileTool(config, bus);
  /** @param {GeminiToolResult} result */
  const text = (result) => {
    if (result.error) throw new Error(result.error.message ?? String(result.error));
    return typeof result.llmContent === 'string' ? result.llmContent : JSON.stringify(result.llmContent);
  };
  const options = () => ({ abortSignal: new AbortController().signal });
  return {
    async glob(query) {
      return text(await globTool.build({ pattern: query.pattern }).execute(options()));
    },
    async grep(query) {
      /** @type {Record<string, unknown>} */
      const params = { pattern: query.pattern, dir_path: query.path, include: query.glob, case_sensitive: !query.case_insensitive, fixed_strings: query.fixed_strings, names_only: query.output_mode === 'files_with_matches' };
      for (const key of Object.keys(params)) if (params[key] === undefined) delete params[key];
      return text(await grepTool.build(params).execute(options()));
    },
    async read(file, lines) {
      return text(await readTool.build({ file_path: file, start_line: 1, end_line: lines }).execute(options()));
    },
    close: async () => undefined,
  };
}

/**
 * @param {string} peersDir
 * @param {BenchContext['log']} log
 */
export async function ensurePeers(peersDir, log) {
  const marker = path.join(peersDir, 'node_modules/@google/gemini-cli-core/package.json');
  if (existsSync(marker) && existsSync(path.join(peersDir, 'node_modules/@modelcontextprotocol/server-filesystem/package.json'))) return;
  mkdirSync(peersDir, { recursive: true });
  if (!existsSync(path.join(peersDir, 'package.json'))) writeFileSync(path.join(peersDir, 'package.json'), '{ "name": "wat-bench-peers", "private": true }\n');
  log(`Installing the peers into ${peersDir} (not into the project) ...`);
  run('npm', ['install', '--no-audit', '--no-fund', '@modelcontextprotocol/server-filesystem@2026.8.31', '@google/gemini-cli-core@0.61.0'], { cwd: peersDir });
}

/**
 * Starts a peer, or logs why it could not start and answers undefined.
 * @template {Peer} P
 * @param {string} name
 * @param {() => Promise<P>} start
 * @param {BenchContext['log']} log
 * @returns {Promise<P | undefined>}
 */
export async function startPeer(name, start, log) {
  try {
    return await start();
  } catch (error) {
    log(`${name} could not be started on Node ${process.versions.node}: ${firstLine(error)}`);
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// The run

/** @type {GrepInput[]} */
const GREP_QUERIES = [
  { pattern: 'CONFIG_KASAN_HW_TAGS' },
  { pattern: 'kmalloc_array\\(', glob: '*.c' },
  { pattern: 'MODULE_AUTHOR', output_mode: 'files_with_matches' },
  { pattern: 'spin_lock_irqsave', output_mode: 'count', glob: '*.c' },
  { pattern: 'copyright', case_insensitive: true, fixed_strings: true, path: 'drivers/net', output_mode: 'files_with_matches' },
];
/** @type {GlobInput[]} */
const GLOB_QUERIES = [{ pattern: '**/*.rs' }, { pattern: 'drivers/net/**/*.c' }, { pattern: '**/Makefile' }, { pattern: '**/*' }];

/** @param {GrepInput | GlobInput} query */
function describeQuery(query) {
  return Object.entries(query)
    .map(([key, value]) => (key === 'pattern' ? JSON.stringify(value) : `${key}=${value}`))
    .join(' ');
}

/**
 * Median wall time of each subject, measured in turns (a, b, a, b, ...) after one warm-up call
 * each, so load from anything else on the machine falls on all subjects alike.
 * @param {number} runs
 * @param {(() => Promise<string>)[]} subjects
 * @returns {Promise<{ ms: number, chars: number, output: string }[]>}
 */
async function paired(runs, subjects) {
  /** @type {string[]} */
  const outputs = [];
  for (const subject of subjects) outputs.push(await subject());
  const times = subjects.map(() => /** @type {number[]} */ ([]));
  for (let run = 0; run < runs; run += 1) {
    for (const [index, subject] of subjects.entries()) {
      const start = performance.now();
      outputs[index] = await subject();
      times[index].push(performance.now() - start);
    }
  }
  return times.map((list, index) => {
    list.sort((a, b) => a - b);
    return { ms: list[Math.floor(list.length / 2)], chars: outputs[index].length, output: outputs[index] };
  });
}

/**
 * A peer's median; a call slower than 10 s is measured once (after no warm-up), and marked so.
 * @param {Peer | undefined} peer
 * @param {'glob'} method
 * @param {GlobInput} query
 * @returns {Promise<Timing | undefined>}
 */
async function timedPeer(peer, method, query) {
  if (!peer || !peer[method]) return undefined;
  try {
    const start = performance.now();
    let output = await peer[method](query);
    const first = performance.now() - start;
    if (first > 10_000) return { ms: first, chars: output.length, once: true };
    const times = [];
    for (let run = 0; run < PEER_RUNS; run += 1) {
      const begin = performance.now();
      output = await peer[method](query);
      times.push(performance.now() - begin);
    }
    times.sort((a, b) => a - b);
    return { ms: times[Math.floor(times.length / 2)], chars: output.length };
  } catch (error) {
    return { error: firstLine(error) };
  }
}

/**
 * @param {Timing | undefined} result
 * @returns {result is Measured}
 */
function isMeasured(result) {
  return result !== undefined && !('error' in result);
}

/**
 * @param {Timing | undefined} result
 * @param {{ ms: number }} ours
 */
function cell(result, ours) {
  if (!result) return 'n/a';
  if ('error' in result) return `failed: ${result.error.slice(0, 40)}`;
  return `${result.ms.toFixed(0)} ms${result.once ? ' (1 run)' : ''} = ${ratio(result.ms, ours.ms)} ours, ${result.chars} ch`;
}

/** @param {BenchContext} context */
export async function benchSearch({ log, scratchDir }) {
  const tree = await ensureTree(scratchDir, log);
  const label = tree.label;
  // Without links on the way (the cache folder may be one): gemini-cli-core finds nothing under a root reached through a link.
  const root = realpathSync(tree.root);
  const fileCount = run(RG, ['--files', ...RULE_FLAGS], { cwd: root }).split('\n').filter(Boolean).length;
  const peersDir = process.env.WAT_BENCH_PEERS ?? path.join(path.dirname(scratchDir), 'bench-peers');
  let mcp;
  let gemini;
  try {
    await ensurePeers(peersDir, log);
    mcp = await startPeer('@modelcontextprotocol/server-filesystem', () => startMcpPeer(peersDir, root), log);
    gemini = await startPeer('@google/gemini-cli-core', () => startGeminiPeer(peersDir, root), log);
  } catch (error) {
    log(`The peers could not be installed: ${firstLine(error)}`);
  }
  const grepTool = ourTool('workspace_grep');
  const globTool = ourTool('workspace_glob');
  const ctx = ourContext({ root, settings: { filesExclude: FILES_EXCLUDE }, ripgrepPath: RG });
  /** @param {ToolResult} result */
  const textOf = (result) => result.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('\n');
  /** @type {{ what: string, ratio: number, budget: number, peers: boolean[] }[]} */
  const verdicts = [];

  const only = process.env.WAT_BENCH_SEARCH_ONLY;
  log('');
  log(`workspace_grep on ${label} (${fileCount} searchable files), median of ${RUNS} taken in turns with raw rg and gemini-cli-core (warm cache), ${root}`);
  log('Ours and the peer stop once more than the 100 results they print were found; raw rg prints everything it finds.');
  const grepRows = [];
  for (const query of only === 'glob' ? [] : GREP_QUERIES) {
    // Gemini's grep is fast enough to be measured in the same turns as ours and rg's.
    const subjects = [async () => textOf(await runTool(grepTool, query, ctx)), () => spawnCollect(RG, rawGrepArgs(query), root)];
    /** @type {Timing | undefined} */
    let geminiResult;
    try {
      if (gemini) await gemini.grep(query);
      if (gemini) subjects.push(() => gemini.grep(query));
    } catch (error) {
      geminiResult = { error: firstLine(error) };
    }
    const [ours, rg, geminiPaired] = await paired(RUNS, subjects);
    geminiResult ??= geminiPaired;
    grepRows.push([describeQuery(query), `${ours.ms.toFixed(0)} ms`, `${ours.chars} ch`, `${rg.ms.toFixed(0)} ms ${rg.chars} ch`, ratio(ours.ms, rg.ms), 'no grep tool', cell(geminiResult, ours)]);
    verdicts.push({ what: `grep ${describeQuery(query)}`, ratio: ours.ms / rg.ms, budget: 1.3, peers: [geminiResult].filter(isMeasured).map((r) => r.ms > ours.ms) });
  }
  printTable(log, ['query', 'ours', 'ours output', 'raw rg (same flags)', 'ours/rg', 'mcp server-filesystem', 'gemini-cli-core RipGrepTool'], grepRows);

  // The extension keeps where the .gitignore files are in the sandbox's index (Linux, a trusted
  // window), built once in the background; a name glob then lists only what it matches.
  /** @type {typeof import('../../src/core/sandbox/scanIndex.js')} */
  const { ScanIndex } = compiled('core/sandbox/scanIndex');
  /** @type {typeof import('../../src/core/sandbox/node/inotifyWatch.js')} */
  const { InotifyWatcher } = compiled('core/sandbox/node/inotifyWatch');
  const index = new ScanIndex(new InotifyWatcher());
  const indexStart = performance.now();
  index.track([root]);
  await index.settled();
  const [indexStatus] = index.status();
  const indexed = ourContext({ root, settings: { filesExclude: FILES_EXCLUDE }, ripgrepPath: RG, ignoreIndex: index });
  log('');
  log(`workspace_glob on ${label}: median of ${GLOB_RUNS}, raw = rg --files -g <pattern> plus stat and sort by mtime, in turns with ours (with the index of .gitignore files the extension keeps, and without it); peers: median of ${PEER_RUNS} after a warm-up (one run when slower than 10 s)`);
  log(`The index: ${indexStatus.state} after ${(performance.now() - indexStart).toFixed(0)} ms in the background, ${indexStatus.watched} folders watched${indexStatus.reason ? ` (${indexStatus.reason})` : ''}.`);
  const globRows = [];
  for (const query of only === 'grep' ? [] : GLOB_QUERIES) {
    const [ours, raw, unindexed] = await paired(GLOB_RUNS, [async () => textOf(await runTool(globTool, query, indexed)), () => rawGlob(root, query), async () => textOf(await runTool(globTool, query, ctx))]);
    if (unindexed.output !== ours.output) throw new Error(`glob ${query.pattern}: the answers with and without the index differ (${ours.chars} and ${unindexed.chars} characters)`);
    const mcpResult = await timedPeer(mcp, 'glob', query);
    const geminiResult = await timedPeer(gemini, 'glob', query);
    globRows.push([describeQuery(query), `${ours.ms.toFixed(0)} ms`, `${ours.chars} ch`, `${raw.ms.toFixed(0)} ms ${raw.chars} ch`, ratio(ours.ms, raw.ms), `${unindexed.ms.toFixed(0)} ms = ${ratio(unindexed.ms, raw.ms)}`, cell(mcpResult, ours), cell(geminiResult, ours)]);
    verdicts.push({ what: `glob ${describeQuery(query)}`, ratio: ours.ms / raw.ms, budget: 1.1, peers: [mcpResult, geminiResult].filter(isMeasured).map((r) => r.ms > ours.ms) });
  }
  index.dispose();
  printTable(log, ['query', 'ours', 'ours output', 'rg --files + sort', 'ours/raw', 'ours without the index, /raw', 'mcp server-filesystem search_files', 'gemini-cli-core GlobTool'], globRows);

  log('');
  for (const verdict of verdicts) {
    const withinBudget = verdict.ratio <= verdict.budget ? 'within' : 'OVER';
    const peers = verdict.peers.length ? (verdict.peers.every(Boolean) ? 'faster than every peer that ran' : 'SLOWER than a peer') : 'no peer ran';
    log(`${withinBudget} budget ${verdict.budget}x (${verdict.ratio.toFixed(2)}x), ${peers}: ${verdict.what}`);
  }
  await mcp?.close();
  await gemini?.close();
  return { case: 'search', verdicts };
}
