// git on a checkpoint store's private repository: the config it is created with, the environment
// every run gets (nothing of the user's GIT_* variables, config, excludes or attributes), and the
// NUL-separated fields git reads and writes.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Socket } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { BugError } from '../../../errors';

/** The private repository's config, written once per window: outside settings neutralised. */
export const CONFIG: readonly [string, string][] = [
  ['core.bare', 'false'],
  ['core.autocrlf', 'false'],
  // Git for Windows: paths past MAX_PATH (260 characters), as deep node_modules trees have; others ignore it.
  ['core.longpaths', 'true'],
  ['core.safecrlf', 'false'],
  ['core.fileMode', 'true'],
  ['core.symlinks', 'true'],
  ['core.ignoreCase', 'false'],
  // On by default everywhere: they refuse names such as GIT~1 or `.git.` (special only on NTFS and
  // HFS+), and one such file would make every checkpoint of the folder fail.
  ['core.protectNTFS', 'false'],
  ['core.protectHFS', 'false'],
  ['core.precomposeUnicode', 'false'],
  ['core.quotePath', 'false'],
  ['core.fsmonitor', 'false'],
  ['core.untrackedCache', 'true'],
  ['core.hooksPath', '/dev/null'],
  ['core.excludesFile', '/dev/null'],
  ['core.attributesFile', '/dev/null'],
  ['core.logAllRefUpdates', 'false'],
  ['core.splitIndex', 'false'],
  ['gc.auto', '0'],
  ['index.threads', 'true'],
  ['status.showUntrackedFiles', 'all'],
  ['submodule.recurse', 'false'],
];

/** CONFIG as the lines of a git config file: a section per key's first word, values only of plain characters. */
export const CONFIG_TEXT = configText(CONFIG);

function configText(config: readonly (readonly [string, string])[]): string {
  const sections = new Map<string, string[]>();
  for (const [key, value] of config) {
    const [section, name, ...rest] = key.split('.');
    if (rest.length > 0 || !/^[a-z]+$/.test(section) || !/^[a-zA-Z]+$/.test(name) || !/^[\w/.-]+$/.test(value)) {
      throw new BugError(`the checkpoint store's config ${key}=${value} is not a plain key and value`);
    }
    sections.set(section, [...(sections.get(section) ?? []), `\t${name} = ${value}\n`]);
  }
  return [...sections].map(([section, lines]) => `[${section}]\n${lines.join('')}`).join('');
}

/** Attributes that would make stored bytes differ from the file's (line-ending conversion, filters, re-encoding). */
export const PRIVATE_ATTRIBUTES = '* -text -filter -ident -working-tree-encoding\n';

export interface GitResult {
  readonly stdout: Buffer;
  readonly stderr: string;
  /** stderr with every byte kept (latin1), to match the paths git names in it. */
  readonly stderrBytes: string;
  readonly code: number;
}

/** The whole environment of a git run on the private repository `gitDir` of `folder`. */
export function storeEnvironment(gitDir: string, folder: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    GIT_DIR: gitDir,
    GIT_INDEX_FILE: path.join(gitDir, 'checkpoint-index'),
    GIT_WORK_TREE: folder,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    // Older git reads ~/.gitconfig and ~/.config/git/{config,ignore,attributes} through these.
    HOME: gitDir,
    XDG_CONFIG_HOME: gitDir,
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Workspace Agent Tools',
    GIT_AUTHOR_EMAIL: 'checkpoints@workspace-agent-tools.invalid',
    GIT_COMMITTER_NAME: 'Workspace Agent Tools',
    GIT_COMMITTER_EMAIL: 'checkpoints@workspace-agent-tools.invalid',
    LC_ALL: 'C',
  };
}

/** How one git run goes beyond the defaults: the store's background build runs at low priority, reports how far git read its input, and can be stopped. */
export interface GitRunOptions {
  /** Runs git at the lowest CPU and I/O priority the platform offers (the store's build while no call waits for it). */
  readonly lowPriority?: boolean;
  /** Kills git (it removes its lock files on SIGTERM); the run then resolves with a non-zero code. */
  readonly signal?: AbortSignal;
  /** Input written piece by piece; told the index of each piece once git's pipe took it (progress of a long `--stdin` run). */
  readonly onPieceTaken?: (index: number) => void;
}

/** Program names found on PATH, looked up once per window. */
const onPath = new Map<string, boolean>();

function isOnPath(program: string): boolean {
  let found = onPath.get(program);
  if (found === undefined) {
    found = (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir !== '' && path.isAbsolute(dir) && existsSync(path.join(dir, program)));
    onPath.set(program, found);
  }
  return found;
}

/**
 * The command line of a git run: at low priority, git under `nice` (and `ionice`, best-effort class
 * at its lowest level, where util-linux has it: the idle class could starve the build on a busy
 * disk). On Windows, where neither exists, the priority is lowered after the start.
 */
export function gitCommandLine(args: readonly string[], lowPriority: boolean, platform: NodeJS.Platform = process.platform): { program: string; args: string[] } {
  if (!lowPriority || platform === 'win32' || !isOnPath('nice')) {
    return { program: 'git', args: [...args] };
  }
  const niced = ['nice', '-n', '19', 'git', ...args];
  return platform === 'linux' && isOnPath('ionice') ? { program: 'ionice', args: ['-c', '2', '-n', '7', ...niced] } : { program: niced[0], args: niced.slice(1) };
}

/** A finished run's result: its stdout, its stderr as text and byte for byte, its exit code (-1 when a signal ended it). */
function resultOf(stdout: Buffer, err: readonly Buffer[], code: number | null): GitResult {
  const stderr = Buffer.concat(err);
  return { stdout, stderr: stderr.toString('utf8'), stderrBytes: stderr.toString('latin1'), code: code ?? -1 };
}

/** Runs git with exactly this environment (nothing of the user's GIT_* variables or config). */
export function runGit(args: readonly string[], env: Record<string, string>, cwd: string, input?: Buffer | readonly Buffer[], options: GitRunOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const command = gitCommandLine(args, options.lowPriority === true);
    const child = spawn(command.program, command.args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], ...(options.signal ? { signal: options.signal, killSignal: 'SIGTERM' as const } : {}) });
    if (options.lowPriority && process.platform === 'win32' && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, os.constants.priority.PRIORITY_LOW);
      } catch {
        // Already gone, or not allowed: it runs at normal priority.
      }
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      // Aborted: reported as a failed run, so callers see one kind of failure.
      if (options.signal?.aborted) {
        return;
      }
      reject(error);
    });
    child.on('close', (code) => {
      resolve(resultOf(Buffer.concat(out), err, code));
    });
    child.stdin.on('error', () => undefined);
    if (input === undefined || Buffer.isBuffer(input)) {
      child.stdin.end(input ?? Buffer.alloc(0));
      return;
    }
    writePieces(child.stdin, input, options.onPieceTaken);
  });
}

/** A git run that answers while it still reads (fast-import's `ls`): input written in parts, output read a line at a time. */
export interface GitConversation {
  /** Gives git more input. */
  write(input: Buffer): void;
  /** The next `count` fields of output, each ended by `separator` (LF unless told), without it; rejects when git ends before saying them. */
  lines(count: number, separator?: number): Promise<Buffer[]>;
  /** Ends the input with `input`; the run's result, its stdout what `lines` did not take. */
  end(input?: Buffer): Promise<GitResult>;
  /** Whether the run keeps this process alive (it does from its start): a run started ahead and waiting does not. */
  hold(held: boolean): void;
}

/** Starts git with exactly this environment for a conversation (see GitConversation). */
export function startGit(args: readonly string[], env: Record<string, string>, cwd: string): GitConversation {
  const child = spawn('git', [...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let output: Buffer = Buffer.alloc(0);
  const err: Buffer[] = [];
  let result: GitResult | undefined;
  let failure: Error | undefined;
  let waiting: (() => void) | undefined;
  const ended = new Promise<GitResult>((resolve, reject) => {
    child.on('error', (error) => {
      failure = error;
      waiting?.();
      reject(error);
    });
    child.on('close', (code) => {
      result = resultOf(output, err, code);
      waiting?.();
      resolve(result);
    });
  });
  // Read by end(); a spawn that failed is said by lines() or end(), whichever is awaited.
  ended.catch(() => undefined);
  child.stdout.on('data', (chunk: Buffer) => {
    output = output.length === 0 ? chunk : Buffer.concat([output, chunk]);
    waiting?.();
  });
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  child.stdin.on('error', () => undefined);
  return {
    write: (input) => {
      child.stdin.write(input);
    },
    lines: (count, separator = 0x0a) =>
      new Promise<Buffer[]>((resolve, reject) => {
        const look = (): void => {
          const said: Buffer[] = [];
          let start = 0;
          while (said.length < count) {
            const end = output.indexOf(separator, start);
            if (end < 0) {
              break;
            }
            said.push(output.subarray(start, end));
            start = end + 1;
          }
          if (said.length === count) {
            waiting = undefined;
            output = output.subarray(start);
            resolve(said);
          } else if (failure || result) {
            waiting = undefined;
            reject(failure ?? new Error(`git ${args.find((arg) => !arg.startsWith('-') && !arg.includes('=')) ?? ''} ended (exit ${result?.code}) before it answered: ${result?.stderr.trim()}`));
          } else {
            waiting = look;
          }
        };
        look();
      }),
    end: (input) => {
      child.stdin.end(input ?? Buffer.alloc(0));
      return ended;
    },
    hold: (held) => {
      // The pipes are sockets: each keeps the event loop alive on its own.
      for (const handle of [child, ...[child.stdin, child.stdout, child.stderr].filter((stream) => stream instanceof Socket)]) {
        if (held) {
          handle.ref();
        } else {
          handle.unref();
        }
      }
    },
  };
}

/** Writes the pieces one after the other, each once the pipe took the one before (so the callback says how far git read). */
function writePieces(stdin: NodeJS.WritableStream, pieces: readonly Buffer[], onPieceTaken: ((index: number) => void) | undefined): void {
  let next = 0;
  const writeNext = (): void => {
    if (next >= pieces.length) {
      stdin.end();
      return;
    }
    const index = next;
    next += 1;
    stdin.write(pieces[index], (error) => {
      if (error) {
        return;
      }
      onPieceTaken?.(index);
      writeNext();
    });
  };
  writeNext();
}

/** The path git names when update-index refuses one (a symlinked .gitmodules, say), with every byte kept. */
export function refusedPath(stderrBytes: string): string | undefined {
  return /invalid path '(.*)'$/m.exec(stderrBytes)?.[1] ?? /Unable to process path (.*)$/m.exec(stderrBytes)?.[1];
}

/** One entry as `ls-tree` lists it and fast-import's `ls` answers: `<mode> <type> <id>\t<path>`; undefined for a line without a tab. */
export function treeEntryOf(line: Buffer): { mode: string; type: string; id: string; rawPath: Buffer } | undefined {
  const tab = line.indexOf(0x09);
  if (tab < 0) {
    return undefined;
  }
  const [mode, type, id] = line.subarray(0, tab).toString('latin1').split(' ');
  return { mode, type, id, rawPath: line.subarray(tab + 1) };
}

/** Splits NUL-terminated output into its fields. */
export function splitNul(buffer: Buffer): Buffer[] {
  const fields: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < buffer.length; i += 1) {
    if (buffer[i] === 0) {
      fields.push(buffer.subarray(start, i));
      start = i + 1;
    }
  }
  if (start < buffer.length) {
    fields.push(buffer.subarray(start));
  }
  return fields;
}

/** Paths as git's `-z --stdin` input: each one NUL-terminated. */
export function joinNul(paths: readonly Uint8Array[]): Buffer {
  return Buffer.concat(paths.flatMap((p) => [Buffer.from(p), Buffer.from([0])]));
}

/** A raw path as shown to the model (bytes that are not UTF-8 become U+FFFD). */
export function shown(rawPath: Uint8Array): string {
  return Buffer.from(rawPath).toString('utf8');
}
