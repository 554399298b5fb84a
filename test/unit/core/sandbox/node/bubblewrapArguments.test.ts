// workspace_run_command in the real bubblewrap sandbox (installed by .ci/run) when the workspace's
// secret files make bubblewrap's options larger than execve takes in argv: they go through
// `--args 3`, a pipe the process runner gives bubblewrap, and the command still runs with every
// secret hidden. Fails naming bubblewrap when it is missing (commandWorkspace's before hook).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ProcessRequest } from '../../../../../src/core/ports/process';
import { commandWorkspace } from '../../../support/commandWorkspace';

/** Folders deep enough that every secret's path is about 3,600 bytes (PATH_MAX is 4,096), and enough secrets for their mounts to pass 1 MiB. */
const DEEP = Array.from({ length: 16 }, (_, index) => `${index}${'d'.repeat(220)}`).join('/');
const SECRETS = 300;
/** A folder whose name has a space and a newline: one argument each, as bubblewrap reads them. */
const ODD = 'odd name\nwith a newline';

describe('sandbox/node/bubblewrap arguments', function () {
  // Hundreds of mounts take bubblewrap a few seconds on a loaded machine.
  this.timeout(120_000);
  const workspace = commandWorkspace();

  before(() => {
    const deep = path.join(workspace.root, DEEP);
    fs.mkdirSync(deep, { recursive: true });
    for (let index = 0; index < SECRETS; index++) {
      fs.writeFileSync(path.join(deep, `.env.${index}`), `DEEP_SECRET_${index}=value\n`);
    }
    fs.mkdirSync(path.join(workspace.root, ODD));
    fs.writeFileSync(path.join(workspace.root, ODD, '.env'), 'ODD_SECRET=value\n');
  });

  it('runs a command when the mounts of the secret files take more than 1 MiB, with argv kept small and every secret reading empty', async () => {
    const requests: ProcessRequest[] = [];
    const { text } = await workspace.run(
      { command: `cat ${DEEP}/.env.0 ${DEEP}/.env.${SECRETS - 1}; cat '${ODD}/.env'; [ -e /proc/self/fd/3 ] && echo fd3-open || echo fd3-closed; true` },
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
});
