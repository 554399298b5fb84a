// Connect an Agent: the palette command that writes our MCP entry into a terminal agent's own config
// file, after the user has seen the change in the diff editor and accepted it (one question in the
// approval queue, so Approve / Reject by command answer it too). The texts come from agentConfigs.ts.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { closeReviewTabs } from '../changes/diffReview';
import { ProposedContent } from '../changes/proposedContent';
import { CommandId } from '../commandIds';
import type { ApprovalPresenter, PendingApprovals } from '../ui/approvals';
import { AGENT_INFO, AGENT_TARGETS, agentConfigFile, proposeAgentConfig, type AgentEnvironment, type AgentTarget, type RelayCommand } from './agentConfigs';

/** The command's optional argument (tests, scripts): which agent, and where its files are. */
export interface ConnectAgentOptions {
  readonly agent?: AgentTarget;
  /** The home folder (default: the user's); when given, CODEX_HOME and COPILOT_HOME are not read. */
  readonly home?: string;
  readonly codexHome?: string;
  readonly copilotHome?: string;
  /** The folder whose .mcp.json the project target writes (default: the first workspace folder). */
  readonly workspaceFolder?: string;
}

/** What the command did, returned for tests and scripts. */
export interface ConnectAgentResult {
  readonly outcome: 'written' | 'rejected' | 'unchanged' | 'refused' | 'cancelled';
  readonly agent?: AgentTarget;
  readonly file?: string;
  readonly reason?: string;
}

function environment(options: ConnectAgentOptions): AgentEnvironment {
  const injected = options.home !== undefined;
  return {
    home: options.home ?? os.homedir(),
    codexHome: options.codexHome ?? (injected ? undefined : process.env.CODEX_HOME),
    copilotHome: options.copilotHome ?? (injected ? undefined : process.env.COPILOT_HOME),
    workspaceFolder: options.workspaceFolder ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
  };
}

async function pickAgent(env: AgentEnvironment): Promise<AgentTarget | undefined> {
  const items = AGENT_TARGETS.filter((target) => agentConfigFile(target, env) !== undefined).map((target) => ({
    label: AGENT_INFO[target].label,
    description: agentConfigFile(target, env),
    detail: AGENT_INFO[target].detail,
    target,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Workspace Agent Tools: Connect an Agent',
    placeHolder: 'The agent to connect (you review the change to its config file first)',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.target;
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(await vscode.workspace.fs.readFile(uri));
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') {
      return undefined;
    }
    throw error;
  }
}

/** Runs the command: pick, propose, review, write. Every question is in the approval queue. */
export async function connectAgent(relay: RelayCommand, approvals: PendingApprovals, proposals: ProposedContent, options: ConnectAgentOptions = {}): Promise<ConnectAgentResult> {
  const env = environment(options);
  const agent = options.agent ?? (await pickAgent(env));
  if (!agent) {
    return { outcome: 'cancelled' };
  }
  if (!AGENT_TARGETS.includes(agent)) {
    throw new Error(`Unknown agent "${String(agent)}": one of ${AGENT_TARGETS.join(', ')}.`);
  }
  const info = AGENT_INFO[agent];
  const file = agentConfigFile(agent, env);
  if (!file) {
    void vscode.window.showWarningMessage('Connect an Agent: open a folder first; the project target writes its .mcp.json.');
    return { outcome: 'refused', agent, reason: 'no workspace folder is open' };
  }
  const uri = vscode.Uri.file(file);
  let current: string | undefined;
  try {
    current = await readText(uri);
  } catch (error) {
    const reason = `cannot read it (${errorMessage(error)}); nothing was changed`;
    void vscode.window.showErrorMessage(`Connect ${info.label}: ${file}: ${reason}.`);
    return { outcome: 'refused', agent, file, reason };
  }
  const proposal = proposeAgentConfig(agent, current, relay);
  if (!proposal.ok) {
    void vscode.window.showErrorMessage(`Connect ${info.label}: ${file}: ${proposal.reason}.`);
    return { outcome: 'refused', agent, file, reason: proposal.reason };
  }
  if (proposal.unchanged) {
    void vscode.window.showInformationMessage(`${info.label} is already connected: ${file} has this window's workspace-agent-tools entry.`);
    return { outcome: 'unchanged', agent, file };
  }

  const reviewId = proposals.newReviewId();
  const left = proposals.add(reviewId, 'current', file, current ?? '');
  const right = proposals.add(reviewId, 'proposed', file, proposal.text);
  const presenter: ApprovalPresenter = {
    show: async () => {
      await vscode.commands.executeCommand('vscode.diff', left, right, `Connect ${info.label}: ${path.basename(file)}${current === undefined ? ' (new file)' : ''} (current ↔ proposed)`, { preview: false });
      return new vscode.Disposable(() => {
        void closeReviewTabs(reviewId).finally(() => proposals.forget([left, right]));
      });
    },
    owns: (candidate) => ProposedContent.reviewOf(candidate) === reviewId,
  };
  const never = new vscode.CancellationTokenSource();
  const accepted = await approvals
    .confirm(
      {
        kind: 'change',
        title: `Connect ${info.label}: add the workspace-agent-tools MCP server to ${file}`,
        detail: `Review the diff, then Accept to write it or Reject to leave ${current === undefined ? 'the file uncreated' : 'the file unchanged'}.`,
        path: file,
      },
      never.token,
      presenter,
    )
    .finally(() => never.dispose());
  if (!accepted) {
    return { outcome: 'rejected', agent, file };
  }
  // The file may have changed while the diff was open (an agent rewrites its own config): write only over what was shown.
  const now = await readText(uri).catch(() => null);
  if (now !== current) {
    const reason = 'it changed while the diff was open; nothing was written, run Connect an Agent again';
    void vscode.window.showErrorMessage(`Connect ${info.label}: ${file}: ${reason}.`);
    return { outcome: 'refused', agent, file, reason };
  }
  await vscode.workspace.fs.createDirectory(vscode.Uri.file(path.dirname(file)));
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(proposal.text));
  void vscode.window.showInformationMessage(`Connected ${info.label}: wrote ${file}. Start (or restart) the agent in this workspace's folder.${info.afterwards ? ` ${info.afterwards}` : ''}`);
  return { outcome: 'written', agent, file };
}

export function registerConnectAgentCommand(relay: RelayCommand, approvals: PendingApprovals, proposals: ProposedContent): vscode.Disposable {
  return vscode.commands.registerCommand(CommandId.connectAgent, (options?: ConnectAgentOptions) =>
    connectAgent(relay, approvals, proposals, options && typeof options === 'object' && !(options instanceof vscode.Uri) ? options : {}),
  );
}
