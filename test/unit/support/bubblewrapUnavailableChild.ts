// Run by test/unit/core/sandbox/node/bubblewrapUnavailable.test.ts inside a user namespace where
// bubblewrap cannot start: probes the sandbox as the extension does, and runs one command through
// invokeTool in auto mode (the user says yes) and one in required mode. Prints what it saw as JSON.
import * as path from 'node:path';
import type { CommandHost } from '../../../src/core/ports/process';
import { BackgroundCommandRegistry } from '../../../src/core/process/backgroundCommands';
import { nodeProcessRunner } from '../../../src/core/process/node/processRunner';
import { MachineSandbox } from '../../../src/core/sandbox/node/machineSandbox';
import type { ToolSettings } from '../../../src/core/settings';
import { runCommandTool } from '../../../src/core/tools/command/runCommand';
import { invokeTool } from '../../../src/core/tools/invoke';
import { RecordingTerminal } from './commandWorkspace';
import { resultText, ScriptedApprover, testContext } from './context';
import { RIPGREP } from './searchTree';
import { systemClock } from '../../../src/core/time';

async function main(): Promise<void> {
  const [parent] = process.argv.slice(2);
  const root = path.join(parent, 'ws');
  const sandbox = new MachineSandbox(RIPGREP, [], 'linux', { scanIndex: false });
  const availability = await sandbox.availability('');
  const host: CommandHost = { shell: '/bin/sh', logDirectory: path.join(parent, 'logs'), pid: process.pid, environment: () => process.env, openTerminal: () => new RecordingTerminal(), processes: nodeProcessRunner, sandbox, background: new BackgroundCommandRegistry({ clock: systemClock }) };
  const run = async (command: string, settings: Partial<ToolSettings>): Promise<{ text: string; asked: string[] }> => {
    const approver = new ScriptedApprover(true);
    const ctx = testContext({ root, approver, settings, commands: host });
    const text = await invokeTool(runCommandTool, { command }, ctx).then(resultText, (error: Error) => `ERROR ${error.message}`);
    return { text, asked: approver.asked.map((request) => request.detail ?? '') };
  };
  const auto = await run('echo ran > auto.txt', { runCommandSandbox: 'auto' });
  const required = await run('echo ran > required.txt', { runCommandSandbox: 'required' });
  sandbox.dispose();
  process.stdout.write(JSON.stringify({ uid: process.getuid?.(), availability, auto, required }));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
