// The guard in the status bar: the risk level and plan mode shown, and the menu and commands that change them.
import * as vscode from 'vscode';
import { warmUpStatus, type WarmUpState } from '../../core/checkpoints/storeWarmUp';
import { SETTINGS_SECTION, type RiskLevel } from '../../core/settings';
import { CommandId, ViewId } from '../commandIds';
import { readToolSettings, updateSetting } from '../host/settings';

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

  constructor() {
    this.item.name = 'Workspace Agent Tools';
    this.item.command = CommandId.showGuardMenu;
    this.subscription = vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(SETTINGS_SECTION)) {
        this.update();
      }
    });
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

  update(): void {
    const settings = readToolSettings();
    const guard = settings.planMode ? `$(shield) Agent: ${settings.riskLevel} $(debug-pause) plan mode` : `$(shield) Agent: ${settings.riskLevel}`;
    this.item.text = this.checkpoints ? `${guard} ${this.checkpoints.text}` : guard;
    this.item.tooltip = new vscode.MarkdownString(
      `**Workspace Agent Tools**\n\nRisk level: **${settings.riskLevel}** (${RISK_DESCRIPTIONS[settings.riskLevel]})\n\nPlan mode: **${settings.planMode ? 'on: writes and commands are refused' : 'off'}**\n\n${this.checkpoints ? `${this.checkpoints.tooltip}\n\n` : ''}Click to change.`,
    );
    this.item.backgroundColor = settings.planMode ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}

/** The quick pick behind the status bar item: risk level and plan mode in one place. */
export async function showGuardMenu(): Promise<void> {
  const settings = readToolSettings();
  type Choice = vscode.QuickPickItem & { apply: () => Promise<void> };
  const choices: Choice[] = [
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
  ];
  const picked = await vscode.window.showQuickPick(choices, { title: 'Workspace Agent Tools', placeHolder: 'Change the risk level or plan mode' });
  await picked?.apply();
}

export function registerGuardCommands(): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(CommandId.togglePlanMode, async () => {
      const enabled = !readToolSettings().planMode;
      await setPlanMode(enabled);
      return enabled;
    }),
    vscode.commands.registerCommand(CommandId.showGuardMenu, showGuardMenu),
  ];
}
