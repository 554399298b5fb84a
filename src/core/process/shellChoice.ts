import * as path from 'node:path';
import type { ShellKind } from '../ports/process';

export type { ShellKind };

/** The shell that runs command lines: its program and its family. */
export interface CommandShell {
  readonly program: string;
  readonly kind: ShellKind;
}

/**
 * The system shells a command line may run in: bash, sh and dash (the grammar the command policy
 * parses, or a subset of it) at the paths the operating system installs them, root-owned folders
 * that no command and no workspace can write. zsh, fish and others expand some words differently
 * (zsh's `=cmd`, fish's syntax), so running them would run something other than what was judged.
 */
export const SYSTEM_SHELLS: readonly string[] = ['/bin/bash', '/usr/bin/bash', '/bin/sh', '/usr/bin/sh', '/bin/dash', '/usr/bin/dash'];

/** Where the shell is looked for: the platform, whether a file exists, and (Windows) the environment that names the system folders. */
export interface ShellHost {
  readonly platform: string;
  exists(file: string): boolean;
  /** SystemRoot and ProgramFiles on Windows; C:\Windows and C:\Program Files when absent. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The shell that runs command lines. On Linux and macOS: the user's terminal shell when it is one
 * of the system shells, else bash, else /bin/sh. On Windows: see chooseWindowsShell. The preferred
 * shell comes from the terminal profile, which a workspace's settings can name: a path anywhere
 * else (a `bash` the repository ships, a Homebrew bash in a user-owned folder) is never run,
 * whatever its name.
 */
export function chooseCommandShell(preferred: string | undefined, host: ShellHost): CommandShell {
  if (host.platform === 'win32') {
    return chooseWindowsShell(preferred, host);
  }
  if (preferred !== undefined && SYSTEM_SHELLS.includes(preferred) && host.exists(preferred)) {
    return { program: preferred, kind: 'bash' };
  }
  return { program: ['/bin/bash', '/usr/bin/bash'].find((file) => host.exists(file)) ?? '/bin/sh', kind: 'bash' };
}

/** The Windows shells by the folder Windows or their installer puts them in (folders only administrators can write). */
function windowsSystemShells(env: Readonly<Record<string, string | undefined>>): ReadonlyArray<CommandShell> {
  const systemRoot = absoluteWindowsFolder(env.SystemRoot) ?? 'C:\\Windows';
  const programFiles = absoluteWindowsFolder(env.ProgramFiles) ?? 'C:\\Program Files';
  const win = path.win32;
  return [
    { program: win.join(programFiles, 'PowerShell', '7', 'pwsh.exe'), kind: 'powershell' },
    { program: win.join(programFiles, 'PowerShell', '7-preview', 'pwsh.exe'), kind: 'powershell' },
    { program: win.join(systemRoot, 'System32', 'WindowsPowerShell', 'v1.0', 'powershell.exe'), kind: 'powershell' },
    { program: win.join(systemRoot, 'System32', 'cmd.exe'), kind: 'cmd' },
    { program: win.join(programFiles, 'Git', 'bin', 'bash.exe'), kind: 'bash' },
    { program: win.join(programFiles, 'Git', 'usr', 'bin', 'bash.exe'), kind: 'bash' },
  ];
}

/** An environment variable's folder when it is a plain absolute drive path (no `..`, no UNC, no device path). */
function absoluteWindowsFolder(value: string | undefined): string | undefined {
  if (value === undefined || !/^[A-Za-z]:\\[^"<>|?*]*$/.test(value) || value.split(/[\\/]/).some((part) => part === '..' || part === '.')) {
    return undefined;
  }
  return value.replace(/\\+$/, '');
}

/** Windows compares names in any case and takes both separators. */
function windowsKey(file: string): string {
  return path.win32.normalize(file).toLowerCase();
}

/**
 * Windows: the terminal profile's shell when it is a known system shell at its system location
 * (PowerShell 7's pwsh.exe under Program Files, Windows PowerShell 5.1 under System32, cmd.exe,
 * Git Bash's bash.exe under Program Files\Git), else PowerShell 7, else Windows PowerShell 5.1
 * (every Windows has it). A shell inside the workspace or a user-writable folder (a pwsh.exe in
 * %LOCALAPPDATA%, a repository's tools\bash.exe) is never run, whatever its name; a path with `..`
 * in it is not a system location either.
 */
function chooseWindowsShell(preferred: string | undefined, host: ShellHost): CommandShell {
  const known = windowsSystemShells(host.env ?? {});
  if (preferred !== undefined && /^[A-Za-z]:[\\/]/.test(preferred) && !preferred.split(/[\\/]/).includes('..')) {
    const key = windowsKey(preferred);
    const match = known.find((shell) => windowsKey(shell.program) === key);
    if (match && host.exists(match.program)) {
      return match;
    }
  }
  const pwsh = known.filter((shell) => shell.kind === 'powershell');
  return pwsh.slice(0, 2).find((shell) => host.exists(shell.program)) ?? pwsh[2];
}

/**
 * What PowerShell runs before the line: output in UTF-8 (the console's code page would mangle
 * anything beyond it) and no progress bars (written to a redirected stream they arrive as CLIXML).
 */
export const POWERSHELL_PRELUDE = '[Console]::OutputEncoding = [System.Text.UTF8Encoding]::new($false); $OutputEncoding = [Console]::OutputEncoding; $ProgressPreference = \'SilentlyContinue\'';

/** The argument list the shell program gets to run one command line, and whether it must reach the program verbatim (cmd.exe). */
export interface ShellInvocation {
  readonly args: readonly string[];
  /** True when Windows must not quote the arguments (Node's windowsVerbatimArguments): cmd.exe reads its own line. */
  readonly verbatim: boolean;
}

/**
 * How each shell runs one line. bash: `-c line`. PowerShell: `-NoLogo -NoProfile -NonInteractive
 * -OutputFormat Text -EncodedCommand <base64 of UTF-16LE>`: the prelude and the line travel as
 * one base64 word, so no quoting pass (Node's MSVC quoting, the C runtime's unquoting, PowerShell
 * joining -Command's arguments with spaces) can change a quote, backslash or `--` of the text the
 * policy judged; the cost is length (about 2.7 characters per character of the line, within
 * Windows' 32,767-character command line). cmd: `/d /s /c "line"` verbatim (AutoRun off; /s
 * strips the outer quotes and keeps the rest as typed).
 */
export function shellInvocation(shell: CommandShell, commandLine: string): ShellInvocation {
  switch (shell.kind) {
    case 'bash':
      return { args: ['-c', commandLine], verbatim: false };
    case 'powershell':
      return { args: ['-NoLogo', '-NoProfile', '-NonInteractive', '-OutputFormat', 'Text', '-EncodedCommand', encodePowerShellCommand(`${POWERSHELL_PRELUDE}\n${commandLine}`)], verbatim: false };
    case 'cmd':
      return { args: ['/d', '/s', '/c', `"${commandLine}"`], verbatim: true };
  }
}

/** PowerShell's -EncodedCommand: the script's UTF-16LE bytes in base64. */
export function encodePowerShellCommand(script: string): string {
  return Buffer.from(script, 'utf16le').toString('base64');
}
