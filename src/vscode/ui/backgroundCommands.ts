// Background commands in the UI: a status bar item counting the running ones, the Stop command
// (from the palette, the status bar or the Activity view's Stop action), and the rows the Activity
// view shows for them. The registry itself lives in core (src/core/process/backgroundCommands.ts).
import * as vscode from 'vscode';
import type { BackgroundCommand, BackgroundCommands } from '../../core/ports/process';
import { describeStatus, statusOf } from '../../core/process/backgroundCommands';
import { oneLine } from '../../core/text/truncate';
import { CommandId, ViewId } from '../commandIds';

/** A running background command as a row of the Activity view. */
export interface RunningCommandNode {
  readonly kind: 'backgroundCommand';
  readonly id: string;
}

/** How long ago, in words a glance can read: 45 s, 3 min, 2 h 5 min. */
export function ageOf(startedAt: number, now = Date.now()): string {
  const seconds = Math.max(0, Math.floor((now - startedAt) / 1000));
  if (seconds < 60) {
    return `${seconds} s`;
  }
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** The Activity view's row of a running command: id, command line, age, and the Stop action (contextValue). */
export function runningCommandItem(command: BackgroundCommand): vscode.TreeItem {
  const item = new vscode.TreeItem(`${command.id} ${oneLine(command.commandLine, 60)}`);
  item.description = `running · ${ageOf(command.startedAt)}`;
  item.iconPath = new vscode.ThemeIcon('sync~spin');
  item.tooltip = new vscode.MarkdownString(['```', command.commandLine, '```', `in ${command.cwdShown}, started ${new Date(command.startedAt).toLocaleTimeString()}`, '', command.sandboxLine, '', `Full log: ${command.logPath}`].join('\n'));
  item.contextValue = 'backgroundCommand';
  item.id = `background:${command.id}`;
  return item;
}

/** The status bar item: how many background commands run; hidden when none; a click offers to stop one. */
export class BackgroundStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(ViewId.backgroundStatusBarItem, vscode.StatusBarAlignment.Left, 99);
  private readonly subscription: { dispose(): void };

  constructor(private readonly registry: BackgroundCommands) {
    this.item.name = 'Workspace Agent Tools: background commands';
    this.item.command = CommandId.stopBackgroundCommand;
    this.subscription = registry.onDidChange(() => this.update());
    this.update();
  }

  get text(): string {
    return this.item.text;
  }

  private update(): void {
    const running = this.registry.running();
    this.item.text = `$(terminal) ${running.length} running`;
    this.item.tooltip = running.length === 0 ? '' : `Background commands of the agent:\n${running.map((command) => `${command.id}: ${oneLine(command.commandLine, 60)} (${ageOf(command.startedAt)})`).join('\n')}\n\nClick to stop one.`;
    if (running.length === 0) {
      this.item.hide();
    } else {
      this.item.show();
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}

/** The id a Stop came with: a string (palette, other extensions, tests) or the Activity view's row. */
function idOf(argument: unknown): string | undefined {
  if (typeof argument === 'string') {
    return argument;
  }
  const node = argument as Partial<RunningCommandNode> | undefined;
  return node?.kind === 'backgroundCommand' && typeof node.id === 'string' ? node.id : undefined;
}

/** Stop Background Command..., the status bar's click, the view's Stop action; the unlisted list for tests. */
export function registerBackgroundCommandUi(registry: BackgroundCommands, statusBar: BackgroundStatusBar, stopAllAsOnShutdown: () => Promise<void>): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(CommandId.stopBackgroundCommand, async (argument?: unknown) => {
      let id = idOf(argument);
      if (id === undefined) {
        const running = registry.running();
        if (running.length === 0) {
          void vscode.window.showInformationMessage('No background command is running.');
          return undefined;
        }
        const picked = await vscode.window.showQuickPick(
          running.map((command) => ({ label: command.id, description: oneLine(command.commandLine, 80), detail: `running for ${ageOf(command.startedAt)} in ${command.cwdShown}`, id: command.id })),
          { title: 'Stop Background Command', placeHolder: 'Which command? Its whole process group is stopped.' },
        );
        id = picked?.id;
      }
      const command = id === undefined ? undefined : registry.get(id);
      if (!command) {
        return undefined;
      }
      return describeStatus(statusOf(await command.stop()));
    }),
    vscode.commands.registerCommand(CommandId.listBackgroundCommands, () => ({
      running: registry.running().map((command) => ({ id: command.id, commandLine: command.commandLine, startedAt: command.startedAt })),
      statusBarText: statusBar.text,
    })),
    vscode.commands.registerCommand(CommandId.stopCommandsAsOnShutdown, () => stopAllAsOnShutdown()),
  ];
}
