// Staged command changes (issue 40), the machine side of one run: the layers of each workspace
// folder made under the staging root, the launch wrapped over them (overlayLaunch.ts), and, when the
// command has ended, the merge (upperLayer.ts, by the plan of ../staging.ts) while its namespace
// still holds. What the plan holds (execution config, a new repository, a conflict) stays in the
// run's upper layer, which is then kept for review instead of removed; so does the rest of a merge
// that stopped. The staging root lies outside every folder a command may write, and is hidden from
// commands (MachineSandbox lists it among its private folders).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, promises as fs, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AheadLaunch, RecordedBy, StagedChange, StagedMerge, StagedRun, StagingHost } from '../../ports/process';
import { startAhead } from '../../process/node/processRunner';
import { planMerge, withoutMountPoints } from '../staging';
import { restRoots, writeManifest, type KeptEntry, type LayerManifest, type RunManifest } from './keptRuns';
import { nestedBubblewrapOptions, opaqueFoldersThrough, openWorkFolder, stagedLaunch, stagedLaunchAhead, stagingLayout, type StagedFolder } from './overlayLaunch';
import { applyMerge, lowerFactsOf, MergeStopped, readUpperLayer, unrecordedOf } from './upperLayer';

/** Where util-linux's unshare is. */
const UNSHARE = ['/usr/bin/unshare', '/bin/unshare'];
/** Where bash is, which reads a launch started ahead its argv as data (`mapfile -d ''`). */
const BASH = ['/usr/bin/bash', '/bin/bash'];
/** The environment of a launch started ahead: none of the host's (the command's comes with it). */
const AHEAD_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' };
const PROBE_MS = 10_000;
/** How long the next launch ahead waits for the tool's result (resultGiven) before it is started anyway (a result that never says so: an error, a background command's end). */
const RESULT_WAIT_MS = 500;

export class OverlayStaging implements StagingHost {
  private readonly probes = new Map<string, Promise<{ readonly ok: true } | { readonly ok: false; readonly why: string }>>();
  private made = 0;
  /**
   * The launch started ahead for the next command (stagedLaunchAhead), with its own staging folder:
   * at most one, for the folders of the last staged command, replaced after each. `mounts`: the
   * machine's mount table when it was started; it is stale once the table or the folders differ.
   */
  private ahead: { readonly key: string; readonly staging: string; readonly layout: readonly StagedFolder[]; readonly launch: AheadLaunch; readonly mounts: string } | undefined;
  private disposed = false;
  private replacing: Promise<void> | undefined;
  /** Resolves the wait of the next launch ahead for the tool's result, when one waits. */
  private given: (() => void) | undefined;

  /** `root`: a folder of the extension's own (made 0700 when first needed), outside the workspace and hidden from commands. */
  constructor(readonly root: string, private readonly ids: { readonly uid: number; readonly gid: number } = os.userInfo()) {}

  available(bubblewrap: string): Promise<{ readonly ok: true } | { readonly ok: false; readonly why: string }> {
    let probe = this.probes.get(bubblewrap);
    if (!probe) {
      probe = this.probe(bubblewrap);
      this.probes.set(bubblewrap, probe);
    }
    return probe;
  }

  async prepare(folders: readonly string[], mountPoints: readonly string[]): Promise<StagedRun> {
    const startedAt = Date.now();
    const ahead = this.takeAhead(folders);
    // Once the run's layers are removed and the tool's result given, the launch for the next command
    // (spawning it blocks the host for a moment: on the command's path it cost more than anything else).
    const replace = (removed: Promise<void>): void => {
      const given = this.resultWait();
      this.replacing = Promise.all([removed.catch(() => undefined), given]).then(() => this.startAhead(folders)).catch(() => undefined);
    };
    if (ahead) {
      return new OverlayRun(this.unshare(), ahead.staging, ahead.layout, mountPoints, this.ids, startedAt, replace, ahead.launch);
    }
    const staging = await this.makeStaging();
    const layout = await this.makeLayers(staging, folders);
    return new OverlayRun(this.unshare(), staging, layout, mountPoints, this.ids, startedAt, replace);
  }

  resultGiven(): void {
    const given = this.given;
    this.given = undefined;
    given?.();
  }

  /** Settles when the tool's result is given (resultGiven), or after RESULT_WAIT_MS. */
  private resultWait(): Promise<void> {
    this.resultGiven();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.resultGiven(), RESULT_WAIT_MS);
      timer.unref();
      this.given = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Settles once the last run's layers are removed and the launch ahead its end asked for has started, or was not (true: one waits now); the result counts as given. */
  async aheadReady(): Promise<boolean> {
    this.resultGiven();
    await this.replacing;
    return this.ahead?.launch.waiting() === true;
  }

  /** Ends the launch started ahead, if any, and removes its staging folder (extension deactivation). */
  dispose(): void {
    this.disposed = true;
    this.resultGiven();
    this.discardAhead();
  }

  private async makeLayers(staging: string, folders: readonly string[]): Promise<StagedFolder[]> {
    const layout = stagingLayout(staging, folders);
    for (const layer of layout) {
      await Promise.all([layer.lower, layer.upper, layer.work].map((dir) => fs.mkdir(dir, { mode: 0o700 })));
    }
    return layout;
  }

  /**
   * The launch started ahead, when it is fresh for `folders`: still waiting, over the same folders,
   * on the same mounts of the machine, its layers still empty. A stale one is discarded. What the
   * command's sandbox plan decides (its binds, hidden secrets, mount points, network, folder and
   * environment) is not in it: that comes with the command, in bubblewrap's argv and input. Looked
   * at synchronously (a small file and three empty folders): each awaited step costs the command more.
   */
  private takeAhead(folders: readonly string[]): { readonly staging: string; readonly layout: readonly StagedFolder[]; readonly launch: AheadLaunch } | undefined {
    const ahead = this.ahead;
    if (!ahead) {
      return undefined;
    }
    this.ahead = undefined;
    if (ahead.key === aheadKey(folders) && ahead.launch.waiting() && machineMounts() === ahead.mounts && emptyLayers(ahead.layout)) {
      return ahead;
    }
    ahead.launch.discard();
    void fs.rm(ahead.staging, { recursive: true, force: true }).catch(() => undefined);
    return undefined;
  }

  /** Starts the launch for the next command over `folders` (replacing any), with its staging folder; none where bash is missing. */
  private async startAhead(folders: readonly string[]): Promise<void> {
    const bash = BASH.find((candidate) => existsSync(candidate));
    if (this.disposed || !bash) {
      return;
    }
    this.discardAhead();
    const mounts = machineMounts();
    const staging = await this.makeStaging();
    const layout = await this.makeLayers(staging, folders).catch(async (error: unknown) => {
      await fs.rm(staging, { recursive: true, force: true }).catch(() => undefined);
      throw error;
    });
    if (this.disposed || this.ahead) {
      // Deactivated meanwhile, or another run's replacement came first.
      await fs.rm(staging, { recursive: true, force: true }).catch(() => undefined);
      return;
    }
    const launch = startAhead(stagedLaunchAhead(this.unshare(), bash, layout), AHEAD_ENV);
    this.ahead = { key: aheadKey(folders), staging, layout, launch, mounts };
  }

  /** Ends the launch started ahead, if any, unused (the next run launches plainly; the bench compares the two). */
  discardAhead(): void {
    const ahead = this.ahead;
    this.ahead = undefined;
    if (ahead) {
      ahead.launch.discard();
      rmSync(ahead.staging, { recursive: true, force: true });
    }
  }

  private unshare(): string {
    const found = UNSHARE.find((candidate) => existsSync(candidate));
    if (!found) {
      throw new Error("util-linux's unshare is missing");
    }
    return found;
  }

  private async makeStaging(): Promise<string> {
    await fs.mkdir(this.root, { recursive: true, mode: 0o700 });
    const staging = path.join(this.root, `${process.pid}-${++this.made}-${randomBytes(4).toString('hex')}`);
    await fs.mkdir(staging, { mode: 0o700 });
    return staging;
  }

  /** The whole launch once, as a command runs it: overlay mounted, bubblewrap nested, a write landing in the upper layer only. */
  private async probe(bubblewrap: string): Promise<{ readonly ok: true } | { readonly ok: false; readonly why: string }> {
    let staging: string | undefined;
    let layer: StagedFolder | undefined;
    try {
      const unshare = this.unshare();
      staging = await this.makeStaging();
      const folder = path.join(staging, 'folder');
      await fs.mkdir(folder);
      [layer] = stagingLayout(staging, [folder]);
      await Promise.all([layer.lower, layer.upper, layer.work].map((dir) => fs.mkdir(dir)));
      const bwrap = [bubblewrap, ...nestedBubblewrapOptions(this.ids.uid, this.ids.gid), '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--bind', folder, folder, '--chdir', folder, '--', '/bin/sh', '-c', 'echo staged > probe'];
      const [program, ...args] = stagedLaunch(unshare, [layer], bwrap);
      const stderr = await new Promise<string | undefined>((resolve) => {
        execFile(program, args, { timeout: PROBE_MS }, (error, _stdout, text) => resolve(error ? String(text || error.message).trim() : undefined));
      });
      if (stderr !== undefined) {
        return { ok: false, why: `overlays cannot be mounted for commands here (${stderr.split('\n').slice(-1)[0]})` };
      }
      if (!existsSync(path.join(layer.upper, 'probe')) || existsSync(path.join(folder, 'probe'))) {
        return { ok: false, why: "the overlay did not keep the probe's write in its own layer" };
      }
      return { ok: true };
    } catch (error) {
      return { ok: false, why: error instanceof Error ? error.message : String(error) };
    } finally {
      if (layer) {
        await openWorkFolder(layer.work).catch(() => undefined);
      }
      if (staging) {
        await fs.rm(staging, { recursive: true, force: true }).catch(() => undefined);
      }
    }
  }
}

/** The key of the folders a launch started ahead mounts. */
function aheadKey(folders: readonly string[]): string {
  return JSON.stringify(folders);
}

/** The machine's mount table as this process sees it (a mount's id changes when it is made again). */
function machineMounts(): string {
  return readFileSync('/proc/self/mountinfo', 'utf8');
}

/** The names in a folder, or undefined when it cannot be listed. */
function listed(dir: string): string[] | undefined {
  try {
    return readdirSync(dir);
  } catch {
    return undefined;
  }
}

/** Whether every layer's folders are there and empty, as made (a launch started ahead mounts nothing before its line). */
function emptyLayers(layout: readonly StagedFolder[]): boolean {
  return layout.flatMap((layer) => [layer.lower, layer.upper, layer.work]).every((dir) => listed(dir)?.length === 0);
}

/**
 * Whether an upper layer holds nothing of the command's, in one look (the common case: a command
 * that wrote nothing): empty, or only the sandbox's own mount points (`points`, layer-relative),
 * each an empty folder at the top, as `withoutMountPoints` would leave nothing. Anything else, or a
 * folder that cannot be listed, is read and planned whole.
 */
function holdsNothing(upper: string, points: ReadonlySet<string>): boolean {
  const names = listed(upper);
  return names !== undefined && names.every((name) => points.has(name) && listed(path.join(upper, name))?.length === 0);
}

class OverlayRun implements StagedRun {
  private kept = false;
  private merged: Promise<StagedMerge> | undefined;
  /** The manifest's folders (keptRuns.ts): what each holds, and the merge's plan while it runs. */
  private readonly layers: LayerManifest[];
  /**
   * The first manifest (`running`), written while the command starts (off its path), so that a window
   * closed while the command runs leaves its changes listed at the next start; a later write waits for it.
   */
  private readonly recorded: Promise<void>;
  readonly ahead: StagedRun['ahead'];

  constructor(
    private readonly unshare: string,
    private readonly staging: string,
    private readonly layout: readonly StagedFolder[],
    private readonly mountPoints: readonly string[],
    private readonly ids: { readonly uid: number; readonly gid: number },
    private readonly startedAt: number,
    /** Starts the launch ahead for the next command, once this one's layers are removed. */
    private readonly replace: (removed: Promise<void>) => void,
    private readonly launchedAhead?: AheadLaunch,
  ) {
    this.ahead = launchedAhead ? { launch: launchedAhead, argv: (bubblewrap) => this.nested(bubblewrap) } : undefined;
    this.layers = layout.map((layer) => ({ folder: layer.folder, upper: path.basename(layer.upper), held: [] }));
    this.recorded = this.record('running').catch(() => undefined);
  }

  /**
   * Writes the run's manifest, so that a window that closes or crashes leaves what it kept recoverable
   * (keptRuns.ts). Past the first, only when recovery needs it: before a merge's first step (its
   * plan), and after a merge that kept something; a run that merged nothing new is removed instead.
   */
  private async record(state: RunManifest['state']): Promise<void> {
    if (state !== 'running') {
      await this.recorded;
    }
    return writeManifest(this.staging, { version: 1, pid: process.pid, startedAt: this.startedAt, state, mountPoints: this.mountPoints, layers: this.layers });
  }

  wrap(bubblewrap: readonly string[]): string[] {
    return stagedLaunch(this.unshare, this.layout, this.nested(bubblewrap));
  }

  private nested(bubblewrap: readonly string[]): string[] {
    const [program, ...rest] = bubblewrap;
    return [program, ...nestedBubblewrapOptions(this.ids.uid, this.ids.gid), ...rest];
  }

  merge(pid: number | undefined, recordedBy?: RecordedBy): Promise<StagedMerge> {
    return (this.merged ??= this.mergeAll(pid, recordedBy));
  }

  private async mergeAll(pid: number | undefined, recordedBy: RecordedBy | undefined): Promise<StagedMerge> {
    const changes: StagedChange[] = [];
    const touched: { folder: string; paths: string[] }[] = [];
    let stopped: string | undefined;
    for (const [index, layer] of this.layout.entries()) {
      // A failure other than a stopped step leaves what it touched unknown: that folder's checkpoint records it whole.
      const folderChanges = await this.mergeLayer(layer, index, pid, recordedBy).catch((error: unknown): { changes: StagedChange[]; stopped: string; touched?: string[] } => ({
        changes: [],
        stopped: `${layer.folder}: ${error instanceof Error ? error.message : String(error)}`,
      }));
      changes.push(...folderChanges.changes);
      if (folderChanges.touched) {
        touched.push({ folder: layer.folder, paths: folderChanges.touched });
      }
      stopped ??= folderChanges.stopped;
    }
    this.kept = stopped !== undefined || changes.some((change) => change.held !== undefined);
    if (this.kept) {
      // What waits for the person survives a restart. A run that kept nothing is removed after the
      // result; its manifest (running, or merging with every step done) lists nothing if the window closes first.
      await this.record('merged').catch(() => undefined);
    }
    return { changes, touched, ...(this.kept ? { keptIn: this.staging } : {}), ...(stopped ? { stopped } : {}) };
  }

  /** The folder's merge: its changes, and the paths its steps wrote or removed (a stopped step's too: a removal may be part done). */
  private async mergeLayer(layer: StagedFolder, index: number, pid: number | undefined, recordedBy: RecordedBy | undefined): Promise<{ changes: StagedChange[]; stopped?: string; touched?: string[] }> {
    const points = this.mountPointsOf(layer);
    if (holdsNothing(layer.upper, points)) {
      return { changes: [], touched: [] };
    }
    let entries = withoutMountPoints(await readUpperLayer(layer.upper), points);
    if (entries.length === 0) {
      return { changes: [], touched: [] };
    }
    // Folders the command deleted and made again, seen in its namespace while it holds; a run
    // stopped before it held cannot show them, and their old entries then stay.
    const opaque = pid === undefined ? new Set<string>() : await opaqueFoldersThrough(pid, layer, entries);
    entries = entries.map((entry) => (opaque.has(entry.path) ? { ...entry, opaque: true } : entry));
    const facts = await lowerFactsOf(layer.folder, entries, this.startedAt);
    // A command that ran without its question: what a restore could not bring back is held, not merged.
    const unrecorded = recordedBy ? await unrecordedOf(layer.folder, entries, facts, recordedBy) : undefined;
    const plan = planMerge(entries, unrecorded ? { ...facts, unrecorded: (relative) => unrecorded.has(relative) } : facts);
    const kept = (change: { readonly path: string }): string => path.join(layer.upper, ...change.path.split('/'));
    const changes = plan.changes.map((change) => ({ folder: layer.folder, ...change, ...(change.held ? { keptAt: kept(change) } : {}) }));
    const held: KeptEntry[] = plan.changes.filter((change) => change.held !== undefined).map((change) => ({ path: change.path, status: change.status, why: change.held ?? '' }));
    this.layers[index] = { ...this.layers[index], ...(opaque.size ? { opaque: [...opaque] } : {}), held };
    if (plan.steps.length === 0) {
      return { changes, touched: [] };
    }
    // The plan goes in the manifest before the first step: a merge killed midway is found and finished from it.
    this.layers[index] = { ...this.layers[index], planned: plan.steps.map((step) => [step.op, step.path] as const) };
    await this.record('merging');
    try {
      await applyMerge(plan, layer.upper, layer.folder);
      this.layers[index] = withoutPlan(this.layers[index]);
      return { changes, touched: plan.steps.map((step) => step.path) };
    } catch (error) {
      if (!(error instanceof MergeStopped)) {
        throw error;
      }
      // What the merge did not do is kept for review beside what was held, a new folder standing for what is below it.
      const done = new Set(error.done.map((step) => step.path));
      const why = `not merged: the merge stopped (${error.message})`;
      const status = new Map(plan.changes.map((change) => [change.path, change.status]));
      const rest = restRoots(plan.steps.slice(error.done.length)).map((p) => ({ path: p, status: status.get(p) ?? 'M', held: why }));
      this.layers[index] = { ...withoutPlan(this.layers[index]), held: [...held, ...rest.map((change) => ({ path: change.path, status: change.status, why }))] };
      const restChanges = rest.map((change) => ({ folder: layer.folder, ...change, keptAt: kept(change) }));
      return { changes: [...changes.filter((change) => change.held !== undefined || done.has(change.path)), ...restChanges], stopped: error.message, touched: [...done, error.step.path] };
    }
  }

  /** The sandbox's own mount points in a layer (empty folders bubblewrap made for its binds, layer-relative), which are not the command's changes. */
  private mountPointsOf(layer: StagedFolder): Set<string> {
    return new Set(this.mountPoints.filter((point) => point.startsWith(`${layer.folder}${path.sep}`)).map((point) => path.relative(layer.folder, point).split(path.sep).join('/')));
  }

  /**
   * Lets the layers go: removed after the tool's result, off the command's path (each run's folder
   * is its own: no later command mounts it), those that keep changes for review excepted; then the
   * launch ahead for the next command is started (OverlayStaging.aheadReady settles after both).
   */
  dispose(): Promise<void> {
    // Launched by `wrap` instead: it never mounted, and goes now.
    this.launchedAhead?.discard();
    this.replace(this.removeLayers());
    return Promise.resolve();
  }

  private async removeLayers(): Promise<void> {
    await this.recorded;
    for (const layer of this.layout) {
      await openWorkFolder(layer.work).catch(() => undefined);
    }
    if (!this.kept) {
      await fs.rm(this.staging, { recursive: true, force: true }).catch(() => undefined);
      return;
    }
    // Only the upper layers hold what the person may still want.
    for (const layer of this.layout) {
      await Promise.all([layer.lower, layer.work].map((dir) => fs.rm(dir, { recursive: true, force: true }).catch(() => undefined)));
    }
  }
}

/** A layer's manifest once its merge ended: no plan left to finish. */
function withoutPlan(layer: LayerManifest): LayerManifest {
  return { folder: layer.folder, upper: layer.upper, ...(layer.opaque ? { opaque: layer.opaque } : {}), held: layer.held };
}
