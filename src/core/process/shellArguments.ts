// How a shell is told to run one command line: a POSIX shell with -c, cmd.exe with /d /s /c and
// the line in quotes passed verbatim (as Node's own `shell` option does: /s keeps everything between
// the outer quotes as it is, /d skips the AutoRun commands of the registry), PowerShell with
// -Command after the options that keep profiles and prompts out.

/** The arguments after the shell's path, and whether they go to Windows verbatim (no quoting by Node). */
export function shellArguments(shell: string, commandLine: string): { args: string[]; verbatim: boolean } {
  const name = shell.split(/[\\/]/).pop()?.toLowerCase() ?? '';
  if (name === 'cmd.exe' || name === 'cmd') {
    return { args: ['/d', '/s', '/c', `"${commandLine}"`], verbatim: true };
  }
  if (['pwsh.exe', 'pwsh', 'powershell.exe', 'powershell'].includes(name)) {
    return { args: ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', commandLine], verbatim: false };
  }
  return { args: ['-c', commandLine], verbatim: false };
}
