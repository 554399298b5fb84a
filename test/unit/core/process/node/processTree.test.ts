// A command's whole process tree is stopped on every platform: its process group on Linux and
// macOS, the tree under its shell on Windows (taskkill /T, or wmic's parent ids where taskkill has
// no /T, as under wine); and each shell gets the command line in its own grammar.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startProcess } from '../../../../../src/core/process/node/processRunner';
import { descendantsOf, parseProcessTable } from '../../../../../src/core/process/processTree';
import { shellArguments } from '../../../../../src/core/process/shellArguments';
import { shellInvocation } from '../../../../../src/core/process/shellChoice';
import { NEVER_CANCELLED } from '../../../../../src/core/errors';
import { alive } from '../../../../support/procfs';
import { itOnlyOn } from '../../../support/platforms';

const windows = process.platform === 'win32';
/** The shell the platform runs a command line with: cmd.exe of Windows' own folder, else sh. */
const SHELL = windows ? path.win32.join(process.env.SystemRoot ?? 'C:\\Windows', 'System32', 'cmd.exe') : '/bin/sh';

/** True while the process runs (on Linux a zombie does not count). */
function running(pid: number): boolean {
  if (process.platform === 'linux') {
    return alive(pid);
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function request(folder: string, commandLine: string, onOutput?: (text: string) => void): Parameters<typeof startProcess>[0] {
  return { shell: SHELL, commandLine, cwd: folder, env: process.env, killGraceMs: 1000, logPath: path.join(folder, 'logs', 'command.log'), headChars: 10_000, tailChars: 10_000, maxLogChars: 100_000, token: NEVER_CANCELLED, onOutput };
}

describe('process/node: the whole tree of a command', function () {
  this.timeout(60_000);
  let folder: string;
  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-tree-'));
  });
  // Retried: on Windows a log the stopped tree's host still closes keeps its folder from being removed for a moment (ENOTEMPTY).
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));

  it('stops the shell, the program it started and that program\'s own child at once, and says it was stopped', async () => {
    const script = path.join(folder, 'tree.js');
    const pids = path.join(folder, 'pids');
    fs.writeFileSync(script, [
      "const { spawn } = require('node:child_process');",
      "const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });",
      "require('node:fs').writeFileSync(process.argv[2], `${process.pid}\\n${grandchild.pid}\\n`);",
      "console.log('started');",
      'setInterval(() => {}, 1000);',
    ].join('\n'));
    let output = '';
    let started!: () => void;
    const startedLine = new Promise<void>((resolve) => (started = resolve));
    const handle = startProcess(request(folder, `"${process.execPath}" "${script}" "${pids}"`, (text) => {
      output += text;
      if (output.includes('started')) started();
    }));
    await startedLine;
    const tree = fs.readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    assert.equal(tree.length, 2);
    assert.ok(tree.every(running), 'the program and its child run before the stop');
    handle.stop('cancelled');
    const outcome = await handle.outcome;
    assert.equal(outcome.stopped, 'cancelled');
    assert.deepEqual(tree.filter(running), [], 'nothing of the tree is left');
    assert.equal(running(handle.pgid!), false, 'the shell is gone');
  });

  itOnlyOn('win32', 'cmd.exe')('runs the command line in cmd.exe as written: quotes, & and the exit code', async () => {
    const outcome = await startProcess(request(folder, 'echo "a  b"& echo c& exit 3')).outcome;
    assert.equal(outcome.exitCode, 3);
    assert.equal(outcome.stdout.text.replace(/\r\n/g, '\n'), '"a  b"\nc\n');
  });
});

describe('process: trees and shell arguments', () => {
  it('reads the process table of wmic and finds every descendant of a process, parents first, whatever the order of the rows', () => {
    const table = parseProcessTable('ParentProcessId  ProcessId  \r\r\n0                4          \r\r\n452              460        \r\r\n444              452        \r\r\n460              468        \r\r\n4                444        \r\r\n');
    assert.deepEqual(table, [{ parent: 0, pid: 4 }, { parent: 452, pid: 460 }, { parent: 444, pid: 452 }, { parent: 460, pid: 468 }, { parent: 4, pid: 444 }]);
    assert.deepEqual(descendantsOf(444, table), [452, 460, 468]);
    assert.deepEqual(descendantsOf(468, table), []);
    // Reused ids that make a cycle end the walk.
    assert.deepEqual(descendantsOf(1, [{ parent: 1, pid: 2 }, { parent: 2, pid: 1 }]), [2]);
  });

  it('gives each shell the command line in its own way', () => {
    assert.deepEqual(shellArguments('/bin/bash', 'echo "a b"'), { args: ['-c', 'echo "a b"'], verbatim: false });
    assert.deepEqual(shellArguments('C:\\Windows\\System32\\cmd.exe', 'echo "a b" & ver'), { args: ['/d', '/s', '/c', '"echo "a b" & ver"'], verbatim: true });
    // PowerShell as workspace_run_command runs it: the line travels as one base64 word (shellChoice.ts).
    assert.deepEqual(shellArguments('C:\\Program Files\\PowerShell\\7\\pwsh.exe', 'Get-ChildItem'), shellInvocation({ program: 'pwsh.exe', kind: 'powershell' }, 'Get-ChildItem'));
    assert.equal(shellArguments('C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe', 'x').args.includes('-EncodedCommand'), true);
  });
});
