// What the window shows and registers, over the services built once (services.ts): the status bar
// items and the activity view, the checkpoint store's warm-up, the language model tools, the palette
// and other commands, and the MCP front. Each step's time is recorded (activationTimings.ts).
import * as vscode from 'vscode';
import { BUBBLEWRAP_FAILURE_DOCS } from '../../core/sandbox/bubblewrapFailure';
import { TOOLS } from '../../core/tools';
import type { ActivationTimings } from '../activationTimings';
import { CommandId, UriScheme } from '../commandIds';
import { readToolSettings } from '../host/settings';
import { mcpServerConfig, registerMcpConfigCommands } from '../mcp/configCommands';
import { registerConnectAgentCommand } from '../mcp/connectAgent';
import { McpFront } from '../mcp/mcpFront';
import { registerMcpServerDefinitionProvider } from '../mcp/serverDefinitionProvider';
import { registerCheckpointCommands } from '../tools/checkpointCommands';
import { registerInvokeToolCommand } from '../tools/invokeToolCommand';
import { registerToolCommands } from '../tools/palette';
import { registerTools } from '../tools/registration';
import { ToolResultDocuments } from '../tools/resultDocuments';
import { registerActivityView } from '../ui/activityView';
import { registerApprovalCommands } from '../ui/approvals';
import { BackgroundStatusBar, registerBackgroundCommandUi } from '../ui/backgroundCommands';
import { registerCheckpointWarmUp } from '../ui/checkpointWarmUp';
import { recoverHeldChanges, registerHeldChangeCommands } from '../ui/heldChanges';
import { GuardStatusBar, registerGuardCommands } from '../ui/guardControls';
import { stopEveryCommand, type WindowServices } from './services';

/** Registers the window's contributions, marking each step's time. */
export function registerContributions(context: vscode.ExtensionContext, built: WindowServices, timings: ActivationTimings): void {
  const { approvals, activity, terminals, proposals, sandbox, background, checkpoints, services } = built;
  const backgroundStatusBar = new BackgroundStatusBar(background);
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
    ...registerHeldChangeCommands(activity, sandbox.staging?.root, checkpoints),
    backgroundStatusBar,
    ...registerBackgroundCommandUi(background, backgroundStatusBar, stopEveryCommand),
  );
  timings.mark('status bar items, activity view');
  // The sandbox is tried once now, off the activation path, so a machine where bubblewrap cannot
  // start says so, with the fix, before the first command (commands reuse the same probe).
  const sandboxDocs = `${String(context.extension.packageJSON.repository?.url ?? '').replace(/\.git$/, '')}/blob/main/${BUBBLEWRAP_FAILURE_DOCS}`;
  void timings.deferredStep('sandbox probe', () => sandbox.availability(readToolSettings().bubblewrapPath)).then((availability) => guardStatusBar.showSandbox(availability, sandboxDocs), () => undefined);
  // Staged runs an earlier window kept (held changes, a merge it did not finish) are listed for review, off the activation path.
  void timings.deferredStep('held changes recovered', () => recoverHeldChanges(activity, sandbox.staging?.root)).catch(() => undefined);
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
}
