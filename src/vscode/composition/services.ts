// The host's services, built once at activation: the activity log, command terminals and logs, the
// private folders, the sandbox (and its index, built in the background), background commands and
// their crash records, the checkpoint store, and the ToolServices every call gets. Each step's time
// is recorded (activationTimings.ts). What the window shows and registers: contributions.ts.
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { HeldCallRegistry } from '../../core/calls/heldCalls';
import { MemoryReadLedger } from '../../core/changes/readLedger';
import { BackgroundCommandRegistry } from '../../core/process/backgroundCommands';
import { GitCheckpointStore } from '../../core/checkpoints/node/git/gitCheckpointStore';
import { pruneCommandLogs } from '../../core/process/node/pruneCommandLogs';
import { systemClock } from '../../core/time';
import { endOrphanedGroups, GroupRecordFile } from '../../core/process/node/groupRecords';
import { nodeProcessRunner, stopAllCommands } from '../../core/process/node/processRunner';
import { chooseCommandShell } from '../../core/process/shellChoice';
import { MachineSandbox, privateCacheDirectory } from '../../core/sandbox/node/machineSandbox';
import { runtimeFolder } from '../../mcp/privateFolder';
import { LocalFirstSearchEngines } from '../../core/search/engines';
import { RipgrepSearchEngine } from '../../core/search/ripgrep/node/ripgrepEngine';
import { loadBashParser, loadPowerShellParser } from '../../core/guard/command/shell/node/wasmGrammar';
import { importPdfJs } from '../../core/read/node/pdfJs';
import type { ActivationTimings } from '../activationTimings';
import { DiffReview } from '../changes/diffReview';
import { ProposedContent } from '../changes/proposedContent';
import { WorkspaceEditApplier } from '../changes/workspaceEditApplier';
import { commandHostFor, CommandTerminals } from '../host/commandTerminals';
import { VsCodeEditorBuffers } from '../host/editorBuffers';
import { VsCodeLanguageFeatures } from '../host/languageFeatures';
import { measureFolderCase } from '../host/settings';
import { locateRipgrep } from '../host/ripgrepLocator';
import { VsCodeFileSystem } from '../host/vscodeFileSystem';
import type { ToolServices } from '../tools/registration';
import { ActivityLog } from '../ui/activityLog';
import { PendingApprovals } from '../ui/approvals';

const KEPT_COMMAND_LOGS = 200;
/** TERM to KILL for groups stopped at shutdown: short, VS Code gives deactivate a few seconds only. */
const SHUTDOWN_GRACE_MS = 500;

/** The background commands of this window, ended by deactivate. */
let backgroundCommands: BackgroundCommandRegistry | undefined;

/** What activation builds once and the contributions and test hooks use. */
export interface WindowServices {
  readonly approvals: PendingApprovals;
  readonly activity: ActivityLog;
  readonly terminals: CommandTerminals;
  readonly proposals: ProposedContent;
  readonly sandbox: MachineSandbox;
  readonly background: BackgroundCommandRegistry;
  readonly checkpoints: GitCheckpointStore;
  /** What every tool call gets. */
  readonly services: ToolServices;
}

/**
 * Where running background groups are recorded for crash recovery: the global storage (on the
 * extension host's disk), so any window that starts after a crash ends what the crashed one left.
 */
function groupRecordDirectory(context: vscode.ExtensionContext): string {
  const storage = context.globalStorageUri.scheme === 'file' ? context.globalStorageUri.fsPath : path.join(os.tmpdir(), 'workspace-agent-tools');
  return path.join(storage, 'background-groups');
}

/** The extension's storage on the extension host's disk: the activity log and full command logs go there. */
function storageDirectory(context: vscode.ExtensionContext): string {
  const storage = [context.storageUri, context.globalStorageUri].find((uri) => uri?.scheme === 'file');
  return storage?.fsPath ?? path.join(os.tmpdir(), 'workspace-agent-tools');
}

/**
 * The roots of VS Code's extension storage on the extension host's disk: `<user data>/User/globalStorage`
 * and `<user data>/User/workspaceStorage`, which hold this extension's storage for every window
 * (and every other extension's).
 */
function extensionStorageRoots(context: vscode.ExtensionContext): string[] {
  const roots: string[] = [];
  if (context.globalStorageUri.scheme === 'file') {
    roots.push(path.dirname(context.globalStorageUri.fsPath));
  }
  if (context.storageUri?.scheme === 'file') {
    // <user data>/User/workspaceStorage/<workspace id>/<extension id>
    roots.push(path.dirname(path.dirname(context.storageUri.fsPath)));
  }
  return roots;
}

/** Builds the window's services, marking each step's time; registers only the listeners that keep them current. */
export function buildServices(context: vscode.ExtensionContext, timings: ActivationTimings): WindowServices {
  const approvals = new PendingApprovals();
  const activity = new ActivityLog(storageDirectory(context));
  const terminals = new CommandTerminals();
  const logDirectory = path.join(storageDirectory(context), 'command-logs');
  timings.mark('activity log, terminals');
  pruneCommandLogs(logDirectory, KEPT_COMMAND_LOGS);
  timings.mark('command logs pruned');
  const proposals = new ProposedContent();
  const fs = new VsCodeFileSystem();
  const ripgrepPath = locateRipgrep(context.extensionPath);
  timings.mark('ripgrep located');
  // Folders commands must never see: the MCP endpoint's (its lock files hold the nonce), and the
  // extension storage of every window and extension (checkpoint stores hold every recorded file,
  // .env files too; other extensions keep tokens there). The file tools, which run outside the
  // sandbox, still read the command logs kept there. The sandbox hides a folder only if it exists
  // when a command starts, so each is made now.
  const checkpointDirectory = path.join(storageDirectory(context), 'checkpoints');
  const privateFolders = [runtimeFolder(), ...extensionStorageRoots(context), checkpointDirectory];
  for (const folder of privateFolders) {
    try {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
    } catch {
      // The MCP front reports a folder it cannot use; a missing store folder is made by the store.
    }
  }
  timings.mark('private folders made');
  // Approved commands reach the network through the sandbox's proxy, which a relay run by the
  // extension's own Node serves inside each sandbox (the proxy listens only once a command needs it).
  // Package managers' caches: private copies per user, bound over the real folders in the sandbox.
  const relayScript = path.join(context.extensionPath, 'dist', 'proxyRelay.js');
  const sandbox = new MachineSandbox(ripgrepPath, privateFolders, process.platform, {
    ...(existsSync(relayScript) ? { relay: { program: process.execPath, script: relayScript } } : {}),
    cacheDirectory: privateCacheDirectory(),
    // In the extension's storage, which commands never see (extensionStorageRoots above).
    stagingRoot: path.join(storageDirectory(context), 'staged'),
  });
  timings.mark('sandbox');
  // The sandbox's index of secret and protected files is built in the background in a trusted
  // window (a timer: not on the activation path); commands walk until it is ready. It also keeps
  // where the .gitignore files are, which a name glob asks instead of listing them (the search engines below).
  const indexFolders = (): void => indexWorkspaceFolders(sandbox);
  // Whether each folder's volume ignores letter case, measured read-only off the activation path.
  const measureCase = (): void => void measureFolderCase().catch(() => undefined);
  setTimeout(measureCase, 0);
  context.subscriptions.push(vscode.workspace.onDidChangeWorkspaceFolders(measureCase));
  const indexTimer = setTimeout(indexFolders, 0);
  context.subscriptions.push({ dispose: () => clearTimeout(indexTimer) }, vscode.workspace.onDidGrantWorkspaceTrust(indexFolders), vscode.workspace.onDidChangeWorkspaceFolders(indexFolders));
  // A staged launch started ahead is for the folders and trust it was made under: discarded when either changes.
  const discardAhead = (): void => sandbox.staging?.discardAhead();
  context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(discardAhead), vscode.workspace.onDidChangeWorkspaceFolders(discardAhead));
  const recordDirectory = groupRecordDirectory(context);
  // Groups a crashed window left running are ended (only where pid and start time still match).
  void timings.deferredStep('crash clean-up', () => endOrphanedGroups(recordDirectory, SHUTDOWN_GRACE_MS)).catch(() => undefined);
  timings.mark('crash clean-up started');
  const clock = systemClock;
  const background = new BackgroundCommandRegistry({ clock, records: new GroupRecordFile(recordDirectory) });
  backgroundCommands = background;
  const checkpoints = new GitCheckpointStore(checkpointDirectory);
  // A touched checkpoint's git processes wait ahead of it: ended with the window.
  context.subscriptions.push({ dispose: () => void checkpoints.endAhead() });
  const heldCalls = new HeldCallRegistry(clock);
  const services: ToolServices = {
    host: { fs, buffers: new VsCodeEditorBuffers(), clock, search: new LocalFirstSearchEngines(fs, ripgrepPath === undefined ? undefined : new RipgrepSearchEngine(ripgrepPath, fs, sandbox.scanIndex)), language: new VsCodeLanguageFeatures(), libraries: { bashParser: loadBashParser, powerShellParser: loadPowerShellParser, pdfJs: importPdfJs } },
    commands: commandHostFor(terminals, chooseCommandShell(vscode.env.shell, { platform: process.platform, exists: existsSync, env: process.env }), logDirectory, nodeProcessRunner, sandbox, background),
    session: { approver: approvals, reads: new MemoryReadLedger(), changes: { reviewer: new DiffReview(approvals, proposals), writer: new WorkspaceEditApplier() }, heldCalls },
    heldCalls,
    activity,
    checkpoints,
  };
  timings.mark('services');
  return { approvals, activity, terminals, proposals, sandbox, background, checkpoints, services };
}

/**
 * Indexes the local workspace folders as written and resolved, as the sandbox's writable folders
 * name them (a command's own lease adds what its list holds besides, allowedWritePaths).
 */
function indexWorkspaceFolders(sandbox: MachineSandbox): void {
  if (!vscode.workspace.isTrusted || !sandbox.scanIndex) {
    return;
  }
  const folders = new Set<string>();
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme === 'file') {
      folders.add(folder.uri.fsPath);
      try {
        folders.add(realpathSync(folder.uri.fsPath));
      } catch {
        // A folder that does not exist is not writable either.
        folders.delete(folder.uri.fsPath);
      }
    }
  }
  // Only these: a folder removed from the workspace is not watched any more (a command's
  // allowedWritePaths are tracked again by its own lease).
  sandbox.scanIndex.track([...folders], true);
}

/** Every command still running, background ones included, ended: TERM, then KILL after a short grace. */
export async function stopEveryCommand(): Promise<void> {
  await Promise.all([backgroundCommands?.stopAll(), stopAllCommands(SHUTDOWN_GRACE_MS)]);
}

