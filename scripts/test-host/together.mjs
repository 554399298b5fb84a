// @ts-check
// Runs npm scripts side by side and fails when any fails: `npm test` runs the terminal agents'
// end-to-end tests (mostly waiting: a person's review, a slow command) beside the unit tests
// (mostly CPU), which keeps the whole run short on a 2-core machine. Each line of output is
// prefixed with its script's name; each script's time and exit code is printed at the end.
//
//   node scripts/test-host/together.mjs <npm script> <npm script> ...

import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/test-host/together.mjs <npm script> ...');
  process.exit(2);
}

/**
 * Copies a stream line by line with a prefix.
 * @param {NodeJS.ReadableStream} stream
 * @param {NodeJS.WritableStream} to
 * @param {string} prefix
 */
function prefixed(stream, to, prefix) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) to.write(`${prefix}${line}\n`);
  });
  stream.on('end', () => {
    if (rest) to.write(`${prefix}${rest}\n`);
  });
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const results = await Promise.all(scripts.map((script) => new Promise((resolve) => {
  const started = Date.now();
  const child = spawn(npm, ['run', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  prefixed(child.stdout, process.stdout, `[${script}] `);
  prefixed(child.stderr, process.stderr, `[${script}] `);
  child.on('error', (error) => resolve({ script, code: 1, seconds: 0, error: String(error) }));
  child.on('close', (code, signal) => resolve({ script, code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000 }));
})));

for (const result of /** @type {{ script: string, code: number, seconds: number, error?: string }[]} */ (results)) {
  console.log(`${result.code === 0 ? 'ok  ' : 'FAIL'} ${result.script} (${result.seconds.toFixed(1)} s${result.code === 0 ? '' : `, exit code ${result.code}`}${result.error ? `: ${result.error}` : ''})`);
}
process.exit(results.some((result) => /** @type {{ code: number }} */ (result).code !== 0) ? 1 : 0);
