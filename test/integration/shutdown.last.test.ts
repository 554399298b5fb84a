// Runs after every other suite (index.ts sorts `*.last.test.js` last): leaves background commands
// running on purpose, for the runner's check that the host took them down when it exited
// (scripts/test-host/leftovers.mjs). Earlier, they would make other suites' restores refuse.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { CommandId } from '../../src/vscode/commandIds';
import { processesWithCommandLine, startTime } from '../support/procfs';
import { invoke, until, withSettings } from './support/tools';

const RUN = 'workspace_run_command';

describe('background commands at host shutdown (extension host)', function () {
  this.timeout(60_000);
  before(function () {
    if (!vscode.workspace.isTrusted) this.skip();
  });

  it('leaves commands running at the end for the host shutdown check', async function () {
    // Started and never stopped: the test runner checks, after the host has exited, that none of
    // these processes is left (scripts/test-host/leftovers.mjs). One runs in the sandbox, one outside.
    const file = process.env.WAT_LEFTOVERS_FILE;
    if (!file) this.skip();
    const seconds = 10_000 * process.pid + 1000 + Math.floor(Math.random() * 8000); // a sleep no other process uses, this host's pid in it
    await invoke(RUN, { command: `sleep ${seconds}`, background: true, timeout: 1 });
    const outside = await withSettings({ 'runCommand.sandbox': 'off' }, () => invoke(RUN, { command: `sleep ${seconds + 1}`, background: true, timeout: 1 }));
    assert.match(outside.text, /^Sandbox: none/m);
    await until(() => processesWithCommandLine(`sleep ${seconds}`).length + processesWithCommandLine(`sleep ${seconds + 1}`).length === 2, 'both sleeps to start');
    const pids = [...processesWithCommandLine(`sleep ${seconds}`), ...processesWithCommandLine(`sleep ${seconds + 1}`)].map((pid) => ({ pid, startTime: startTime(pid), what: fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() }));
    fs.writeFileSync(file, JSON.stringify(pids));
    assert.strictEqual((await vscode.commands.executeCommand<{ running: unknown[] }>(CommandId.listBackgroundCommands)).running.length, 2);
  });
});
