// activate(): build the host's services once, register the tools, the commands and the views.
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { HeldCallRegistry } from './core/calls/heldCalls';
import { MemoryReadLedger } from './core/changes/readLedger';
import { BackgroundCommandRegistry } from './core/process/backgroundCommands';
import { GitCheckpointStore } from './core/checkpoints/node/git/gitCheckpointStore';
import { pruneCommandLogs } from './core/process/node/pruneCommandLogs';
import { systemClock } from './core/time';
import { endOrphanedGroups, GroupRecordFile } from './core/process/node/groupRecords';
import { nodeProcessRunner, stopAllCommands } from './core/process/node/processRunner';
import { chooseCommandShell } from './core/process/shellChoice';
import { BUBBLEWRAP_FAILURE_DOCS } from './core/sandbox/bubblewrapFailure';
import { MachineSandbox, privateCacheDirectory } from './core/sandbox/node/machineSandbox';
import { runtimeFolder } from './mcp/privateFolder';
import { LocalFirstSearchEngines } from './core/search/engines';
import { RipgrepSearchEngine } from './core/search/ripgrep/node/ripgrepEngine';
import { loadBashParser, loadPowerShellParser } from './core/guard/command/shell/node/wasmGrammar';
import { importPdfJs } from './core/read/node/pdfJs';
import { TOOLS } from './core/tools';
import { DiffReview } from './vscode/changes/diffReview';
import { ProposedContent } from './vscode/changes/proposedContent';
import { WorkspaceEditApplier } from './vscode/changes/workspaceEditApplier';
import { ActivationTimings } from './vscode/activationTimings';
import { CommandId, UriScheme } from './vscode/commandIds';
import { commandHostFor, CommandTerminals } from './vscode/host/commandTerminals';
import { VsCodeEditorBuffers } from './vscode/host/editorBuffers';
import { VsCodeLanguageFeatures } from './vscode/host/languageFeatures';
import { measureFolderCase, readToolSettings } from './vscode/host/settings';
import { locateRipgrep } from './vscode/host/ripgrepLocator';
import { mcpServerConfig, registerMcpConfigCommands } from './vscode/mcp/configCommands';
import { registerConnectAgentCommand } from './vscode/mcp/connectAgent';
import { McpFront } from './vscode/mcp/mcpFront';
import { registerMcpServerDefinitionProvider } from './vscode/mcp/serverDefinitionProvider';
import { VsCodeFileSystem } from './vscode/host/vscodeFileSystem';
import { registerCheckpointCommands } from './vscode/tools/checkpointCommands';
import { registerInvokeToolCommand } from './vscode/tools/invokeToolCommand';
import { registerToolCommands } from './vscode/tools/palette';
import { registerCoreInvokeForTests, registerTools, type ToolServices } from './vscode/tools/registration';
import { ToolResultDocuments } from './vscode/tools/resultDocuments';
import { ActivityLog } from './vscode/ui/activityLog';
import { registerActivityView } from './vscode/ui/activityView';
import { PendingApprovals, registerApprovalCommands } from './vscode/ui/approvals';
import { BackgroundStatusBar, registerBackgroundCommandUi } from './vscode/ui/backgroundCommands';
import { registerCheckpointWarmUp } from './vscode/ui/checkpointWarmUp';
import { GuardStatusBar, registerGuardCommands } from './vscode/ui/guardControls';

/** Every module of the bundle has been evaluated once this line runs (esbuild places the entry's own code last). */
const modulesEvaluated = performance.now();

const KEPT_COMMAND_LOGS = 200;
/** TERM to KILL for groups stopped at shutdown: short, VS Code gives deactivate a few seconds only. */
const SHUTDOWN_GRACE_MS = 500;

/** The background commands of this window, ended by deactivate. */
let backgroundCommands: BackgroundCommandRegistry | undefined;

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

export function activate(context: vscode.ExtensionContext): void {
  const timings = new ActivationTimings(modulesEvaluated);
  context.subscriptions.push(vscode.commands.registerCommand(CommandId.activationTimings, () => timings.report()));
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
  if (context.extensionMode === vscode.ExtensionMode.Test) {
    // Tests stand local servers in for hosts: names resolve to 127.0.0.x in the proxy only.
    context.subscriptions.push(
      vscode.commands.registerCommand(CommandId.mapNetworkNamesForTests, (names?: unknown) => {
        const entries = names !== null && typeof names === 'object' ? Object.entries(names).filter((entry): entry is [string, string] => typeof entry[1] === 'string') : [];
        sandbox.network?.mapNames(Object.fromEntries(entries));
        return sandbox.network !== undefined;
      }),
      vscode.commands.registerCommand(CommandId.sandboxIndexForTests, async () => {
        await sandbox.scanIndex?.settled();
        return sandbox.scanIndex?.status() ?? [];
      }),
    );
  }
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
  const recordDirectory = groupRecordDirectory(context);
  // Groups a crashed window left running are ended (only where pid and start time still match).
  void timings.deferredStep('crash clean-up', () => endOrphanedGroups(recordDirectory, SHUTDOWN_GRACE_MS)).catch(() => undefined);
  timings.mark('crash clean-up started');
  const clock = systemClock;
  const background = new BackgroundCommandRegistry({ clock, records: new GroupRecordFile(recordDirectory) });
  backgroundCommands = background;
  const backgroundStatusBar = new BackgroundStatusBar(background);
  const checkpoints = new GitCheckpointStore(checkpointDirectory);
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
  if (context.extensionMode === vscode.ExtensionMode.Test) {
    // The host bench and its test compare core's invokeTool with vscode.lm.invokeTool in this process.
    context.subscriptions.push(registerCoreInvokeForTests(TOOLS, services));
  }
  const resultDocuments = new ToolResultDocuments();
  const guardStatusBar = new GuardStatusBar();
  context.subscriptions.push(
    proposals,
    approvals,
    activity,
    terminals,
    sandbox,
    guardStatusBar,
    // The checkpoint store is built in the background a few seconds from now (only a timer is set here).
    ...registerCheckpointWarmUp(checkpoints, guardStatusBar, context.extensionMode === vscode.ExtensionMode.Test),
    ...registerGuardCommands(guardStatusBar),
    ...registerActivityView(activity, background),
    backgroundStatusBar,
    ...registerBackgroundCommandUi(background, backgroundStatusBar, stopEveryCommand),
  );
  timings.mark('status bar items, activity view');
  // The sandbox is tried once now, off the activation path, so a machine where bubblewrap cannot
  // start says so, with the fix, before the first command (commands reuse the same probe).
  const sandboxDocs = `${String(context.extension.packageJSON.repository?.url ?? '').replace(/\.git$/, '')}/blob/main/${BUBBLEWRAP_FAILURE_DOCS}`;
  void timings.deferredStep('sandbox probe', () => sandbox.availability(readToolSettings().bubblewrapPath)).then((availability) => guardStatusBar.showSandbox(availability, sandboxDocs), () => undefined);
  context.subscriptions.push(...registerTools(TOOLS, services));
  timings.mark('language model tools registered');
  context.subscriptions.push(
    // Not in the palette: lets integration tests see what the last command terminal showed.
    vscode.commands.registerCommand(CommandId.lastCommandTerminal, () => terminals.lastTranscript()),
    ...registerApprovalCommands(approvals),
    ...registerCheckpointCommands(checkpoints, activity, approvals, background),
    vscode.workspace.registerTextDocumentContentProvider(UriScheme.result, resultDocuments),
    registerInvokeToolCommand(TOOLS, resultDocuments),
    ...registerToolCommands(TOOLS),
  );
  timings.mark('commands registered');
  // The MCP front: agents outside chat reach the same tools through dist/mcp.js and this window's endpoint.
  // Every tool is a Language Model Tool above: VS Code's own MCP client is not listed them a second time.
  const mcpFront = new McpFront(TOOLS, services, String(context.extension.packageJSON.version ?? '0.0.0'), activity.channel, new Set(TOOLS.map((tool) => tool.name)));
  // VS Code knows the server (where it has the API): its MCP client and its Agent Host's harnesses start it.
  const definitionProvider = registerMcpServerDefinitionProvider(mcpFront, context.extensionPath, activity.channel);
  context.subscriptions.push(
    mcpFront,
    ...(definitionProvider ? [definitionProvider] : []),
    ...registerMcpConfigCommands(context.extensionPath, mcpFront),
    registerConnectAgentCommand(mcpServerConfig(context.extensionPath), approvals, proposals),
  );
  timings.mark('MCP front made');
  void timings.deferredStep('MCP front started', () => mcpFront.restart());
  timings.mark('MCP front start begun');
  timings.activated();
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
async function stopEveryCommand(): Promise<void> {
  await Promise.all([backgroundCommands?.stopAll(), stopAllCommands(SHUTDOWN_GRACE_MS)]);
}

/** Commands still running must not outlive the extension host (deactivation, window reload or close). */
export function deactivate(): Promise<void> {
  return stopEveryCommand();
}
