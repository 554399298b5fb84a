import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChangedFile, Checkpoint, CheckpointLimits, CheckpointStore, RecordedEntry, RestoreStep, RestoreWriter } from '../../../src/core/ports/checkpoints';

type Tree = Map<string, Buffer>;

/** Every file under a folder, by its `/`-separated path inside it. */
function readTree(folder: string, prefix = ''): Tree {
  const tree: Tree = new Map();
  for (const entry of fs.readdirSync(path.join(folder, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      for (const [name, bytes] of readTree(folder, relative)) {
        tree.set(name, bytes);
      }
    } else if (entry.isFile()) {
      tree.set(relative, fs.readFileSync(path.join(folder, relative)));
    }
  }
  return tree;
}

function lines(bytes: Buffer): number {
  return bytes.toString('utf8').split('\n').filter((line, index, all) => line !== '' || index < all.length - 1).length;
}

/**
 * The checkpoint store in memory over the local disk: a checkpoint is a copy of every file of its
 * folders. It counts what it was asked, can add notes to every checkpoint, fail, or forget one (pruned).
 */
export class MemoryCheckpointStore implements CheckpointStore {
  private readonly trees = new Map<string, Map<string, Tree>>();
  private readonly checkpoints = new Map<string, Checkpoint>();
  /** The folders of each take, in order. */
  readonly takes: (readonly string[])[] = [];
  /** Notes every checkpoint taken from now on carries. */
  notes: string[] = [];
  /** When set, take fails with it. */
  failure: Error | undefined;

  async take(folders: readonly string[], _limits: CheckpointLimits): Promise<Checkpoint> {
    this.takes.push(folders);
    if (this.failure) {
      throw this.failure;
    }
    const id = `ckpt-${this.takes.length}`;
    this.trees.set(id, new Map(folders.map((folder) => [folder, readTree(folder)])));
    const checkpoint: Checkpoint = { id, takenAt: this.takes.length, folders: folders.map((folder) => ({ folder, state: id })), notes: [...this.notes] };
    this.checkpoints.set(id, checkpoint);
    return checkpoint;
  }

  get(id: string): Checkpoint | undefined {
    return this.checkpoints.get(id);
  }

  /** Drops a checkpoint, as pruning would. */
  forget(id: string): void {
    this.checkpoints.delete(id);
  }

  async changes(from: Checkpoint, to: Checkpoint): Promise<ChangedFile[]> {
    const changed: ChangedFile[] = [];
    for (const { folder } of to.folders) {
      const before = this.tree(from, folder);
      const after = this.tree(to, folder);
      for (const name of [...new Set([...before.keys(), ...after.keys()])].sort()) {
        const old = before.get(name);
        const now = after.get(name);
        const file = { folder, rawPath: Buffer.from(name), path: name };
        if (!old && now) {
          changed.push({ ...file, kind: 'created', added: lines(now), deleted: 0 });
        } else if (old && !now) {
          changed.push({ ...file, kind: 'deleted', added: 0, deleted: lines(old) });
        } else if (old && now && !old.equals(now)) {
          changed.push({ ...file, kind: 'modified' });
        }
      }
    }
    return changed;
  }

  async restoreSteps(target: Checkpoint, current: Checkpoint): Promise<RestoreStep[]> {
    const steps: RestoreStep[] = [];
    for (const { folder } of target.folders) {
      const wanted = this.tree(target, folder);
      const now = this.tree(current, folder);
      for (const name of [...now.keys()].sort().filter((candidate) => !wanted.has(candidate))) {
        steps.push({ folder, rawPath: Buffer.from(name), path: name, action: 'delete' });
      }
      for (const [name, bytes] of [...wanted].sort(([a], [b]) => a.localeCompare(b))) {
        if (!now.get(name)?.equals(bytes)) {
          steps.push({ folder, rawPath: Buffer.from(name), path: name, action: 'write', entry: fileEntry(bytes) });
        }
      }
    }
    return steps;
  }

  async entry(checkpoint: Checkpoint, folder: string, rawPath: Uint8Array): Promise<RecordedEntry | undefined> {
    const bytes = this.tree(checkpoint, folder).get(Buffer.from(rawPath).toString('utf8'));
    return bytes && fileEntry(bytes);
  }

  private tree(checkpoint: Checkpoint, folder: string): Tree {
    return this.trees.get(checkpoint.id)?.get(folder) ?? new Map();
  }
}

function fileEntry(bytes: Buffer): RecordedEntry {
  return { type: 'file', executable: false, read: async () => bytes };
}

/** The restore writer port over the local disk: writes the steps and remembers them; some paths can be "unsaved". */
export class DiskRestoreWriter implements RestoreWriter {
  readonly written: (readonly RestoreStep[])[] = [];
  /** Paths reported as open with unsaved text. */
  unsavedPaths: string[] = [];
  /** Problems reported after writing (the steps are still written). */
  problems: string[] = [];

  unsaved(steps: readonly RestoreStep[]): readonly string[] {
    return steps.map((step) => step.path).filter((candidate) => this.unsavedPaths.includes(candidate));
  }

  async write(steps: readonly RestoreStep[]): Promise<string[]> {
    this.written.push(steps);
    for (const step of steps) {
      const target = path.join(step.folder, step.path);
      if (step.action === 'delete') {
        fs.rmSync(target, { force: true });
      } else if (step.entry) {
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.writeFileSync(target, await step.entry.read());
      }
    }
    return [...this.problems];
  }
}
