// Background commands in the UI: a status bar item counting the running ones (and the ones waiting
// for input), the Stop and Send Input commands (from the palette, the status bar or the Activity
// view's actions), and the rows the Activity view shows for them. The registry itself lives in core
// (src/core/process/backgroundCommands.ts), the words shown in src/core/process/backgroundSummary.ts.
import * as vscode from 'vscode';
import type { BackgroundCommand, BackgroundCommands, InputKey } from '../../core/ports/process';
import { describeStatus, statusOf } from '../../core/process/backgroundCommands';
import { ageOf, asksForSecret, KEY_CHOICES, personInput, runningDescription, summarizeRunning, waitingFirst, waitingSentence } from '../../core/process/backgroundSummary';
import { describeSent } from '../../core/tools/command/sendInput';
import { errorMessage } from '../../core/errors';
import { oneLine } from '../../core/text/truncate';
import { CommandId, ViewId } from '../commandIds';

/** A running background command as a row of the Activity view. */
export interface RunningCommandNode {
  readonly kind: 'backgroundCommand';
  readonly id: string;
}

/** The contextValue of a running command's row (menus show Stop and Send Input... for both). */
export const RUNNING_CONTEXT = 'backgroundCommand';
export const WAITING_CONTEXT = 'backgroundCommand.waiting';

/**
 * The Activity view's row of a running command: id, command line, age (or the prompt it waits on,
 * with a question icon), and the Stop and Send Input... actions (contextValue).
 */
export function runningCommandItem(command: BackgroundCommand): vscode.TreeItem {
  const now = Date.now();
  const waiting = command.waitingForInput();
  const item = new vscode.TreeItem(`${command.id} ${oneLine(command.commandLine, 60)}`);
  item.description = runningDescription(command, now);
  item.iconPath = waiting ? new vscode.ThemeIcon('question', new vscode.ThemeColor('charts.yellow')) : new vscode.ThemeIcon('sync~spin');
  const lines = ['```', command.commandLine, '```', `in ${command.cwdShown}, started ${new Date(command.startedAt).toLocaleTimeString()}`, ''];
  if (waiting) {
    lines.push(`**${waitingSentence(waiting, now)}** Its prompt:`, '```', waiting.prompt, '```', 'Answer it with **Send Input...**.', '');
  }
  lines.push(command.sandboxLine, '', `Full log: ${command.logPath}`);
  item.tooltip = new vscode.MarkdownString(lines.join('\n'));
  item.contextValue = waiting ? WAITING_CONTEXT : RUNNING_CONTEXT;
  item.id = `background:${command.id}`;
  return item;
}

/**
 * The status bar item: how many background commands run and how many wait for input (with a
 * warning background then); hidden when none runs. A click answers a waiting one, else offers to stop one.
 */
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

  get tooltip(): string {
    return typeof this.item.tooltip === 'string' ? this.item.tooltip : '';
  }

  /** True while the item warns (a command waits for input). */
  get warning(): boolean {
    return this.item.backgroundColor !== undefined;
  }

  private update(): void {
    const running = this.registry.running();
    const summary = summarizeRunning(running, Date.now());
    this.item.text = summary.text;
    this.item.tooltip = summary.tooltip;
    this.item.backgroundColor = summary.waiting ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.command = summary.waiting ? CommandId.sendInputToBackgroundCommand : CommandId.stopBackgroundCommand;
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

/** The id a Stop or Send Input came with: a string (palette, other extensions, tests) or the Activity view's row. */
function idOf(argument: unknown): string | undefined {
  if (typeof argument === 'string') {
    return argument;
  }
  const node = argument as Partial<RunningCommandNode> | undefined;
  return node?.kind === 'backgroundCommand' && typeof node.id === 'string' ? node.id : undefined;
}

/** Asks which running command (the waiting ones first); undefined when none runs or the pick is dismissed. */
async function pickRunning(registry: BackgroundCommands, title: string, placeHolder: string): Promise<BackgroundCommand | undefined> {
  const running = waitingFirst(registry.running());
  if (running.length === 0) {
    void vscode.window.showInformationMessage('No background command is running.');
    return undefined;
  }
  const now = Date.now();
  const picked = await vscode.window.showQuickPick(
    running.map((command) => ({
      label: command.id,
      description: oneLine(command.commandLine, 80),
      detail: `${runningDescription(command, now)} · in ${command.cwdShown}, started ${ageOf(command.startedAt, now)} ago`,
      id: command.id,
    })),
    { title, placeHolder },
  );
  return picked === undefined ? undefined : registry.get(picked.id);
}

/** What the person chose to send: text then Enter, or a key. */
interface Chosen {
  readonly typed: string;
  readonly key?: InputKey;
}

/**
 * Asks what to type into a command: one quick pick where what is typed is sent with Enter (nothing
 * typed: only Enter) and the keys are offered below it; an input box that hides what is typed
 * when the prompt asks for a secret.
 */
async function askInput(command: BackgroundCommand): Promise<Chosen | undefined> {
  const waiting = command.waitingForInput();
  const title = `Send Input to ${command.id} (${oneLine(command.commandLine, 50)})`;
  const state = waiting ? `It waits for input: ${oneLine(waiting.prompt, 120)}` : 'It does not wait for input now.';
  if (asksForSecret(waiting)) {
    const text = await vscode.window.showInputBox({ title, prompt: `${state} Enter is pressed after what you type.`, password: true, ignoreFocusOut: true });
    return text === undefined ? undefined : { typed: `${text}\n` };
  }
  type Item = vscode.QuickPickItem & { readonly chosen: Chosen };
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = title;
  pick.placeholder = `${state} Type the input and press Enter, or pick a key.`;
  pick.ignoreFocusOut = true;
  const keys: Item[] = KEY_CHOICES.map((choice) => ({ label: `$(keyboard) ${choice.label}`, description: choice.detail, chosen: { typed: '', key: choice.key } }));
  const typedItem = (value: string): Item =>
    value === ''
      ? { label: '$(newline) Enter', description: 'press Enter only (an empty answer: the prompt\'s default)', alwaysShow: true, chosen: { typed: '\n' } }
      : { label: `$(edit) ${value}`, description: 'type this, then Enter', alwaysShow: true, chosen: { typed: `${value}\n` } };
  pick.items = [typedItem(''), ...keys];
  const changed = pick.onDidChangeValue((value) => {
    pick.items = [typedItem(value), ...keys];
  });
  try {
    return await new Promise<Chosen | undefined>((resolve) => {
      pick.onDidAccept(() => {
        resolve(pick.selectedItems[0]?.chosen ?? { typed: `${pick.value}\n` });
        pick.hide();
      });
      pick.onDidHide(() => resolve(undefined));
      pick.show();
    });
  } finally {
    changed.dispose();
    pick.dispose();
  }
}

/**
 * Send Input to Background Command...: the person types into a running command (what they type is
 * theirs, so no policy question). Arguments (other extensions, tests, the view's row): the id or
 * row, then optionally the text (Enter is pressed after it) and a key; without text nor key it asks.
 * Returns what was sent (`Sent "y" and Enter to bg1.`), undefined when nothing was.
 */
async function sendInput(registry: BackgroundCommands, argument?: unknown, text?: unknown, key?: unknown): Promise<string | undefined> {
  const id = idOf(argument);
  let command: BackgroundCommand | undefined;
  if (id === undefined) {
    const running = registry.running();
    command = running.length === 1 ? running[0] : await pickRunning(registry, 'Send Input to Background Command', 'Which command? The ones waiting for input come first.');
  } else {
    command = registry.get(id);
    if (!command) {
      void vscode.window.showErrorMessage(`There is no background command ${oneLine(id, 20)}.`);
      return undefined;
    }
  }
  if (!command) {
    return undefined;
  }
  let chosen: Chosen | undefined;
  if (text === undefined && key === undefined) {
    chosen = await askInput(command);
  } else {
    const given = personInput(text, key);
    if ('error' in given) {
      void vscode.window.showErrorMessage(`Nothing was sent to ${command.id}: ${given.error}`);
      return undefined;
    }
    chosen = given;
  }
  if (!chosen) {
    return undefined;
  }
  try {
    command.sendInput(chosen.typed, chosen.key);
  } catch (error) {
    void vscode.window.showErrorMessage(errorMessage(error));
    return undefined;
  }
  return `Sent ${describeSent(chosen.typed, chosen.key)} to ${command.id}.`;
}

/** Stop and Send Input (palette, the status bar's click, the view's actions); the unlisted list for tests. */
export function registerBackgroundCommandUi(registry: BackgroundCommands, statusBar: BackgroundStatusBar, stopAllAsOnShutdown: () => Promise<void>): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(CommandId.stopBackgroundCommand, async (argument?: unknown) => {
      const id = idOf(argument);
      const command = id === undefined ? await pickRunning(registry, 'Stop Background Command', 'Which command? Its whole process group is stopped.') : registry.get(id);
      if (!command) {
        return undefined;
      }
      return describeStatus(statusOf(await command.stop()));
    }),
    vscode.commands.registerCommand(CommandId.sendInputToBackgroundCommand, (argument?: unknown, text?: unknown, key?: unknown) => sendInput(registry, argument, text, key)),
    vscode.commands.registerCommand(CommandId.listBackgroundCommands, () => ({
      running: registry.running().map((command) => ({ id: command.id, commandLine: command.commandLine, startedAt: command.startedAt, waitingFor: command.waitingForInput()?.prompt })),
      statusBarText: statusBar.text,
      statusBarTooltip: statusBar.tooltip,
      statusBarWarning: statusBar.warning,
    })),
    vscode.commands.registerCommand(CommandId.stopCommandsAsOnShutdown, () => stopAllAsOnShutdown()),
  ];
}
