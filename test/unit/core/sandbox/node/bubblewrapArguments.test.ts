// workspace_run_command in the real bubblewrap sandbox (installed by .ci/run) when the workspace's
// secret files make bubblewrap's options larger than execve takes in argv: they go through
// `--args 3`, a pipe the process runner gives bubblewrap, and the command still runs with every
// secret hidden. Fails naming bubblewrap when it is missing (commandWorkspace's before hook).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ProcessRequest } from '../../../../../src/core/ports/process';
import { commandWorkspace } from '../../../support/commandWorkspace';
import { describeOnlyOn } from '../../../support/platforms';

/**
 * Folders deep enough that every secret's path is about 3,600 bytes (PATH_MAX is 4,096), and enough
 * secrets for their mounts to pass 1 MiB, spread over folders of 60 (a folder crowded with more is
 * hidden whole instead: plan.ts CROWDED_SECRET_FILES).
 */
const DEEP = Array.from({ length: 16 }, (_, index) => `${index}${'d'.repeat(220)}`).join('/');
const SECRETS = 300;
/** A folder whose name has a space and a newline: one argument each, as bubblewrap reads them. */
const ODD = 'odd name\nwith a newline';
/** The folder of the index-th secret: 60 to a folder. */
const secretFolder = (index: number): string => `${DEEP}/g${Math.floor(index / 60)}`;

describeOnlyOn(['linux', 'darwin'], 'the OS sandbox (bubblewrap, Seatbelt)')('sandbox/node/bubblewrap arguments', function () {
  // Hundreds of mounts take bubblewrap a few seconds on a loaded machine.
  this.timeout(120_000);
  const workspace = commandWorkspace();

  before(() => {
    for (let index = 0; index < SECRETS; index++) {
      const deep = path.join(workspace.root, secretFolder(index));
      fs.mkdirSync(deep, { recursive: true });
      fs.writeFileSync(path.join(deep, `.env.${index}`), `DEEP_SECRET_${index}=value\n`);
    }
    fs.mkdirSync(path.join(workspace.root, ODD));
    fs.writeFileSync(path.join(workspace.root, ODD, '.env'), 'ODD_SECRET=value\n');
  });

  it('runs a command when the mounts of the secret files take more than 1 MiB, with argv kept small and every secret reading empty', async () => {
    const requests: ProcessRequest[] = [];
    const { text } = await workspace.run(
      { command: `cat ${secretFolder(0)}/.env.0 ${secretFolder(SECRETS - 1)}/.env.${SECRETS - 1}; cat '${ODD}/.env'; [ -e /proc/self/fd/3 ] && echo fd3-open || echo fd3-closed; true` },
      // At risk level high the guard only asks for these reads, so the sandbox is what stops them.
      { approve: true, settings: { riskLevel: 'high' }, wrapHost: (host) => ({ ...host, processes: { start: (request) => (requests.push(request), host.processes.start(request)) } }) },
    );
    assert.match(text, /^Exit code: 0/, text.slice(0, 2000));
    assert.match(text, /--- stdout ---\nfd3-closed\n/, 'cat printed nothing, and the command does not inherit the options pipe');
    assert.doesNotMatch(text, /DEEP_SECRET|ODD_SECRET/);
    assert.equal(requests.length, 1);
    const [request] = requests;
    const argvBytes = [...(request.launcher ?? []), request.shell, '-c', request.commandLine].reduce((sum, arg) => sum + Buffer.byteLength(arg) + 1, 0);
    assert.ok(argvBytes < 16 * 1024, `argv is ${argvBytes} bytes`);
    const input = request.launcherInput ?? '';
    assert.ok(Buffer.byteLength(input) > 1024 * 1024, `the options are ${Buffer.byteLength(input)} bytes`);
    assert.ok(input.split('\0').includes(path.join(workspace.root, ODD, '.env')), 'the odd path is one argument');
  });

  it('hides a folder crowded with 12,000 secret files whole, and the command runs, told which folder it sees empty', async () => {
    const crowded = path.join(workspace.root, 'crowded');
    fs.mkdirSync(crowded);
    for (let index = 0; index < 12_000; index++) {
      fs.writeFileSync(path.join(crowded, `.env.${index}`), `CROWDED_SECRET_${index}=value\n`);
    }
    fs.writeFileSync(path.join(crowded, 'readme.txt'), 'not a secret\n');
    const { text } = await workspace.run({ command: 'ls -A crowded | wc -l; echo done' }, { approve: true });
    assert.match(text, /^Exit code: 0/, text.slice(0, 2000));
    assert.match(text, /--- stdout ---\n0\ndone\n/);
    assert.match(text, /kept read-only: \S*crowded holds 12,000 secret files \(\.env and the like\), so the command sees it empty/);
    assert.doesNotMatch(text, /CROWDED_SECRET/);
  });
});
