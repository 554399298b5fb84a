// The process ports: how workspace_run_command runs a command line and shows it to the user.
import type { CancellationSignal } from '../errors';

/**
 * The family of a shell, which decides the policy that judges a line and the argv that runs it:
 * `bash` (bash, sh, dash, Git Bash: the bash policy, `-c`), `powershell` (pwsh 7 or Windows
 * PowerShell 5.1: the PowerShell policy, `-EncodedCommand`), `cmd` (no policy: every line asks).
 */
export type ShellKind = 'bash' | 'powershell' | 'cmd';

/** The descriptor on which a staged launcher reports its command's exit code and then holds (ProcessRequest.hold). */
export const HOLD_FD = 4;

/** The descriptor from which a launcher started ahead reads its argv, NUL-separated, to its end (ProcessRequest.adopt). */
export const ARGS_FD = 5;

/**
 * A launcher started ahead of its command and waiting for it (the process runner's `startAhead`):
 * a staged run's namespace made and its shell started, its fds 3, 4 (HOLD_FD) and 5 (ARGS_FD) open
 * to the host, nothing run. It runs with an environment and folder of its own, never the command's.
 */
export interface AheadLaunch {
  /** True while it waits: it has not ended, and was neither adopted nor discarded. */
  waiting(): boolean;
  /** Ends it unused: its hold closes and it exits, having run nothing. Nothing once adopted. */
  discard(): void;
}

/** One command line to run in its own process group. */
export interface ProcessRequest {
  /** The shell that runs `commandLine` (with `-c` unless `shellArguments` says otherwise). */
  readonly shell: string;
  readonly commandLine: string;
  /**
   * The arguments that follow `shell` to run the line, when they are not `-c commandLine`
   * (PowerShell's `-EncodedCommand`, cmd's `/d /s /c`: process/shellChoice.ts shellInvocation).
   */
  readonly shellArguments?: readonly string[];
  /** True when Windows must pass `shellArguments` unquoted (cmd.exe reads its own command line). */
  readonly verbatimArguments?: boolean;
  /** A program and its arguments that run the shell (the OS sandbox), or none to run it directly. */
  readonly launcher?: readonly string[];
  /**
   * What the launcher reads on its file descriptor 3, a pipe written whole and then closed (bubblewrap
   * reads its options there with `--args 3`, so their number is not bounded by execve). The
   * command's own stdin, stdout and stderr are the same with or without it.
   */
  readonly launcherInput?: string;
  /** The folder on the host's disk to run in. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** How long processes get after TERM before KILL. */
  readonly killGraceMs: number;
  /** Where the full output is written (stdout and stderr interleaved, escapes stripped). */
  readonly logPath: string;
  /** Characters of each stream kept at the start and at the end. */
  readonly headChars: number;
  readonly tailChars: number;
  /** The log stops growing past this many characters (a note says so). */
  readonly maxLogChars: number;
  /** Stops the group with reason `cancelled`. A time limit is the caller's: it calls the handle's `stop('timeout')`. */
  readonly token: CancellationSignal;
  /** Live output for the terminal, raw. */
  onOutput?(chunk: string, stream: 'stdout' | 'stderr'): void;
  /** Registers the user's stop request (Ctrl+C in the terminal). */
  onInterrupt?(listener: () => void): { dispose(): void };
  /** What the command's standard input is: end of file (the default), or a terminal the caller types into. */
  readonly input?: InputRequest;
  /**
   * A launcher that holds after the command (a staged run): it reports the command's exit code on
   * its file descriptor 4 (HOLD_FD) and waits. The runner then calls this once, with the launcher's
   * pid, before letting it go; with undefined when the launcher ended without reporting (it was
   * stopped). The outcome resolves after it settles, and a stop request meanwhile does nothing.
   */
  readonly hold?: (pid: number | undefined) => Promise<void>;
  /**
   * Adopt this launcher, started ahead and waiting, instead of spawning one (with `hold`): the
   * launcher's argv, the shell and its arguments go to it on ARGS_FD, `launcherInput` on fd 3,
   * then a line on HOLD_FD lets it go. `env` and `cwd` are not its own: `launcher` must give them
   * to the command (bubblewrap's `--clearenv`, `--setenv`, `--chdir`). Its input is end of file.
   */
  readonly adopt?: AheadLaunch;
}

/**
 * The standard input a command asks for: `eof` (/dev/null: a program that reads gets end of file at
 * once and never waits), or `terminal` (a pseudoterminal, isatty(0) true, while stdout and stderr
 * stay pipes; written to through writeInput).
 */
export type InputRequest = 'eof' | 'terminal';

/** The standard input a command got: `pipe` where `terminal` was asked for and this machine has no pseudoterminal for it. */
export type CommandInput = 'eof' | 'terminal' | 'pipe';

/**
 * Why a process group was stopped before it ended by itself: `stopped` is a stop request for a
 * background command (workspace_stop_command, the Stop action, the extension shutting down).
 */
export type StopReason = 'timeout' | 'cancelled' | 'interrupted' | 'stopped';

/** The characters kept of one stream, and how many were left out between head and tail. */
export interface KeptOutput {
  readonly text: string;
  /** What the command printed to the stream (the log has all of it). */
  readonly totalChars: number;
  /** Left out between head and tail: of the reduced text when the stream was reduced. */
  readonly omittedChars: number;
  /** When the reduction rules (core/output/reduction) changed the stream: what they did, and the characters they kept before the cut. */
  readonly reduction?: { readonly summary: string; readonly keptChars: number };
}

/** How a command ended, with what it printed (head and tail of each stream). */
export interface ProcessOutcome {
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** Why the process group was stopped early, if it was. */
  readonly stopped?: StopReason;
  /** True when background processes were still running after the shell exited and were stopped. */
  readonly leftoversStopped: boolean;
  /** A spawn failure (shell or folder missing). */
  readonly spawnError?: string;
  readonly durationMs: number;
  readonly stdout: KeptOutput;
  readonly stderr: KeptOutput;
  readonly logPath: string;
  readonly logTruncated: boolean;
}

/** A command line started in its own process group, running while the caller goes on. */
export interface StartedProcess {
  /** The process group (the leader's pid on the host); undefined when nothing could be started. */
  readonly pgid: number | undefined;
  /** The leader's start time (/proc/<pid>/stat field 22), so a later window never mistakes a reused pid for it; undefined where unknown. */
  readonly startTime: string | undefined;
  /** Resolves when the command and everything it started are gone; rejects only when nothing could be started. */
  readonly outcome: Promise<ProcessOutcome>;
  /** What its standard input is: end of file (nothing can be written), a pseudoterminal, or a pipe. */
  readonly stdin: CommandInput;
  /** Ends the whole group (TERM, then KILL after the grace); the outcome names the reason. Later calls do nothing. */
  stop(reason: StopReason): void;
  /** Writes to the command's standard input (a terminal or a pipe); false when it is end of file, was closed or the command has ended. */
  writeInput(text: string): boolean;
  /** Closes the command's standard input (end of file, what Ctrl+D means to a program reading it); false when it already was. */
  closeInput(): boolean;
  /** SIGINT to every process of the group, what Ctrl+C in a terminal does; false when the command has ended. */
  interrupt(): boolean;
  /** Who reads the command's standard input now (a look at its processes). */
  inputReaders(): InputReaders;
}

/**
 * Who reads a command's standard input: a process blocked reading it (the program's name when
 * known), none of its processes (all of them could be seen), unknown (no /proc, or a process waits
 * on several inputs at once), or closed (nobody can: it was closed).
 */
export type InputReaders =
  | { readonly state: 'reading'; readonly program?: string }
  | { readonly state: 'none' }
  | { readonly state: 'unknown' }
  | { readonly state: 'closed' };

/** A running command that waits for input (process/inputWatch.ts). */
export interface WaitingForInput {
  /** The prompt it shows (its last line), or what is known where it shows none. */
  readonly prompt: string;
  /** The program that reads its input, when known (e.g. `python3`, `bash`). */
  readonly reader?: string;
  /** When it started waiting (ms since the epoch, the Clock's). */
  readonly since: number;
  /** True when it printed no prompt: a process reads its input, found by looking at its processes. */
  readonly silent?: boolean;
}

/** The keys workspace_send_input can press. */
export type InputKey = 'ctrl-c' | 'ctrl-d' | 'escape' | 'up' | 'down' | 'tab';

/** Runs a command line and makes sure every process it started has ended before its outcome resolves. */
export interface ProcessRunner {
  /**
   * Starts the command and returns at once with its handle: a foreground command waits on the
   * handle's outcome (and may hand it to the background registry), a background command is
   * registered with it. Throws when the spawn itself fails synchronously (E2BIG, EMFILE).
   */
  start(request: ProcessRequest): StartedProcess;
}

/** Where a running command's output is shown to the user as it arrives. */
export interface CommandTerminal {
  /** Shows a chunk of the command's output (raw, as the process wrote it). */
  write(text: string): void;
  /** Shows a line of ours between the command's output (not the command's), e.g. that it moved to the background. */
  note(text: string): void;
  /** Shows the closing line (exit code, duration) and marks the terminal finished. */
  finish(summary: string): void;
  /** Fires when the user asks to stop the command (Ctrl+C in its terminal, or closing it). */
  onInterrupt(listener: () => void): { dispose(): void };
  /**
   * From now on, lines the user types in the terminal (Enter ends one) go to `target`, and Ctrl+D
   * on an empty line ends the command's input; before, only Ctrl+C counts. Dispose to stop.
   */
  acceptInput(target: TerminalInputTarget): { dispose(): void };
}

/** Where the lines a person types in a command's terminal go: the command's standard input. */
export interface TerminalInputTarget {
  /** Types a finished line (its `\n` included), or presses ctrl-d; throws an error whose message the terminal shows when it cannot. */
  send(text: string, key?: 'ctrl-d'): void;
  /** True while what is typed must not be shown (the command waits on a password prompt). */
  hidden(): boolean;
}

/** Which OS sandbox this machine offers commands, found by trying it. */
export type SandboxAvailability =
  | { readonly kind: 'bubblewrap' | 'seatbelt'; readonly executable: string }
  | {
      readonly kind: 'none';
      /** Why there is none: follows "there is no sandbox: " (e.g. "bubblewrap cannot start here: ..."). */
      readonly reason: string;
      /** What the user can do about it, when something can be done (a command to paste, a setting). */
      readonly fix?: string;
      /** Windows, where this extension has no OS sandbox at all: a command the policy finds read-only runs without asking, every other asks. */
      readonly windows?: boolean;
    };

/** The machine side of the command sandbox: what exists, where secrets are, the folders it binds. */
/** What SandboxHost.acquireMountPoints holds for one command. */
export interface MountPointLease {
  /** The folders that do not exist as real folders: bind them from the empty folder. */
  readonly missing: readonly string[];
  /** Lets go of the folders; safe to call more than once. */
  release(): Promise<void>;
}

/**
 * The index of what listFiles finds with the sandbox's own globs (workspaceScanGlobs), kept per
 * writable folder between commands (sandbox/scanIndex.ts), so a command does not walk the tree.
 */
export interface SandboxScanIndex {
  /** Indexes these folders from now on (built in the background); `only`: and stops indexing the others. */
  track(folders: readonly string[], only?: boolean): void;
  /**
   * The files the walk would list now in the folders the index vouches for (every event queued
   * before the call counted), and the folders it does not (building, failed, not tracked).
   */
  lookup(folders: readonly string[]): Promise<{ readonly files: string[]; readonly unindexed: string[] }>;
}

export interface SandboxHost {
  /** What this machine offers; `bubblewrapPath` is the user's setting (empty: the system's bwrap). Tried once per path. */
  availability(bubblewrapPath: string): Promise<SandboxAvailability>;
  /**
   * Every file under the folders that one of the ripgrep globs selects (`--files`, hidden and
   * ignored files included, names compared in any case); undefined when the folders could not be
   * searched in time, because then the sandbox could not promise to hide or protect what it missed.
   */
  listFiles(folders: readonly string[], globs: readonly string[], token: CancellationSignal): Promise<string[] | undefined>;
  /** The index of the sandbox's walk, where this machine can keep one true (Linux: inotify); without it every command walks. */
  readonly scanIndex?: SandboxScanIndex;
  /** A private folder commands get as /tmp, the same for every command of this window. */
  readonly tempDirectory: string;
  /**
   * Folders that commands must not see at all: the MCP endpoint's sockets and lock files (a command
   * that read a lock file's nonce could call the tools as an agent) and VS Code's extension storage
   * roots (every window's checkpoint store, which holds .env files).
   */
  readonly privateFolders: readonly string[];
  /** An empty folder, bound read-only where a protected folder such as `.vscode` does not exist yet. */
  readonly emptyDirectory: string;
  /**
   * Holds, for one command, the protected folders the sandbox binds even where they are missing
   * (`.vscode`, a repository's `hooks`), and says which are missing (or exist only as another
   * command's mount point): bubblewrap makes those as mount points. `release` (idempotent) lets go;
   * a mount point nobody holds any more is removed if it is still empty. The caller releases in a
   * `finally`, or when a background command ends.
   */
  acquireMountPoints(folders: readonly string[]): MountPointLease;
  /** The proxy approved commands reach the network through; undefined where there is none (they then have no network). */
  readonly network?: SandboxNetwork;
  /**
   * The folder of this user's private copies of package caches (sandbox/caches.ts), one folder per
   * cache, or undefined when commands get no caches.
   */
  readonly cacheDirectory: string | undefined;
  /**
   * Makes the folders that are missing (mode 0700, kept): the package caches, which are where the
   * tools put them anyway, and a folder the user made writable for one command. Answers those
   * that are folders now; a folder it cannot make is left out.
   */
  makeFolders(folders: readonly string[]): Promise<string[]>;
  /** Staged command changes, where this machine offers them (Linux with util-linux's unshare). */
  readonly staging?: StagingHost;
}

/** One change a staged command made in a workspace folder, as `git status --short` would name it. */
export interface StagedChange {
  /** The workspace folder, a host path. */
  readonly folder: string;
  /** Relative to the folder, `/`-separated. */
  readonly path: string;
  readonly status: 'A' | 'M' | 'D';
  /** Why it was not merged (execution config, a new repository, a conflict): it waits for the person. */
  readonly held?: string;
  /** Where a held change is kept: a host path in the run's upper layer. */
  readonly keptAt?: string;
}

/** What a staged command's merge did. */
export interface StagedMerge {
  readonly changes: readonly StagedChange[];
  /** Where the held changes (and, when the merge stopped, the rest) are kept for review. */
  readonly keptIn?: string;
  /** Why the merge stopped before its end, with what it had done: the rest is kept. */
  readonly stopped?: string;
  /**
   * Per folder whose merge could say so, the paths it wrote or removed there (each with what is
   * below it; held changes are not among them): what the call's "after" checkpoint records.
   */
  readonly touched?: readonly { readonly folder: string; readonly paths: readonly string[] }[];
}

/**
 * Which of `paths` (relative to `folder`) the checkpoint before a command recorded: given to the merge
 * of a command that ran without its question, which then holds every deletion or replacement of
 * what a restore could not bring back (CallCheckpoint.recordedBy).
 */
export type RecordedBy = (folder: string, paths: readonly string[]) => Promise<ReadonlySet<string>>;

/** One command's overlays (sandbox/node/stagedRuns.ts). */
export interface StagedRun {
  /** The argv that runs bubblewrap's argv over the overlays (nested, the user's ids kept); it holds on HOLD_FD after the command. */
  wrap(bubblewrap: readonly string[]): string[];
  /**
   * The launch over these overlays started ahead, when there is one and it is fresh: `argv` turns
   * bubblewrap's argv into the one it takes on ARGS_FD (ProcessRequest.adopt). Discarded unused at
   * dispose when the command was launched by `wrap` instead.
   */
  readonly ahead?: { readonly launch: AheadLaunch; argv(bubblewrap: readonly string[]): string[] };
  /** Merges what the command changed: while its namespace holds (`pid`), or after it ended without holding (undefined). Once. */
  merge(pid: number | undefined, recordedBy?: RecordedBy): Promise<StagedMerge>;
  /** Lets the layers go: removed off the command's path (settled or not when this settles), except those that keep changes for review. */
  dispose(): Promise<void>;
}

/** Staged command changes: overlays of the workspace folders, where this machine can mount them (Linux, bubblewrap). */
export interface StagingHost {
  /** Whether a user namespace may mount overlayfs and run bubblewrap nested here (tried once), and why not. */
  available(bubblewrap: string): Promise<{ readonly ok: true } | { readonly ok: false; readonly why: string }>;
  /** Layers for one command over `folders` (top-level, not nested in each other); `mountPoints`: the sandbox's own mount points, not changes. */
  prepare(folders: readonly string[], mountPoints: readonly string[]): Promise<StagedRun>;
  /** The tool's result is given: the next launch started ahead (a process spawned) may be made now, off the command's path. */
  resultGiven?(): void;
}

/** What one command's proxy asks before it dials: sandbox/networkGate.ts's CommandNetwork. */
export interface NetworkGate {
  /** Whether host:port may be dialled (`named`: its domain is in allowedDomains, so a private address may be too); may ask the user. */
  admit(host: string, port: number): Promise<{ readonly allowed: true; readonly named: boolean } | { readonly allowed: false; readonly why: string }>;
  /** A connection to the domain was opened. */
  noteReached(host: string): void;
  /** The proxy refused the domain. */
  noteRefused(host: string): void;
}

/** How one of a command's listening ports fared on the machine (sandbox/ports.ts). */
export interface ForwardedPort {
  readonly port: number;
  /** forwarded: reachable at 127.0.0.1:<port>; taken: something else listens there; over: past the limit; privileged: below 1024. */
  readonly state: 'forwarded' | 'taken' | 'over' | 'privileged';
}

/** A command's listening ports as the machine sees them: now, and brought up to date with what listens now (waits a moment at most). */
export interface CommandPortWatch {
  now(): readonly ForwardedPort[];
  settle(): Promise<void>;
}

/**
 * Where one command's network endpoint listens: unix sockets in a folder bubblewrap binds (the
 * proxy's two, for an approved command; the port forwards' one, for a background command), or the
 * proxy's loopback TCP ports (Seatbelt allows only them; a server there listens on the machine).
 */
export type ProxyEndpoint =
  | { readonly transport: 'unix'; readonly directory: string; readonly proxy: boolean; readonly ports: boolean; readonly http?: string; readonly socks?: string; forwarded(): readonly ForwardedPort[]; settlePorts(): Promise<void>; close(): Promise<void> }
  | { readonly transport: 'tcp'; readonly http: number; readonly socks: number; forwarded(): readonly ForwardedPort[]; settlePorts(): Promise<void>; close(): Promise<void> };

/** What one command's endpoint serves: the proxy through the gate (an approved command), its listening ports (a background command), or both. */
export interface EndpointRequest {
  readonly gate?: NetworkGate;
  readonly transport: 'unix' | 'tcp';
  readonly forwardPorts: boolean;
}

/** The machine side of the network by domain: the proxy, the relay, the session's answers. */
export interface SandboxNetwork {
  /** Listens for one command; its connections go through the gate. `close` ends them. */
  openEndpoint(request: EndpointRequest): Promise<ProxyEndpoint>;
  /** The program (the extension's own Node) and script that serve a unix endpoint on loopback ports inside bubblewrap. */
  readonly relay: { readonly program: string; readonly script: string };
  /** Domains the user allowed for this session (a question's "Allow for This Session"). */
  readonly sessionDomains: Set<string>;
  /** The loopback ports this window's sandboxed commands forward to the machine now: later approved commands reach them without a question. */
  forwardedPorts(): number[];
  /** The machine's loopback ports that take connections now (none where this cannot be read), but `excluded`. */
  machinePorts(excluded: ReadonlySet<number>): number[];
}

/** What workspace_run_command needs from the host: a shell, an environment, a place for logs, a terminal, a runner, a sandbox. */
export interface CommandHost {
  /** The shell that runs command lines: bash, sh or dash with `-c`; on Windows also PowerShell or cmd (`shellKind`). */
  readonly shell: string;
  /** The shell's family (process/shellChoice.ts): the policy that judges a line and the arguments that run it; absent means bash. */
  readonly shellKind?: ShellKind;
  /** A local folder where full command logs are written; reads of it are allowed. */
  readonly logDirectory: string;
  /** The process id of this window's extension host: a command log's name carries it, apart from other windows' logs. */
  readonly pid: number;
  /** The host's environment, which commands inherit (made non-interactive by the tool). */
  environment(): Readonly<Record<string, string | undefined>>;
  /** Opens (or reuses) the terminal the user watches for one command; a background command always gets a terminal of its own. */
  openTerminal(commandLine: string, cwd: string, background?: boolean): CommandTerminal;
  readonly processes: ProcessRunner;
  readonly sandbox: SandboxHost;
  /** The background commands of this window. */
  readonly background: BackgroundCommands;
  /** The waits of a foreground command's input watch; QUIET_MS and CHECK_MS (process/inputWatch.ts) when left out, as in the extension. Tests shorten them. */
  readonly inputTiming?: InputTiming;
}

/** A background command's state: still running, ended by itself with a code, or killed (stopped, or by a signal). */
export type BackgroundStatus =
  | { readonly state: 'running' }
  | { readonly state: 'exited'; readonly code: number }
  | { readonly state: 'killed'; readonly how: string };

/** What a wait for a background command ended with: `waiting` when it waits for input. */
export type BackgroundWait = 'matched' | 'ended' | 'timeout' | 'cancelled' | 'waiting';

/** The output of each stream since the last take, head and tail kept. */
export interface TakenOutput {
  readonly stdout: KeptOutput;
  readonly stderr: KeptOutput;
}

/**
 * A command's output kept for the model to read (process/outputCursor.ts): what arrived since the
 * last take, each stream budgeted, and the complete lines wait_for matches.
 */
export interface KeptCommandOutput {
  /** Adds a chunk of one stream; returns the lines it completed (escapes removed). */
  append(chunk: string, stream: 'stdout' | 'stderr'): string[];
  /** The process ended: its unfinished last lines count as lines. */
  end(): string[];
  /** The output since the last take, and the cursor moved past it. */
  take(): TakenOutput;
  /** The complete lines not taken yet (the most recent ones, within the budget). */
  untakenLines(): readonly string[];
}

/** What names a command in its results and reports, however it reached the background: its line, its folder, where it runs, its log. */
export interface CommandIdentity {
  readonly commandLine: string;
  /** The cwd as the model gave it, workspace-relative. */
  readonly cwdShown: string;
  /** The cwd on the host's disk (input to a shell is judged as a command line run there). */
  readonly cwd: string;
  /** Where it runs (the sandbox line of the result). */
  readonly sandboxLine: string;
  /** The full log on disk. */
  readonly logPath: string;
}

/** One background command of the registry. */
export interface BackgroundCommand extends CommandIdentity {
  /** Short and unique in this window, e.g. `bg3`. */
  readonly id: string;
  /** When it started (ms since the epoch). */
  readonly startedAt: number;
  status(): BackgroundStatus;
  /** Whether it waits for input now; undefined while it runs otherwise and once it has ended. */
  waitingForInput(): WaitingForInput | undefined;
  /**
   * Types into its standard input: `text` as given, then the key. Ctrl+C interrupts its processes
   * (SIGINT), Ctrl+D closes its input (end of file; no later input can be sent), the others write
   * their terminal sequence. Throws a ToolError when it has ended or its input is closed.
   */
  sendInput(text: string, key?: InputKey): void;
  /** Whether its standard input was closed (Ctrl+D). */
  readonly inputClosed: boolean;
  /** What its standard input is: end of file (it was not started with interactive: true: no input can be sent), a terminal, or a pipe. */
  readonly stdin: CommandInput;
  /** How many times input was sent to it (by the model's tool, the person's Send Input..., its terminal). */
  readonly inputsSent: number;
  /** The output since the last take (each stream budgeted, head and tail), and moves the cursor past it. */
  takeOutput(): TakenOutput;
  /**
   * Waits until a complete line (of either stream; ended by LF, CRLF or CR; escapes removed)
   * matches, the command ends, `timeoutMs` passes or the token is cancelled. A matching line not
   * taken yet counts (of the most recent lines, within the read budget). No matcher: waits for the
   * end. `waiting` when it waits for input (at once if it already does): no output will come first.
   */
  waitFor(matches: ((line: string) => boolean) | undefined, timeoutMs: number, token: CancellationSignal): Promise<BackgroundWait>;
  /** Ends the whole group (TERM, then KILL after the grace) and resolves with the final outcome; an ended command resolves at once. */
  stop(): Promise<ProcessOutcome>;
  /** Resolves when the command and everything it started are gone. */
  readonly ended: Promise<ProcessOutcome>;
  /** Its listening ports and how each fared on the machine, as last seen (a sandboxed background command's; none otherwise). */
  ports(): readonly ForwardedPort[];
  /** Brings ports() up to date with what listens now; waits a moment at most. */
  settlePorts(): Promise<void>;
}

/** What the registry needs to start one background command. */
export interface BackgroundStart extends CommandIdentity {
  /** The most commands that may run at once (the setting). */
  readonly maxRunning: number;
  /** Characters of each stream one read returns at its start and at its end. */
  readonly headChars: number;
  readonly tailChars: number;
  /** Its servers' ports as the machine reaches them (a sandboxed command's, Linux); none otherwise. */
  readonly ports?: CommandPortWatch;
  /** Starts the process; every chunk of its output must go to `onOutput`. */
  launch(onOutput: (chunk: string, stream: 'stdout' | 'stderr') => void): StartedProcess;
}

/**
 * What the registry needs to take over a foreground command still running at its timeout (or when
 * the caller needs an answer): the same process, its output so far, the same terminal.
 */
export interface BackgroundAdoption extends CommandIdentity {
  /** The most commands that may run at once (the setting). */
  readonly maxRunning: number;
  /** When the foreground command started (ms since the epoch, the Clock's). */
  readonly startedAt: number;
  /** The running process. */
  readonly process: StartedProcess;
  /** What it printed so far and nobody read yet; the registry appends what follows. */
  readonly output: KeptCommandOutput;
  /** Its input watch, fed its output so far; the registry feeds it what follows and stops it at the end. */
  readonly input: InputWatcher;
  /** From now on every chunk of the command's output must go to `onOutput` (and no longer to the caller's own keeping). */
  attach(onOutput: (chunk: string, stream: 'stdout' | 'stderr') => void): void;
}

/** The background commands of one window: started, listed, read, stopped, and all ended at shutdown. */
export interface BackgroundCommands {
  /** Throws a ToolError naming the running ids when `maxRunning` are already running. */
  checkRoom(maxRunning: number): void;
  /** Starts a command (after checkRoom again) and registers it. */
  start(request: BackgroundStart): BackgroundCommand;
  /** Registers a running foreground command under a new id (after checkRoom again): it moved to the background. */
  adopt(request: BackgroundAdoption): BackgroundCommand;
  /** The command of an id, running or ended and not yet forgotten. */
  get(id: string): BackgroundCommand | undefined;
  /** The running commands, oldest first. */
  running(): BackgroundCommand[];
  /** Ends every running command's group; resolves when all are gone. */
  stopAll(): Promise<void>;
  /** Fires when a command starts or ends (for the view and the status bar). */
  onDidChange(listener: () => void): { dispose(): void };
}

/** How long a command must be quiet before its input watch looks, and how often it looks again while quiet. */
export interface InputTiming {
  readonly quietMs?: number;
  readonly checkMs?: number;
}

/** Whether a running command waits for input (process/inputWatch.ts), fed its output. */
export interface InputWatcher {
  heard(chunk: string): void;
  /** Starts looking with the probe of who reads the command's input. */
  watch(probe: () => InputReaders): void;
  /** Its input was written to. */
  answered(): void;
  current(): WaitingForInput | undefined;
  onDidChange(listener: () => void): { dispose(): void };
  /** The command ended. */
  stop(): void;
}

/** Where running background groups are recorded, so a window that starts after a crash can end them. */
export interface RunningGroupRecords {
  add(id: string, pgid: number, startTime: string): void;
  remove(id: string): void;
}
