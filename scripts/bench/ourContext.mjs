// @ts-check
// Our tools as the benchmarks call them: compiled core (out/) over the local disk, with the grouped
// context the extension builds. A tool is run through prepare(input).run(ctx): the tool's own work
// with its input checked, without redaction and the output budget of invokeTool (the references,
// head and rg, do neither).
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * @typedef {import('../../src/core/context.js').ToolContext} ToolContext
 * @typedef {import('../../src/core/settings.js').ToolSettings} ToolSettings
 * @typedef {import('../../src/core/tools/toolSpec.js').Tool} Tool
 * @typedef {import('../../src/core/tools/toolSpec.js').ToolResult} ToolResult
 */

/**
 * A module of tsc's output, typed by its source.
 * @template T
 * @param {string} relative the path under src/, without extension
 * @returns {T}
 */
export function compiled(relative) {
  return require(path.join(repo, 'out', 'src', `${relative}.js`));
}

/**
 * @param {{ root: string, settings?: Partial<ToolSettings>, ripgrepPath?: string, commands?: import('../../src/core/ports/process.js').CommandHost, ignoreIndex?: import('../../src/core/ports/search.js').IgnoreFileIndex }} options
 * @returns {ToolContext}
 */
export function ourContext({ root, settings = {}, ripgrepPath, commands, ignoreIndex }) {
  /** @type {typeof import('../../src/core/fs/node/nodeFileSystem.js')} */
  const { NodeFileSystem } = compiled('core/fs/node/nodeFileSystem');
  /** @type {typeof import('../../src/core/changes/readLedger.js')} */
  const { MemoryReadLedger } = compiled('core/changes/readLedger');
  /** @type {typeof import('../../src/core/search/engines.js')} */
  const { LocalFirstSearchEngines } = compiled('core/search/engines');
  /** @type {typeof import('../../src/core/settings.js')} */
  const { DEFAULT_SETTINGS } = compiled('core/settings');
  /** @type {typeof import('../../src/core/search/ripgrep/node/ripgrepEngine.js')} */
  const { RipgrepSearchEngine } = compiled('core/search/ripgrep/node/ripgrepEngine');
  /** @type {typeof import('../../src/core/guard/command/shell/node/wasmGrammar.js')} */
  const { loadBashParser, loadPowerShellParser } = compiled('core/guard/command/shell/node/wasmGrammar');
  /** @type {typeof import('../../src/core/read/node/pdfJs.js')} */
  const { importPdfJs } = compiled('core/read/node/pdfJs');
  /** @type {typeof import('../../src/core/time.js')} */
  const { systemClock } = compiled('core/time');
  const fs = new NodeFileSystem();
  const ripgrep = ripgrepPath === undefined ? undefined : new RipgrepSearchEngine(ripgrepPath, fs, ignoreIndex);
  return {
    host: { fs, buffers: { dirtyText: () => undefined, dirtyNotebookCells: () => undefined }, clock: systemClock, search: new LocalFirstSearchEngines(fs, ripgrep), commands, libraries: { bashParser: loadBashParser, powerShellParser: loadPowerShellParser, pdfJs: importPdfJs } },
    session: { approver: { confirm: async () => false, choose: async () => /** @type {const} */ ('reject') }, reads: new MemoryReadLedger() },
    call: { token: { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) } },
    settings: { ...DEFAULT_SETTINGS, ...settings },
    workspace: { folders: [{ name: path.basename(root), location: { scheme: 'file', authority: '', path: root } }], trusted: true, home: '/nonexistent' },
  };
}

/**
 * A CommandHost that runs commands the way the extension does (process runner, machine sandbox),
 * with a terminal that shows nothing. Dispose it to remove the sandbox's private folders.
 * @param {string} logDirectory
 * @param {string | undefined} ripgrepPath
 * @param {{ scanIndex?: boolean, stagingRoot?: string }} [options] scanIndex false: no index, every command walks the writable folders; stagingRoot: staged commands' layers (runCommand.stageChanges)
 */
export function ourCommandHost(logDirectory, ripgrepPath, options = {}) {
  /** @type {typeof import('../../src/core/process/node/processRunner.js')} */
  const { nodeProcessRunner } = compiled('core/process/node/processRunner');
  /** @type {typeof import('../../src/core/sandbox/node/machineSandbox.js')} */
  const { MachineSandbox } = compiled('core/sandbox/node/machineSandbox');
  /** @type {typeof import('../../src/core/process/backgroundCommands.js')} */
  const { BackgroundCommandRegistry } = compiled('core/process/backgroundCommands');
  /** @type {typeof import('../../src/core/time.js')} */
  const { systemClock } = compiled('core/time');
  const sandbox = new MachineSandbox(ripgrepPath, [], process.platform, options);
  /** @type {import('../../src/core/ports/process.js').CommandHost} */
  const host = {
    shell: '/bin/sh',
    logDirectory,
    pid: process.pid,
    environment: () => process.env,
    openTerminal: () => ({ write() {}, note() {}, finish() {}, onInterrupt: () => ({ dispose() {} }), acceptInput: () => ({ dispose() {} }) }),
    processes: nodeProcessRunner,
    sandbox,
    background: new BackgroundCommandRegistry({ clock: systemClock }),
  };
  return { host, sandbox, dispose: () => sandbox.dispose() };
}

/**
 * One of our tools by name, from the compiled tool list.
 * @param {string} name
 * @returns {Tool}
 */
export function ourTool(name) {
  /** @type {typeof import('../../src/core/tools/index.js')} */
  const { toolNamed } = compiled('core/tools/index');
  const tool = toolNamed(name);
  if (!tool) {
    throw new Error(`no tool named ${name}`);
  }
  return tool;
}

/**
 * Runs a tool's own work on an input.
 * @param {Tool} tool
 * @param {unknown} input
 * @param {ToolContext} ctx
 * @returns {Promise<ToolResult>}
 */
export function runTool(tool, input, ctx) {
  return tool.prepare(input).run(ctx);
}
