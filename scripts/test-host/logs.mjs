// @ts-check
// What the integration runner prints besides the verdicts: banners, the spec report streamed while
// a pass runs, and the logs of a pass that failed.
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';

/**
 * One log file the workbench hands over with codeAutomationExit.
 * @typedef {{ relativePath?: string, contents?: string }} BrowserLog
 */

/** @param {string} text */
export function banner(text) {
  const line = '='.repeat(Math.max(20, Math.min(100, text.length + 4)));
  console.log(`\n${line}\n  ${text}\n${line}`);
}

/**
 * An error's stack where it has one, else the value itself.
 * @param {unknown} error
 */
export function errorText(error) {
  return error instanceof Error ? (error.stack ?? error) : error;
}

/**
 * Streams new bytes of `file` to stdout, whole lines at a time, until stopped.
 * @param {string} file
 * @param {string} [prefix] put before each line (passes that run side by side name theirs)
 */
export function tailFile(file, prefix = '') {
  /** @param {string} text whole lines, each ending in a line break */
  const print = (text) => process.stdout.write(prefix && text ? text.slice(0, -1).split('\n').map((line) => `${prefix}${line}\n`).join('') : text);
  let position = 0;
  let partial = '';
  const pump = () => {
    let fd;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      return;
    }
    try {
      const size = fs.fstatSync(fd).size;
      if (size <= position) return;
      const buffer = Buffer.alloc(size - position);
      fs.readSync(fd, buffer, 0, buffer.length, position);
      position = size;
      const text = partial + buffer.toString('utf8');
      const cut = text.lastIndexOf('\n') + 1;
      print(text.slice(0, cut));
      partial = text.slice(cut);
    } finally {
      fs.closeSync(fd);
    }
  };
  const timer = setInterval(pump, 200);
  return {
    /** Prints what is left, the last line too. */
    stop() {
      clearInterval(timer);
      pump();
      if (partial) print(partial + '\n');
      partial = '';
    },
  };
}

/**
 * Every file under `dir`, sorted; none when it does not exist.
 * @param {string} dir
 * @returns {Promise<string[]>}
 */
export async function listFiles(dir) {
  /** @type {string[]} */
  const files = [];
  /** @param {string} folder */
  async function walk(folder) {
    let entries;
    try {
      entries = await fsp.readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) files.push(full);
    }
  }
  await walk(dir);
  return files.sort();
}

/**
 * The last `max` characters of `text`, saying how many were cut.
 * @param {string} text
 */
export function clip(text, max = 20_000) {
  return text.length > max ? `... (${text.length - max} earlier characters cut)\n${text.slice(-max)}` : text;
}

/**
 * Prints the extension host's logs (and other server logs) of a failed pass.
 * @param {import('./code-server.mjs').CodeServer} codeServer
 * @param {BrowserLog[] | undefined} browserLogs
 * @param {string[]} consoleLines
 */
export async function printLogs(codeServer, browserLogs, consoleLines) {
  const logsDir = path.join(codeServer.userDataDir, 'logs');
  const files = await listFiles(logsDir);
  const interesting = files.filter((file) => /exthost|remoteagent|extension|output_/i.test(path.relative(logsDir, file)));
  banner(`extension host logs (${logsDir})`);
  if (interesting.length === 0) console.log(`(no log files; all files: ${files.map((file) => path.relative(logsDir, file)).join(', ') || 'none'})`);
  for (const file of interesting) {
    const text = await fsp.readFile(file, 'utf8').catch((error) => `<${error.message}>`);
    if (!text.trim()) continue;
    console.log(`\n--- ${path.relative(logsDir, file)} ---\n${clip(text)}`);
  }
  for (const log of browserLogs ?? []) {
    if (!/exthost|extension|window|renderer/i.test(log.relativePath ?? '') || !log.contents?.trim()) continue;
    console.log(`\n--- browser: ${log.relativePath} ---\n${clip(log.contents)}`);
  }
  banner('code-server output (tail)');
  console.log(clip(codeServer.output(), 8000) || '(empty)');
  if (consoleLines.length) {
    banner('browser console (tail)');
    console.log(clip(consoleLines.join('\n'), 8000));
  }
}
