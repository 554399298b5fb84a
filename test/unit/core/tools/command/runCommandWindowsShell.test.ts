// workspace_run_command with the shells of Windows, on Linux: the host says its shell is PowerShell
// (or cmd) and its machine has no sandbox the way Windows has none; the runner records the request
// and runs the line with /bin/sh (PowerShell cannot be had here). What is checked: the line is
// judged by the PowerShell policy, a provably read-only line runs without a question and every
// other asks, the `Sandbox:` line says Windows has none, and the runner gets PowerShell's arguments.
import * as assert from 'node:assert/strict';
import type { CommandHost, ProcessRequest, SandboxAvailability, SandboxHost, ShellKind } from '../../../../../src/core/ports/process';
import { POWERSHELL_PRELUDE } from '../../../../../src/core/process/shellChoice';
import { runCommandTool } from '../../../../../src/core/tools/command/runCommand';
import { invokeTool } from '../../../../../src/core/tools/invoke';
import { commandWorkspace } from '../../../support/commandWorkspace';

const WINDOWS: SandboxAvailability = { kind: 'none', reason: 'Windows has no OS sandbox this extension uses', windows: true };

/** The host as Windows would have it: the shell's kind, no sandbox; the requests the runner got. */
function windowsHost(kind: ShellKind, requests: ProcessRequest[]): (host: CommandHost) => CommandHost {
  return (host) => {
    const sandbox = new Proxy(host.sandbox, {
      get: (target, property) => (property === 'availability' ? async () => WINDOWS : Reflect.get(target, property, target)),
    }) as SandboxHost;
    return {
      ...host,
      shellKind: kind,
      sandbox,
      processes: {
        start: (request) => {
          requests.push(request);
          // /bin/sh stands in for PowerShell and cmd here: the runner gets the line with `-c`.
          return host.processes.start({ ...request, shellArguments: undefined, verbatimArguments: undefined });
        },
      },
    };
  };
}

describe('workspace_run_command with a Windows shell', () => {
  const workspace = commandWorkspace();

  it('runs a read-only PowerShell line without asking, with -EncodedCommand, and says there is no sandbox on Windows', async () => {
    const requests: ProcessRequest[] = [];
    const { text, approver } = await workspace.run({ command: 'echo hello' }, { wrapHost: windowsHost('powershell', requests) });
    assert.deepEqual(approver.asked, []);
    assert.match(text, /hello/);
    assert.match(text, /Sandbox: none on Windows \(there is no OS sandbox here: a command the policy cannot prove read-only asks first/);
    assert.equal(requests.length, 1);
    const args = requests[0].shellArguments ?? [];
    assert.deepEqual(args.slice(0, -1), ['-NoLogo', '-NoProfile', '-NonInteractive', '-OutputFormat', 'Text', '-EncodedCommand']);
    assert.equal(Buffer.from(args[args.length - 1], 'base64').toString('utf16le'), `${POWERSHELL_PRELUDE}\necho hello`);
    assert.equal(requests[0].verbatimArguments, false);
  });

  it('asks before a PowerShell line that is not provably read-only, in its own question (it would run with all your rights)', async () => {
    const requests: ProcessRequest[] = [];
    const { ctx, approver } = workspace.setup({ wrapHost: windowsHost('powershell', requests) });
    await assert.rejects(invokeTool(runCommandTool, { command: 'Remove-Item sub' }, ctx), /The user declined to run `Remove-Item sub`/);
    assert.equal(approver.asked.length, 1);
    assert.match(approver.asked[0].detail, /OUTSIDE the sandbox.*Remove-Item deletes or empties files/s);
    assert.equal(requests.length, 0);
  });

  it('asks before a line that writes a file, though the policy allows it (only read-only lines skip the question on Windows)', async () => {
    const { approver } = await workspace.run({ command: 'Get-ChildItem > listing.txt' }, { approve: true, wrapHost: windowsHost('powershell', []) });
    assert.equal(approver.asked.length, 1);
  });

  it('judges a line for cmd.exe not at all: it asks, and runs with /d /s /c verbatim once approved', async () => {
    const requests: ProcessRequest[] = [];
    const { approver } = await workspace.run({ command: 'echo hi' }, { approve: true, wrapHost: windowsHost('cmd', requests) });
    assert.equal(approver.asked.length, 1);
    assert.match(approver.asked[0].detail, /cmd\.exe, whose lines this extension does not check/);
    assert.deepEqual(requests[0].shellArguments, ['/d', '/s', '/c', '"echo hi"']);
    assert.equal(requests[0].verbatimArguments, true);
  });
});
