import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { describeRecord, type ActivityRecord } from '../core/activity/activityLog';
import { strictestVerdict } from '../core/decisions';

const MAX_RECORDS = 200;

/** Before and after of one file a call proposed to change, kept in memory to reopen its diff. */
export interface RecordedChange {
  readonly path: string;
  readonly before: string;
  readonly after: string;
}

/**
 * Every tool call, in three places: the output channel (for reading), a JSON Lines file in the
 * extension's storage (for tools and bug reports), and the Activity view (recent calls).
 */
export class ActivityLog implements vscode.Disposable {
  private readonly records: ActivityRecord[] = [];
  private readonly changes = new Map<number, readonly RecordedChange[]>();
  /** Whole inputs for "Copy Input"; kept in memory only, as they may hold file contents. */
  private readonly inputs = new Map<number, string>();
  private nextId = 1;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  readonly channel = vscode.window.createOutputChannel('Workspace Agent Tools');
  readonly file: string;

  constructor(storageDir: string) {
    fs.mkdirSync(storageDir, { recursive: true });
    this.file = path.join(storageDir, 'activity.jsonl');
  }

  newId(): number {
    return this.nextId++;
  }

  add(record: ActivityRecord, fullInput: unknown, changes: readonly RecordedChange[] = []): void {
    this.records.unshift(record);
    this.inputs.set(record.id, JSON.stringify(fullInput, null, 2));
    if (changes.length) {
      this.changes.set(record.id, changes);
    }
    for (const dropped of this.records.splice(MAX_RECORDS)) {
      this.changes.delete(dropped.id);
      this.inputs.delete(dropped.id);
    }
    this.channel.appendLine(describeRecord(record));
    fs.appendFile(this.file, `${JSON.stringify(record)}\n`, (error) => {
      if (error) {
        this.channel.appendLine(`Could not write ${this.file}: ${error.message}`);
      }
    });
    this.changed.fire();
  }

  /** Recent calls, newest first. */
  list(): readonly ActivityRecord[] {
    return this.records;
  }

  inputOf(id: number): string | undefined {
    return this.inputs.get(id);
  }

  changesOf(id: number): readonly RecordedChange[] {
    return this.changes.get(id) ?? [];
  }

  dispose(): void {
    this.channel.dispose();
    this.changed.dispose();
  }
}

const ACTIVITY_DOC_SCHEME = 'workspace-agent-tools-activity';

/** The Activity view: recent calls with their verdicts; selecting one opens its diff or details. */
export class ActivityTreeProvider implements vscode.TreeDataProvider<ActivityRecord>, vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<ActivityRecord | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly log: ActivityLog) {
    log.onDidChange(() => this.changed.fire(undefined));
  }

  getChildren(element?: ActivityRecord): ActivityRecord[] {
    return element ? [] : [...this.log.list()];
  }

  getTreeItem(record: ActivityRecord): vscode.TreeItem {
    const verdict = strictestVerdict(record.verdicts);
    const item = new vscode.TreeItem(`${record.tool.replace(/^workspace_/, '')} ${subjectOf(record)}`);
    const guard = verdict && verdict.decision !== 'allow' ? ` · ${verdict.decision} ${verdict.rule ?? ''}` : '';
    const redacted = record.redactions.length ? ` · ${record.redactions.length} redacted` : '';
    item.description = `${record.outcome === 'ok' ? 'ok' : 'failed'}${guard}${redacted} · ${record.durationMs} ms`;
    item.iconPath = new vscode.ThemeIcon(
      record.outcome === 'ok' ? 'pass' : verdict?.decision === 'deny' ? 'shield' : 'error',
      new vscode.ThemeColor(record.outcome === 'ok' ? 'testing.iconPassed' : 'testing.iconFailed'),
    );
    item.tooltip = new vscode.MarkdownString(['```', describeRecord(record), '```'].join('\n'));
    item.contextValue = this.log.changesOf(record.id).length ? 'activityCall.change' : 'activityCall';
    item.id = String(record.id);
    item.command = { command: 'workspaceAgentTools.openActivity', title: 'Open', arguments: [record] };
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

  /** Opens the diff of a write or patch (its first file; the others are listed to pick), or the call's details. */
  async open(record: ActivityRecord): Promise<void> {
    const changes = this.log.changesOf(record.id);
    if (changes.length === 0) {
      const uri = vscode.Uri.from({ scheme: ACTIVITY_DOC_SCHEME, path: `/${record.id}/${record.tool}.json` });
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
    const side = (name: string) => vscode.Uri.from({ scheme: ACTIVITY_DOC_SCHEME, path: `/${record.id}/${index}/${name}/${path.posix.basename(change.path)}` });
    await vscode.commands.executeCommand('vscode.diff', side('before'), side('after'), `${record.tool}: ${change.path} (as proposed)`);
  }
}

function subjectOf(record: ActivityRecord): string {
  try {
    const input = JSON.parse(record.input) as Record<string, unknown>;
    const subject = input.file_path ?? input.path ?? input.pattern ?? input.command ?? (typeof input.patch === 'string' ? 'patch' : undefined);
    return typeof subject === 'string' ? subject : '';
  } catch {
    return '';
  }
}

export function registerActivityView(log: ActivityLog): vscode.Disposable[] {
  const provider = new ActivityTreeProvider(log);
  return [
    vscode.window.registerTreeDataProvider('workspaceAgentTools.activity', provider),
    vscode.workspace.registerTextDocumentContentProvider(ACTIVITY_DOC_SCHEME, provider),
    vscode.commands.registerCommand('workspaceAgentTools.openActivity', (record?: ActivityRecord) => (record ? provider.open(record) : undefined)),
    vscode.commands.registerCommand('workspaceAgentTools.copyActivityInput', async (record?: ActivityRecord) => {
      if (record) {
        await vscode.env.clipboard.writeText(log.inputOf(record.id) ?? record.input);
      }
    }),
    vscode.commands.registerCommand('workspaceAgentTools.showActivityLog', () => log.channel.show(true)),
    vscode.commands.registerCommand('workspaceAgentTools.listActivity', () => log.list()),
    vscode.commands.registerCommand('workspaceAgentTools.activityLogFile', () => log.file),
  ];
}
