import * as os from 'node:os';
import type { ApprovalRequest, ChangeApplier, EditorBuffers, FileSystem, ToolContext, ToolSettings, WorkspaceInfo } from '../../../src/core/ports';
import type { CancellationSignal } from '../../../src/core/errors';
import type { Location } from '../../../src/core/location';
import { MemoryReadLedger } from '../../../src/core/changes/readLedger';
import { NodeFileSystem } from '../../../src/core/fs/nodeFileSystem';
import { fileLocation } from '../../../src/core/location';

export const neverCancelled: CancellationSignal = {
  isCancellationRequested: false,
  onCancellationRequested: () => ({ dispose: () => undefined }),
};

/** An approver that answers from a script and remembers what it was asked. */
export class ScriptedApprover {
  readonly asked: ApprovalRequest[] = [];
  constructor(public answer: boolean) {}
  async confirm(request: ApprovalRequest): Promise<boolean> {
    this.asked.push(request);
    return this.answer;
  }
}

export interface TestContextOptions {
  root: string;
  settings?: Partial<ToolSettings>;
  workspace?: Partial<WorkspaceInfo>;
  approver?: ScriptedApprover;
  dirty?: Map<string, string>;
  fs?: FileSystem;
  token?: CancellationSignal;
  changes?: ChangeApplier;
}

/** A ToolContext over the real local disk, as the extension builds it, minus VS Code. */
export function testContext(options: TestContextOptions): ToolContext & { approver: ScriptedApprover } {
  const dirty = options.dirty ?? new Map<string, string>();
  const buffers: EditorBuffers = { dirtyText: (location: Location) => dirty.get(location.path) };
  return {
    fs: options.fs ?? new NodeFileSystem(),
    buffers,
    approver: options.approver ?? new ScriptedApprover(false),
    workspace: { folders: [{ name: 'ws', location: fileLocation(options.root) }], trusted: true, home: os.homedir(), ...options.workspace },
    settings: { riskLevel: 'medium', planMode: false, allowedReadPaths: [], allowedWritePaths: [], ...options.settings },
    reads: new MemoryReadLedger(),
    clock: { now: () => Date.now() },
    token: options.token ?? neverCancelled,
    changes: options.changes,
  };
}

/** The text of a result's text parts. */
export function resultText(result: { parts: readonly { kind: string; text?: string }[] }): string {
  return result.parts.map((part) => (part.kind === 'text' ? part.text : `<${part.kind}>`)).join('\n');
}
