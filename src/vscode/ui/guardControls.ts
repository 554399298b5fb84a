// The guard in the status bar: the risk level and plan mode shown, and the menu and commands that change them.
import * as vscode from 'vscode';
import { warmUpStatus, type WarmUpState } from '../../core/checkpoints/storeWarmUp';
import type { SandboxAvailability } from '../../core/ports/process';
import { unavailableWarning } from '../../core/sandbox/placement';
import { SETTINGS_SECTION, type RiskLevel } from '../../core/settings';
import { CommandId, ViewId } from '../commandIds';
import { describeIgnored } from '../../core/settingLayers';
import { readIgnoredSettings, readToolSettings, updateSetting } from '../host/settings';

const RISK_DESCRIPTIONS: Record<RiskLevel, string> = {
  low: 'Strict: outside the workspace and sensitive paths are denied',
  medium: 'Default: outside the workspace asks; system and sensitive paths are denied',
  high: 'Permissive: outside the workspace is allowed; sensitive reads ask',
};

export async function setPlanMode(enabled: boolean): Promise<void> {
  await updateSetting('planMode', enabled);
}

export async function setRiskLevel(level: RiskLevel): Promise<void> {
  await updateSetting('riskLevel', level);
}

/** The status bar item showing the risk level and plan mode; a click offers to change them. */
export class GuardStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(ViewId.statusBarItem, vscode.StatusBarAlignment.Left, 100);
  private readonly subscription: vscode.Disposable;
  private checkpoints: { text: string; tooltip: string } | undefined;
  /** What the sandbox's probe found at activation, and where the page on its causes is. */
  private sandbox: { availability: SandboxAvailability; docs: string } | undefined;

  constructor() {
    this.item.name = 'Workspace Agent Tools';
    this.item.command = CommandId.showGuardMenu;
    this.subscription = vscode.Disposable.from(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SETTINGS_SECTION)) {
          this.update();
        }
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.update()),
    );
    this.update();
    this.item.show();
  }

  /** The text shown, for tests and the activity view. */
  get text(): string {
    return this.item.text;
  }

  /** Shows the checkpoint store's build (while it runs, or when it failed) after the guard's state. */
  showCheckpoints(state: WarmUpState): void {
    this.checkpoints = warmUpStatus(state);
    this.update();
  }

  /** Shows, with its fix, that commands run without a sandbox because the machine has none (bubblewrap cannot start). */
  showSandbox(availability: SandboxAvailability, docs: string): void {
    this.sandbox = { availability, docs };
    this.update();
  }

  /** The sandbox's warning under the current settings, or undefined. */
  sandboxWarning(): (ReturnType<typeof unavailableWarning> & { docs: string }) | undefined {
    const warning = this.sandbox && unavailableWarning(readToolSettings().runCommandSandbox, this.sandbox.availability);
    return warning && this.sandbox ? { ...warning, docs: this.sandbox.docs } : undefined;
  }

  /** The tooltip's text, for tests. */
  get tooltip(): string {
    return this.item.tooltip instanceof vscode.MarkdownString ? this.item.tooltip.value : String(this.item.tooltip ?? '');
  }

  update(): void {
    const settings = readToolSettings();
    const ignored = readIgnoredSettings();
    const guard = settings.planMode ? `$(shield) Agent: ${settings.riskLevel} $(debug-pause) plan mode` : `$(shield) Agent: ${settings.riskLevel}`;
    const notice = ignored.length ? ` $(warning) ${ignored.length}` : '';
    const sandbox = this.sandboxWarning();
    this.item.text = `${guard}${notice}${sandbox ? ' $(warning) no sandbox' : ''}${this.checkpoints ? ` ${this.checkpoints.text}` : ''}`;
    const ignoredText = ignored.length ? `Workspace settings not honoured (a workspace can only make the tools stricter):\n\n${ignored.map((entry) => `- ${describeIgnored(entry)}`).join('\n')}\n\n` : '';
    const tooltip = new vscode.MarkdownString(
      `**Workspace Agent Tools**\n\nRisk level: **${settings.riskLevel}** (${RISK_DESCRIPTIONS[settings.riskLevel]})\n\nPlan mode: **${settings.planMode ? 'on: writes and commands are refused' : 'off'}**\n\n${ignoredText}${this.checkpoints ? `${this.checkpoints.tooltip}\n\n` : ''}Click to change.`,
    );
    this.item.tooltip = tooltip;
    if (sandbox) {
      // The reason holds bwrap's words and the fix a shell line: text and a code block, never read as Markdown.
      tooltip.appendMarkdown('\n\n**Sandbox: none.** ').appendText(`${sandbox.reason}: ${sandbox.consequence}.`);
      if (sandbox.fix) {
        tooltip.appendMarkdown('\n\nThe fix:').appendCodeblock(sandbox.fix, 'sh');
      }
      tooltip.appendMarkdown(`\n\n[Linux where bubblewrap cannot start](${sandbox.docs}); click for the menu to copy the fix.`);
    }
    this.item.backgroundColor = settings.planMode || sandbox ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}

type Choice = vscode.QuickPickItem & { apply: () => Promise<void> };

/** The quick pick behind the status bar item: risk level and plan mode in one place, and the workspace settings that were not honoured. */
export async function showGuardMenu(statusBar?: GuardStatusBar): Promise<void> {
  const picked = await vscode.window.showQuickPick([...sandboxChoices(statusBar), ...guardMenuChoices()], { title: 'Workspace Agent Tools', placeHolder: 'Change the risk level or plan mode' });
  await picked?.apply();
}

/** Where the machine has no sandbox: copy the fix, or read the causes and fixes. */
function sandboxChoices(statusBar: GuardStatusBar | undefined): Choice[] {
  const warning = statusBar?.sandboxWarning();
  if (!warning) {
    return [];
  }
  const fix = warning.fix;
  return [
    { label: 'Sandbox', kind: vscode.QuickPickItemKind.Separator, apply: async () => undefined },
    ...(fix
      ? [{
          label: '$(warning) No sandbox: copy the fix',
          detail: `${warning.reason}: ${warning.consequence}`,
          apply: async () => {
            await vscode.env.clipboard.writeText(fix);
            void vscode.window.showInformationMessage('The fix is on the clipboard: run it in a terminal, then reload the window.');
          },
        }]
      : []),
    { label: '$(book) Linux where bubblewrap cannot start', description: 'causes and fixes', apply: async () => void (await vscode.env.openExternal(vscode.Uri.parse(warning.docs))) },
  ];
}

function guardMenuChoices(): Choice[] {
  const settings = readToolSettings();
  const ignored = readIgnoredSettings();
  const ignoredChoices: Choice[] = ignored.length
    ? [
        { label: 'Workspace settings not honoured', kind: vscode.QuickPickItemKind.Separator, apply: async () => undefined },
        ...ignored.map((entry) => ({
          label: `$(warning) ${entry.key.replace(/^workspaceAgentTools\./, '')}`,
          description: entry.layer,
          detail: describeIgnored(entry),
          apply: async () => {
            await vscode.commands.executeCommand('workbench.action.openSettings', entry.key);
          },
        })),
      ]
    : [];
  return [
    {
      label: settings.planMode ? '$(play) Turn plan mode off' : '$(debug-pause) Turn plan mode on',
      description: settings.planMode ? 'Allow writes and commands again' : 'Refuse every write and command; reads still work',
      apply: () => setPlanMode(!settings.planMode),
    },
    { label: 'Risk level', kind: vscode.QuickPickItemKind.Separator, apply: async () => undefined },
    ...(['low', 'medium', 'high'] as const).map((level) => ({
      label: `${level === settings.riskLevel ? '$(check)' : '$(blank)'} ${level}`,
      description: RISK_DESCRIPTIONS[level],
      apply: () => setRiskLevel(level),
    })),
    ...ignoredChoices,
  ];
}

export function registerGuardCommands(statusBar: GuardStatusBar): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(CommandId.togglePlanMode, async () => {
      const enabled = !readToolSettings().planMode;
      await setPlanMode(enabled);
      return enabled;
    }),
    vscode.commands.registerCommand(CommandId.showGuardMenu, () => showGuardMenu(statusBar)),
    vscode.commands.registerCommand(CommandId.guardStatus, () => ({
      text: statusBar.text,
      tooltip: statusBar.tooltip,
      menu: [...sandboxChoices(statusBar), ...guardMenuChoices()].map((choice) => ({ label: choice.label, description: choice.description, detail: choice.detail })),
    })),
  ];
}
