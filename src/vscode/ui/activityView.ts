// The Activity view: running background commands (a waiting one with its prompt), recent calls with their verdicts and the files a call changed; selecting a call opens its diff or its details.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeRecord, type ActivityRecord } from '../../core/activity/activityRecord';
import { strictestVerdict } from '../../core/decisions';
import type { BackgroundCommands } from '../../core/ports/process';
import { describeIgnored, type IgnoredSetting } from '../../core/settingLayers';
import { SETTINGS_SECTION } from '../../core/settings';
import { CommandId, UriScheme, ViewId } from '../commandIds';
import { readIgnoredSettings } from '../host/settings';
import type { ActivityLog } from './activityLog';
import { markLooked } from './heldChanges';
import { runningCommandItem, type RunningCommandNode } from './backgroundCommands';

/** How often the ages of running background commands are refreshed. */
const AGE_REFRESH_MS = 15_000;

/** A file a call changed, shown under the call. */
interface ChangedFileNode {
  readonly record: ActivityRecord;
  readonly index: number;
}

/** A staged command's change held for review, shown under the call. */
interface HeldChangeNode {
  readonly kind: 'held';
  readonly record: ActivityRecord;
  readonly index: number;
}

/** The workspace's settings that were not honoured, one row above the calls while there are any. */
interface IgnoredSettingsNode {
  readonly kind: 'ignoredSettings';
  readonly entries: readonly IgnoredSetting[];
}

/** One of them, under that row. */
interface IgnoredSettingNode {
  readonly kind: 'ignoredSetting';
  readonly entry: IgnoredSetting;
}

type ActivityNode = ActivityRecord | RunningCommandNode | ChangedFileNode | HeldChangeNode | IgnoredSettingsNode | IgnoredSettingNode;

function isRunningCommand(node: ActivityNode): node is RunningCommandNode {
  return 'kind' in node && node.kind === 'backgroundCommand';
}

function isIgnoredSettings(node: ActivityNode): node is IgnoredSettingsNode | IgnoredSettingNode {
  return 'kind' in node && (node.kind === 'ignoredSettings' || node.kind === 'ignoredSetting');
}

function isFileNode(node: ActivityNode): node is ChangedFileNode {
  return 'record' in node && !('kind' in node);
}

function isHeldNode(node: ActivityNode): node is HeldChangeNode {
  return 'kind' in node && node.kind === 'held';
}

function isHeldArgument(argument: unknown): argument is HeldChangeNode {
  return typeof argument === 'object' && argument !== null && (argument as { kind?: unknown }).kind === 'held';
}

/**
 * The Activity view: running background commands first (with Stop and Send Input...; one waiting
 * for input shows its prompt, refreshed when the registry says its waiting state changed), then recent calls with their
 * verdicts and, under a call with checkpoints, the files it changed; selecting a call opens its
 * diff or details.
 */
export class ActivityTreeProvider implements vscode.TreeDataProvider<ActivityNode>, vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ActivityNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly ageTimer: NodeJS.Timeout;
  private readonly configuration: vscode.Disposable;

  constructor(private readonly log: ActivityLog, private readonly background?: BackgroundCommands) {
    log.onDidChange(() => this.changed.fire(undefined));
    background?.onDidChange(() => this.changed.fire(undefined));
    this.configuration = vscode.Disposable.from(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SETTINGS_SECTION)) {
          this.changed.fire(undefined);
        }
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.changed.fire(undefined)),
    );
    this.ageTimer = setInterval(() => {
      if (this.background?.running().length) {
        this.changed.fire(undefined);
      }
    }, AGE_REFRESH_MS);
  }

  getChildren(element?: ActivityNode): ActivityNode[] {
    if (!element) {
      const running = (this.background?.running() ?? []).map((command): RunningCommandNode => ({ kind: 'backgroundCommand', id: command.id }));
      const ignored = readIgnoredSettings();
      const notice: IgnoredSettingsNode[] = ignored.length ? [{ kind: 'ignoredSettings', entries: ignored }] : [];
      return [...notice, ...running, ...this.log.list()];
    }
    if (isIgnoredSettings(element)) {
      return element.kind === 'ignoredSettings' ? element.entries.map((entry): IgnoredSettingNode => ({ kind: 'ignoredSetting', entry })) : [];
    }
    if (isFileNode(element) || isHeldNode(element) || isRunningCommand(element)) {
      return [];
    }
    const held = (element.held ?? []).map((_change, index): HeldChangeNode => ({ kind: 'held', record: element, index }));
    return [...held, ...(element.checkpoint ? element.changedPaths.map((_file, index) => ({ record: element, index })) : [])];
  }

  getTreeItem(node: ActivityNode): vscode.TreeItem {
    if (isIgnoredSettings(node)) {
      return ignoredSettingsItem(node);
    }
    if (isRunningCommand(node)) {
      const command = this.background?.get(node.id);
      return command ? runningCommandItem(command) : new vscode.TreeItem(`${node.id} (ended)`);
    }
    if (isHeldNode(node)) {
      const held = (node.record.held ?? [])[node.index];
      const item = new vscode.TreeItem(held?.path ?? '');
      item.description = held?.state === 'merged' ? 'merged from review' : held?.state === 'discarded' ? 'discarded' : `held, not merged: ${held?.why ?? ''}`;
      item.iconPath = held?.state === 'merged' ? new vscode.ThemeIcon('check') : held?.state === 'discarded' ? new vscode.ThemeIcon('trash') : new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
      item.id = `${node.record.id}/held/${node.index}`;
      // Merge Held Change and Discard Held Change (inline and in the context menu) while it waits.
      item.contextValue = held?.state === undefined ? 'heldChange' : 'heldChange.done';
      item.command = { command: CommandId.showHeldChange, title: 'Show Held Change', arguments: [node.record.id, node.index] };
      return item;
    }
    if (isFileNode(node)) {
      const file = node.record.changedPaths[node.index];
      const item = new vscode.TreeItem(file.path);
      item.description = `${file.kind}${file.added !== undefined ? ` +${file.added} -${file.deleted}` : ''}`;
      item.iconPath = new vscode.ThemeIcon(file.kind === 'created' ? 'diff-added' : file.kind === 'deleted' ? 'diff-removed' : 'diff-modified');
      item.id = `${node.record.id}/${node.index}`;
      item.command = { command: CommandId.showCheckpointChanges, title: 'Show Changes', arguments: [node.record.id, node.index] };
      return item;
    }
    const record = node;
    const verdict = strictestVerdict(record.verdicts);
    const item = new vscode.TreeItem(`${record.tool.replace(/^workspace_/, '')} ${subjectOf(record)}`.trim());
    const guard = verdict && verdict.decision !== 'allow' ? ` · ${verdict.decision} ${verdict.rule ?? ''}` : '';
    const redacted = record.redactions.length ? ` · ${record.redactions.length} redacted` : '';
    // Calls from agents outside chat say which agent made them.
    const client = record.client?.startsWith('mcp:') ? ` · ${record.client}` : '';
    item.description = `${record.outcome === 'ok' ? 'ok' : 'failed'}${guard}${redacted} · ${record.durationMs} ms${client}`;
    item.iconPath = new vscode.ThemeIcon(
      record.outcome === 'ok' ? 'pass' : verdict?.decision === 'deny' ? 'shield' : 'error',
      new vscode.ThemeColor(record.outcome === 'ok' ? 'testing.iconPassed' : 'testing.iconFailed'),
    );
    item.tooltip = new vscode.MarkdownString(['```', describeRecord(record), '```'].join('\n'));
    const notes = record.checkpoint?.notes?.length ? ` · ${record.checkpoint.notes.length} not recorded` : '';
    item.description += notes;
    // A repository's config or hook a command wrote: git runs what they name. Restore is offered with the rest of the call.
    const config = record.executionConfig ?? [];
    if (config.length) {
      item.description += ` · ${config.some((entry) => entry.change === 'changed') ? 'changed' : 'created'} execution config`;
      item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
      item.tooltip.appendMarkdown(`\n\nExecution config ${config.map((entry) => `${entry.change}: \`${entry.path}\``).join(', ')}. Read them before git or VS Code runs anything; Restore to Before This Call puts back the workspace files.`);
    }
    item.contextValue = record.checkpoint ? 'activityCall.checkpoint' : this.log.changesOf(record.id).length ? 'activityCall.change' : 'activityCall';
    const waiting = record.held?.filter((held) => held.state === undefined).length ?? 0;
    if (waiting) {
      item.description += ` · ${waiting} held for review`;
      item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
    }
    if ((record.checkpoint && record.changedPaths.length) || record.held?.length) {
      item.collapsibleState = vscode.TreeItemCollapsibleState.Collapsed;
    }
    item.id = String(record.id);
    item.command = { command: CommandId.openActivity, title: 'Open', arguments: [record] };
    return item;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const [id, index, side] = uri.path.replace(/^\//, '').split('/');
    if (side === undefined) {
      const record = this.log.list().find((candidate) => String(candidate.id) === id);
      return record ? JSON.stringify(record, null, 2) : 'This call is no longer in the activity log.';
    }
    const change = this.log.changesOf(Number(id))[Number(index)];
    return change ? (side === 'before' ? change.before : change.after) : '';
  }

  dispose(): void {
    clearInterval(this.ageTimer);
    this.configuration.dispose();
    this.changed.dispose();
  }

  /** Opens the diff of a write or patch (its first file; the others are listed to pick), or the call's details. */
  async open(record: ActivityRecord): Promise<void> {
    const changes = this.log.changesOf(record.id);
    if (changes.length === 0) {
      const uri = vscode.Uri.from({ scheme: UriScheme.activity, path: `/${record.id}/${record.tool}.json` });
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
      return;
    }
    let index = 0;
    if (changes.length > 1) {
      const picked = await vscode.window.showQuickPick(changes.map((change, i) => ({ label: change.path, index: i })), { placeHolder: 'Which file of this call?' });
      if (!picked) {
        return;
      }
      index = picked.index;
    }
    const change = changes[index];
    const side = (name: string) => vscode.Uri.from({ scheme: UriScheme.activity, path: `/${record.id}/${index}/${name}/${path.posix.basename(change.path)}` });
    await vscode.commands.executeCommand('vscode.diff', side('before'), side('after'), `${record.tool}: ${change.path} (as proposed)`);
  }
}

/** The row that names the workspace settings not honoured, and a row for each under it. */
function ignoredSettingsItem(node: IgnoredSettingsNode | IgnoredSettingNode): vscode.TreeItem {
  const warning = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
  if (node.kind === 'ignoredSettings') {
    const item = new vscode.TreeItem(`Workspace settings not honoured: ${node.entries.length}`, vscode.TreeItemCollapsibleState.Expanded);
    item.description = 'a workspace can only make the tools stricter';
    item.iconPath = warning;
    item.contextValue = 'ignoredSettings';
    item.tooltip = node.entries.map(describeIgnored).join('\n');
    return item;
  }
  const item = new vscode.TreeItem(node.entry.key.replace(/^workspaceAgentTools\./, ''));
  item.description = node.entry.layer;
  item.tooltip = describeIgnored(node.entry);
  item.iconPath = warning;
  item.contextValue = 'ignoredSetting';
  item.command = { command: 'workbench.action.openSettings', title: 'Open Setting', arguments: [node.entry.key] };
  return item;
}

function subjectOf(record: ActivityRecord): string {
  try {
    const input = JSON.parse(record.input) as Record<string, unknown>;
    const subject = input.file_path ?? input.path ?? input.pattern ?? input.command ?? input.id ?? (typeof input.patch === 'string' ? 'patch' : typeof input.activityId === 'number' ? `to before call ${input.activityId}` : undefined);
    return typeof subject === 'string' ? subject : '';
  } catch {
    return '';
  }
}

export function registerActivityView(log: ActivityLog, background?: BackgroundCommands): vscode.Disposable[] {
  const provider = new ActivityTreeProvider(log, background);
  return [
    provider,
    vscode.window.registerTreeDataProvider(ViewId.activity, provider),
    vscode.workspace.registerTextDocumentContentProvider(UriScheme.activity, provider),
    vscode.commands.registerCommand(CommandId.openActivity, (record?: ActivityRecord) => (record ? provider.open(record) : undefined)),
    vscode.commands.registerCommand(CommandId.copyActivityInput, async (record?: ActivityRecord) => {
      if (record) {
        await vscode.env.clipboard.writeText(log.inputOf(record.id) ?? record.input);
      }
    }),
    vscode.commands.registerCommand(CommandId.showHeldChange, (id?: unknown, index?: unknown) =>
      // From the row's context menu the argument is the row itself.
      isHeldArgument(id) ? showHeldChange(log, id.record.id, id.index) : showHeldChange(log, id, index),
    ),
    vscode.commands.registerCommand(CommandId.showActivityLog, () => log.channel.show(true)),
    vscode.commands.registerCommand(CommandId.listActivity, () => log.list()),
    vscode.commands.registerCommand(CommandId.activityLogFile, () => log.file),
    vscode.commands.registerCommand(CommandId.activityViewRows, () =>
      provider.getChildren().map((node) => {
        const item = provider.getTreeItem(node);
        const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined;
        return { label: typeof item.label === 'string' ? item.label : item.label?.label, description: item.description, contextValue: item.contextValue, icon };
      }),
    ),
  ];
}

/**
 * Shows a staged command's held change for review: a file as a diff of the workspace's version (or
 * nothing) against the command's, kept in its upper layer; a folder (a new repository, a `.vscode`)
 * as the list of its files, any of which opens. Nothing is merged from here (Merge Held Change,
 * heldChanges.ts, replaces a version the person changed only after this showed it).
 */
async function showHeldChange(log: ActivityLog, id: unknown, index: unknown): Promise<void> {
  const record = log.list().find((candidate) => candidate.id === id);
  const held = typeof index === 'number' ? record?.held?.[index] : undefined;
  if (!record || !held) {
    return;
  }
  const kept = vscode.Uri.file(held.keptAt);
  markLooked(held.keptAt);
  const stat = await Promise.resolve(vscode.workspace.fs.stat(kept)).catch(() => undefined);
  if (!stat) {
    void vscode.window.showWarningMessage(`The held change ${held.path} is no longer kept at ${held.keptAt}.`);
    return;
  }
  if (stat.type & vscode.FileType.Directory) {
    const files = await filesUnder(kept, 500);
    const picked = await vscode.window.showQuickPick(files.map((uri) => ({ label: path.relative(held.keptAt, uri.fsPath), uri })), { placeHolder: `${held.path}: held, not merged (${held.why}). Which file?` });
    if (picked) {
      await vscode.window.showTextDocument(picked.uri, { preview: true });
    }
    return;
  }
  const folder = vscode.workspace.workspaceFolders?.find((candidate) => held.path === candidate.name || held.path.startsWith(`${candidate.name}/`)) ?? vscode.workspace.workspaceFolders?.[0];
  const relative = folder && (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? held.path.slice(folder.name.length + 1) : held.path;
  const current = folder ? vscode.Uri.joinPath(folder.uri, relative) : undefined;
  const exists = current ? await Promise.resolve(vscode.workspace.fs.stat(current)).then(() => true, () => false) : false;
  const left = exists && current ? current : vscode.Uri.from({ scheme: UriScheme.activity, path: `/${record.id}/held/none/${path.posix.basename(held.path)}` });
  await vscode.commands.executeCommand('vscode.diff', left, kept, `${held.path} (held, not merged: the command's version on the right)`);
}

/** Files under a folder, breadth first, at most `limit`. */
async function filesUnder(root: vscode.Uri, limit: number): Promise<vscode.Uri[]> {
  const files: vscode.Uri[] = [];
  const queue = [root];
  while (queue.length && files.length < limit) {
    const folder = queue.shift() as vscode.Uri;
    for (const [name, type] of await Promise.resolve(vscode.workspace.fs.readDirectory(folder)).catch(() => [] as [string, vscode.FileType][])) {
      const child = vscode.Uri.joinPath(folder, name);
      if (type & vscode.FileType.Directory) {
        queue.push(child);
      } else if (files.length < limit) {
        files.push(child);
      }
    }
  }
  return files;
}
