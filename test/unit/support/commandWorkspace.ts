import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CancellationSignal } from '../../../src/core/errors';
import type { CommandHost, CommandTerminal, TerminalInputTarget } from '../../../src/core/ports/process';
import { BackgroundCommandRegistry } from '../../../src/core/process/backgroundCommands';
import { nodeProcessRunner } from '../../../src/core/process/node/processRunner';
import { MachineSandbox } from '../../../src/core/sandbox/node/machineSandbox';
import { RIPGREP } from './searchTree';
import { skipUnlessOn } from './platforms';
import type { ToolSettings } from '../../../src/core/settings';
import { runCommandTool } from '../../../src/core/tools/command/runCommand';
import { resultText, ScriptedApprover, testContext } from './context';
import { invokeTool } from '../../../src/core/tools/invoke';
import { fileLocation } from '../../../src/core/location';
import { systemClock } from '../../../src/core/time';

/**
 * The input watch's waits for real processes in tests: a command quiet this long whose process
 * reads its input counts as waiting (the extension waits 3 s, QUIET_MS). A registry a test makes
 * for these workspaces takes it too. Not shorter: a prompt written to the pty reaches the output
 * through the pty helper, and at 250 ms on a loaded machine bash was seen reading before its
 * prompt had arrived.
 */
export const TEST_INPUT_TIMING = { quietMs: 1000, checkMs: 100 };

/** A terminal that records what it was shown and can be interrupted like Ctrl+C. */
export class RecordingTerminal implements CommandTerminal {
  text = '';
  summary = '';
  notes: string[] = [];
  private listeners: Array<() => void> = [];
  write(chunk: string): void {
    this.text += chunk;
  }
  note(text: string): void {
    this.notes.push(text);
  }
  finish(summary: string): void {
    this.summary = summary;
  }
  onInterrupt(listener: () => void): { dispose(): void } {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((other) => other !== listener)) };
  }
  interrupt(): void {
    this.listeners.forEach((listener) => listener());
  }
  /** Where lines typed in the terminal go, while it takes input. */
  inputTarget: TerminalInputTarget | undefined;
  acceptInput(target: TerminalInputTarget): { dispose(): void } {
    this.inputTarget = target;
    return { dispose: () => (this.inputTarget = this.inputTarget === target ? undefined : this.inputTarget) };
  }
}

export interface RunOptions {
  /** The background registry the context uses; a fresh one when left out. */
  background?: BackgroundCommandRegistry;
  approve?: boolean;
  token?: CancellationSignal;
  settings?: Partial<ToolSettings>;
  /** The extension host's environment the command starts from; process.env when left out. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Replaces parts of the command host (a runner that fails, a sandbox that counts). */
  wrapHost?: (host: CommandHost) => CommandHost;
  /** The user's home folder, for the context and as the command's HOME; the real one when left out. */
  home?: string;
  /** The workspace folder as measured on a volume that ignores letter case. */
  caseInsensitive?: boolean;
}

export interface CommandWorkspace {
  /** The temp folder that holds the workspace (ws/, with a sub/ folder) and the command logs; outside the workspace. */
  readonly parent: string;
  /** The workspace folder. */
  readonly root: string;
  /** A folder outside /tmp the sandbox is told is the extension's own (as the MCP endpoint's is): commands must not see it. It holds `endpoint.lock`. */
  readonly privateFolder: string;
  /** The machine sandbox the commands run in (its staging, when asked for). */
  readonly sandbox: MachineSandbox;
  /** A context whose command host runs /bin/sh through the real process runner and shows output in a recording terminal. */
  setup(options?: RunOptions): { ctx: ReturnType<typeof testContext>; terminal: RecordingTerminal; approver: ScriptedApprover };
  /** Calls workspace_run_command through invokeTool and returns the result's text. */
  run(input: Record<string, unknown>, options?: RunOptions): Promise<{ text: string; terminal: RecordingTerminal; approver: ScriptedApprover; ctx: ReturnType<typeof testContext> }>;
}

/**
 * A workspace for workspace_run_command, made in a `before` hook of the calling describe and
 * removed in its `after` hook.
 */
export function commandWorkspace(where: { readonly base?: () => string; /** Give the sandbox a staging root (runCommand.stageChanges), in the private folder. */ readonly staging?: boolean } = {}): CommandWorkspace {
  let parent = '';
  let privateFolder = '';
  let sandbox: MachineSandbox | undefined;
  before(async function () {
    // The commands below are POSIX shell lines run in the OS sandbox, which Windows has not (its runner: process/node/processTree.test.ts).
    skipUnlessOn(this, ['linux', 'darwin'], 'the OS sandbox (bubblewrap, Seatbelt) and the POSIX shell the command tests run in');
    parent = fs.mkdtempSync(path.join(where.base?.() ?? os.tmpdir(), 'wat-run-'));
    fs.mkdirSync(path.join(parent, 'ws', 'sub'), { recursive: true });
    // Outside /tmp, which the sandbox replaces anyway, so hiding it is what keeps it unseen.
    privateFolder = fs.mkdtempSync(path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : os.homedir(), 'wat-private-'));
    fs.writeFileSync(path.join(privateFolder, 'endpoint.lock'), 'NONCE-BYTES\n', { mode: 0o600 });
    // Approved commands reach the network through the proxy, served inside by the compiled relay.
    sandbox = new MachineSandbox(RIPGREP, [privateFolder], process.platform, { relay: { program: process.execPath, script: path.resolve(__dirname, '../../../src/core/sandbox/node/proxyRelay.js') }, ...(where.staging ? { stagingRoot: path.join(privateFolder, 'staged') } : {}) });
    // Commands run in the real sandbox, as they do for users: without it these tests mean nothing.
    const availability = await sandbox.availability('');
    if (availability.kind === 'none') {
      throw new Error(`The command tests need the OS sandbox: ${availability.reason}. (.ci/run installs it: apt-get install bubblewrap.)`);
    }
  });
  after(() => {
    if (parent === '') {
      // Skipped before anything was made.
      return;
    }
    fs.rmSync(parent, { recursive: true, force: true });
    fs.rmSync(privateFolder, { recursive: true, force: true });
    sandbox?.dispose();
  });

  const setup = (options: RunOptions = {}) => {
    const terminal = new RecordingTerminal();
    const background = options.background ?? new BackgroundCommandRegistry({ clock: systemClock, inputTiming: TEST_INPUT_TIMING });
    const environment = options.home === undefined ? options.environment ?? process.env : { ...(options.environment ?? process.env), HOME: options.home };
    if (!sandbox) {
      throw new Error('The workspace\'s before hook did not make the sandbox.');
    }
    const made: CommandHost = { shell: '/bin/sh', logDirectory: path.join(parent, 'logs'), pid: process.pid, environment: () => environment, openTerminal: () => terminal, processes: nodeProcessRunner, sandbox, background, inputTiming: TEST_INPUT_TIMING };
    const host = options.wrapHost ? options.wrapHost(made) : made;
    const approver = new ScriptedApprover(options.approve ?? false);
    const folders = options.caseInsensitive ? { folders: [{ name: 'ws', location: fileLocation(path.join(parent, 'ws')), caseInsensitive: true }] } : {};
    const ctx = testContext({ root: path.join(parent, 'ws'), approver, token: options.token, settings: options.settings, commands: host, workspace: { ...folders, ...(options.home === undefined ? {} : { home: options.home }) } });
    return { ctx, terminal, approver };
  };
  return {
    get parent() {
      return parent;
    },
    get root() {
      return path.join(parent, 'ws');
    },
    get privateFolder() {
      return privateFolder;
    },
    get sandbox() {
      if (!sandbox) {
        throw new Error('The workspace\'s before hook did not make the sandbox.');
      }
      return sandbox;
    },
    setup,
    async run(input, options = {}) {
      const { ctx, terminal, approver } = setup(options);
      const result = await invokeTool(runCommandTool, input, ctx);
      return { text: resultText(result), terminal, approver, ctx };
    },
  };
}

/** Polls a file until it has content: the command writes the pids it started. */
export async function readWhenWritten(file: string): Promise<string> {
  for (;;) {
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8').trim().split('\n').length >= 2) {
      return fs.readFileSync(file, 'utf8');
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until the recording terminal has shown `text`. */
export async function shown(terminal: RecordingTerminal, text: string): Promise<void> {
  while (!terminal.text.includes(text)) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
