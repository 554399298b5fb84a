// @ts-check
// read_file on a 1 GB local file: lines 1-2000 against `head -n 2000`, time and peak memory.
import { createWriteStream, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { firstLine, medianCommandMs, medianMs, peakRssKiB, printTable, ratio } from './measure.mjs';
import { ourContext, ourTool, runTool } from './ourContext.mjs';
import { ensurePeers, startGeminiPeer, startMcpPeer, startPeer } from './search.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const GIB = 1024 ** 3;

/**
 * The tools run from tsc's output (out/); their types come from the sources.
 * @typedef {import('./measure.mjs').BenchContext} BenchContext
 * @typedef {import('../../src/core/tools/toolSpec.js').ToolResult} ToolResult
 */

/** @param {string} file */
async function ensureBigFile(file) {
  if (existsSync(file) && statSync(file).size >= GIB) {
    return;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const out = createWriteStream(file);
  /** @param {number} n */
  const line = (n) => `${String(n).padStart(9, '0')} The quick brown fox jumps over the lazy dog; lorem ipsum dolor sit amet, consectetur.\n`;
  let written = 0;
  let n = 0;
  while (written < GIB) {
    let block = '';
    for (let i = 0; i < 10_000; i += 1) block += line((n += 1));
    written += Buffer.byteLength(block);
    if (!out.write(block)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** @param {BenchContext} context */
export async function benchReadFile({ log, scratchDir }) {
  const file = path.join(scratchDir, 'read-1gb.txt');
  log(`Preparing a 1 GB text file at ${file} ...`);
  await ensureBigFile(file);
  const readFileTool = ourTool('workspace_read_file');
  // No output budget, so the tool returns all 2000 lines, as head does (by default it stops near 100,000 characters).
  const ctx = ourContext({ root: path.dirname(file), settings: { maxResultChars: Number.MAX_SAFE_INTEGER } });
  const input = { file_path: path.basename(file), offset: 1, limit: 2000 };
  const ours = await medianMs(() => runTool(readFileTool, input, ctx), 31);
  const head = await medianCommandMs('head', ['-n', '2000', file], 31);
  const output = firstText(await runTool(readFileTool, input, ctx));

  // Peak memory: our read in a fresh Node process, against Node doing nothing and against head.
  const runner = path.join(scratchDir, 'read-once.mjs');
  const contextModule = pathToFileURL(path.join(repo, 'scripts/bench/ourContext.mjs')).href;
  writeFileSync(runner, [
    `const { ourContext, ourTool, runTool } = await import(${JSON.stringify(contextModule)});`,
    // The idle floor loads the same modules and compiles the input check, so the difference is the read itself.
    `const tool = ourTool('workspace_read_file');`,
    `const call = tool.prepare(${JSON.stringify(input)});`,
    `if (process.argv[2] !== 'idle') {`,
    `  const ctx = ourContext({ root: ${JSON.stringify(path.dirname(file))}, settings: { maxResultChars: Number.MAX_SAFE_INTEGER } });`,
    `  const result = await call.run(ctx);`,
    `  process.stdout.write(result.parts[0].text);`,
    `}`,
  ].join('\n'));
  const oursRss = peakRssKiB(process.execPath, [runner]);
  const idleRss = peakRssKiB(process.execPath, [runner, 'idle']);
  const headRss = peakRssKiB('head', ['-n', '2000', file]);
  // The spawn itself is charged to the child's peak; `true` shows that floor.
  const trueRss = peakRssKiB('true', []);

  log('');
  log(`read_file, lines 1-2000 of a ${(statSync(file).size / GIB).toFixed(2)} GB file (median of 31, warm cache)`);
  /** @param {number} kib */
  const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`;
  printTable(log, ['subject', 'median ms', 'time vs head', 'peak RSS', 'above its floor'], [
    ['workspace_read_file (in process)', ours.toFixed(2), ratio(ours, head), mib(oursRss), `${mib(oursRss - idleRss)} (floor: idle Node ${mib(idleRss)})`],
    ['head -n 2000 (spawned)', head.toFixed(2), '1.00x', mib(headRss), `${mib(Math.max(headRss - trueRss, 0))} (floor: true ${mib(trueRss)})`],
  ]);
  log(`output: ${output.length} characters; footer: ${output.slice(output.lastIndexOf('\n') + 1)}`);
  await benchReadPeers({ log, scratchDir, file, ours });
  return { case: 'read_file 1-2000 of 1 GB', ours, reference: head };
}

/**
 * The text of a result's first part (a read of a text file answers with one text part).
 * @param {ToolResult} result
 */
function firstText(result) {
  const part = result.parts[0];
  return part.kind === 'text' ? part.text : '';
}

/**
 * The same read through the peers: the MCP filesystem server's read_text_file with head, gemini-cli-core's ReadFileTool.
 * @param {BenchContext & { file: string, ours: number }} context ours: our median in ms
 */
async function benchReadPeers({ log, scratchDir, file, ours }) {
  const peersDir = process.env.WAT_BENCH_PEERS ?? path.join(path.dirname(scratchDir), 'bench-peers');
  try {
    await ensurePeers(peersDir, log);
  } catch (error) {
    log(`The peers could not be installed: ${firstLine(error)}`);
    return;
  }
  const root = path.dirname(file);
  /** @type {[name: string, peer: import('./search.mjs').Peer | undefined][]} */
  const peers = [
    ['@modelcontextprotocol/server-filesystem read_text_file head=2000', await startPeer('@modelcontextprotocol/server-filesystem', () => startMcpPeer(peersDir, root), log)],
    ['@google/gemini-cli-core ReadFileTool start_line=1 end_line=2000', await startPeer('@google/gemini-cli-core', () => startGeminiPeer(peersDir, root), log)],
  ];
  const rows = [];
  for (const [name, peer] of peers) {
    if (!peer) continue;
    try {
      const text = await peer.read(file, 2000);
      const ms = await medianMs(() => peer.read(file, 2000), 9);
      rows.push([name, ms.toFixed(2), `${ratio(ms, ours)} ours`, `${text.length} characters`]);
    } catch (error) {
      rows.push([name, '-', 'refused', firstLine(error).slice(0, 80)]);
    } finally {
      await peer.close();
    }
  }
  log('');
  log('The same read through the peers (median of 9):');
  printTable(log, ['peer', 'median ms', 'time', 'output'], rows);
}
