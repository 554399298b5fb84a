// The sandbox's hold on the machine for one run (sandbox/lease.ts), taken once and let go once: the
// step that runs the command gets the request to launch with and, for a background command, takes
// over the release with handOff(); otherwise this step releases in its `finally`. Either way the
// lease is released exactly once on every path (the release is guarded), and only after that may
// configChanges look for execution config the command created. A changing command that runs
// outside the sandbox is watched instead (sandbox/configWatch.ts): it may also change what exists.
import type { ToolContext } from '../../context';
import { headAndTailShares } from '../../output/budget';
import type { CommandPortWatch, ProcessRequest, StagedMerge } from '../../ports/process';
import { argumentSizeProblem } from '../../process/argumentLimits';
import { commandLogPath } from '../../process/commandLogs';
import { argumentFile, BUBBLEWRAP_MAX_ARGUMENTS, environmentOptions } from '../../sandbox/bubblewrap';
import { watchExecutionConfig, type ExecutionConfigChange } from '../../sandbox/configWatch';
import { acquireSandboxLease, type SandboxLease } from '../../sandbox/lease';
import { describeNetwork } from '../../sandbox/network';
import type { NotWritable } from '../../sandbox/plan';
import { NotStagedError } from './askAfter';
import { refuseOversized, shellArgv, type PreparedCommand } from './prepare';

const KILL_GRACE_MS = 2000;
const MAX_LOG_CHARS = 50 * 1024 * 1024;

/** What a foreground and a background run of the same command share. */
export type BaseProcessRequest = Omit<ProcessRequest, 'token' | 'onOutput' | 'onInterrupt'>;

/** What the run step gets while the lease is held. */
export interface HeldLease {
  /** The request to launch: the line as judged (git with its safety options), in the sandbox's launcher when there is one. */
  readonly request: BaseProcessRequest;
  /**
   * Takes over the release: this step no longer releases when the run step returns. The function
   * returned lets go of the lease (once, however often it is called); the caller must call it on
   * every path from here, e.g. when a background command ends or fails to start.
   */
  handOff(): () => Promise<void>;
  /** The execution config the command created or changed (none for a read-only line); call it only once the lease is released (see LeaseOutcome). */
  configChanges(): Promise<ExecutionConfigChange[]>;
  /** Folders named writable that the sandbox kept read-only, and why (the `Sandbox:` line says so). */
  readonly notWritable: readonly NotWritable[];
  /** A background command's servers' ports as the machine reaches them (sandbox/ports.ts); none otherwise. */
  readonly ports?: CommandPortWatch;
  /** The `Sandbox:` line's words on staging: its changes staged, or why they could not be. */
  readonly staging?: string;
  /** What the merge of a staged command did, once it ended; undefined before, or when it was not staged. */
  readonly staged?: () => StagedMerge | undefined;
}

/** The run step's value, and the execution config the command created or changed (call it after the step: the lease is released by then). */
export interface LeaseOutcome<T> {
  readonly value: T;
  configChanges(): Promise<ExecutionConfigChange[]>;
  /** How the command's network went: what its proxy reached and refused (the `Sandbox:` line's words). */
  network(): string | undefined;
  /** Folders named writable that the sandbox kept read-only, and why. */
  readonly notWritable: readonly NotWritable[];
  /** What the merge of a staged command did, once it ended in the foreground; undefined when it was not staged or has not ended. */
  staged(): StagedMerge | undefined;
  /** The `Sandbox:` line's words on staging. */
  readonly staging?: string;
}

export async function withCommandLease<T>(prepared: PreparedCommand, ctx: ToolContext, step: (held: HeldLease) => Promise<T>): Promise<LeaseOutcome<T>> {
  const { host, placement } = prepared;
  const lease = placement.where === 'sandbox'
    ? await acquireSandboxLease(ctx, host.sandbox, { sandbox: placement.sandbox, network: placement.network, cwd: prepared.cwd.path, env: host.environment(), command: prepared.command, granted: prepared.grant ? [prepared.grant] : [], background: prepared.background, oneSpelling: placement.oneSpelling, staged: isStaged(prepared, ctx) })
    : undefined;
  // A line let through unasked because it would be staged: where it is not, nothing has run; it asks now.
  if (prepared.askAfter && !lease?.staged) {
    await lease?.release();
    throw new NotStagedError(`its changes cannot be staged here (${lease?.unstaged ?? 'no sandbox lease'})`);
  }
  // The merge runs when the command ends, while its launcher holds (ProcessRequest.hold).
  let merged: StagedMerge | undefined;
  const staged = lease?.staged;
  const checkpoint = ctx.call.checkpoint;
  if (staged) {
    checkpoint?.expectTouched?.();
  }
  const hold = staged
    ? async (pid: number | undefined): Promise<void> => {
      // The call's "before" was taken while the command ran (its writes reach the folders only here): the merge waits for it.
      await checkpoint?.beforeChange();
      // Run without its question: what the "before" could not record is held rather than merged.
      const done = await staged.merge(pid, prepared.askAfter ? (folder, paths) => checkpoint?.recordedBy?.(folder, paths) ?? Promise.resolve(new Set<string>()) : undefined);
      merged = done;
      // The "after" then records what the merge wrote or removed, not the whole folders.
      if (done.touched) {
        checkpoint?.touchedOnly?.(done.touched);
      }
    }
    : undefined;
  const staging = staged ? STAGED_WORDS : lease?.unstaged ? `changes not staged: ${lease.unstaged}` : undefined;
  // Outside the sandbox nothing keeps a command from rewriting a repository's config or hooks: look before and after.
  const watch = placement.where === 'host' && !prepared.verdict.readOnly ? await watchExecutionConfig(ctx, host.sandbox).catch(() => undefined) : undefined;
  let released: Promise<void> | undefined;
  const release = (): Promise<void> => (released ??= lease?.release() ?? Promise.resolve());
  let handedOff = false;
  const configChanges = async (): Promise<ExecutionConfigChange[]> => {
    // A read-only line changes nothing: there is nothing to look at.
    if (prepared.verdict.readOnly) {
      return [];
    }
    if (watch) {
      return watch.changesSince().catch(() => []);
    }
    const added = lease ? await lease.addedSince().catch(() => []) : [];
    return added.map((entry) => ({ path: entry, change: 'created' as const }));
  };
  const notWritable = lease?.plan.notWritable ?? [];
  try {
    if (!staged && isStaged(prepared, ctx)) {
      // Not staged after all (no overlay here): the command writes the folders at once, so it starts after the "before" (runCommand.ts started it).
      await checkpoint?.beforeChange();
    }
    const request = { ...launchRequest(prepared, lease, ctx), ...(hold ? { hold } : {}) };
    const value = await step({
      request,
      handOff: () => {
        handedOff = true;
        return release;
      },
      configChanges,
      notWritable,
      ports: lease?.ports,
      staging,
      staged: () => merged,
    });
    return { value, configChanges, network: () => (lease ? networkWords(lease) : undefined), notWritable, staged: () => merged, staging };
  } finally {
    if (!handedOff) {
      await release();
    }
  }
}

/** The `Sandbox:` line's words for a staged command. */
const STAGED_WORDS = 'changes staged in an overlay and merged when it ends, execution config held for review';

/**
 * Whether the command's changes are to be staged (runCommand.stageChanges): a sandboxed foreground
 * command that may write (where no overlay can be mounted, it runs with today's mounts). Not a
 * background one (servers and watchers need their writes live), nor an interactive one (its
 * pseudoterminal helper is not held). A line asked after (askAfter.ts) is staged whatever
 * runCommand.stageChanges says.
 */
export function isStaged(prepared: PreparedCommand, ctx: ToolContext): boolean {
  return (ctx.settings.runCommandStageChanges || prepared.askAfter !== undefined) && !prepared.background && !prepared.interactive && !prepared.verdict.readOnly;
}

/** The `Sandbox:` line's words for the network: none, or what the proxy reached and refused. */
export function networkWords(lease: SandboxLease): string {
  if (!lease.plan.network) {
    return 'no network';
  }
  return lease.plan.proxy ? describeNetwork(lease.network()) : 'no network (this machine has no proxy for it)';
}

function launchRequest(prepared: PreparedCommand, lease: SandboxLease | undefined, ctx: ToolContext): BaseProcessRequest {
  const { host } = prepared;
  const env = { ...prepared.env, ...lease?.launch.env };
  // The line as judged runs, except that git gets its safety options (the policy's commandLine).
  const commandLine = prepared.verdict.commandLine ?? prepared.command;
  const [, ...shellArguments] = shellArgv(host, commandLine);
  refuseOversized(argumentSizeProblem([...(lease?.launch.argv ?? []), host.shell, ...shellArguments], env), 'with the sandbox');
  const shares = headAndTailShares(ctx.settings.commandOutputChars);
  // PowerShell and cmd get their own arguments (process/shellChoice.ts); bash keeps the runner's `-c commandLine`.
  const shellKind = host.shellKind ?? 'bash';
  const ahead = lease ? adoptedLaunch(lease, env, shellArguments.length + 1) : undefined;
  return {
    shell: host.shell,
    commandLine,
    ...(shellKind === 'bash' ? {} : { shellArguments, verbatimArguments: shellKind === 'cmd' }),
    ...(ahead ?? { launcher: lease?.launch.argv, launcherInput: lease?.launch.input }),
    cwd: prepared.cwd.path,
    env,
    killGraceMs: KILL_GRACE_MS,
    logPath: commandLogPath(host.logDirectory, prepared.command, ctx.host.clock.now(), host.pid),
    headChars: shares.head,
    tailChars: shares.tail,
    maxLogChars: MAX_LOG_CHARS,
    input: prepared.interactive ? 'terminal' : 'eof',
  };
}

/**
 * The launch started ahead for a staged command, when the lease has one: bubblewrap's argv for it,
 * and the command's environment first in bubblewrap's input (the launch runs with its own), unless
 * that would pass bubblewrap's limit on arguments (the plain staged launch then runs).
 */
function adoptedLaunch(lease: SandboxLease, env: Readonly<Record<string, string | undefined>>, shellArguments: number): Pick<BaseProcessRequest, 'launcher' | 'launcherInput' | 'adopt'> | undefined {
  const ahead = lease.ahead;
  if (!ahead || lease.launch.input === undefined) {
    return undefined;
  }
  const options = environmentOptions(env);
  const count = ahead.argv.length - 1 + options.length + (lease.launch.input.match(/\0/g)?.length ?? 0) + shellArguments;
  if (count > BUBBLEWRAP_MAX_ARGUMENTS) {
    return undefined;
  }
  return { launcher: ahead.argv, launcherInput: argumentFile(options) + lease.launch.input, adopt: ahead.launch };
}
