// How a shell is told to run one command line when the caller names only the shell's program (a
// test, a command the extension runs itself): its kind read from the program's name, then the
// arguments of shellChoice.ts's one table (bash `-c`; PowerShell `-EncodedCommand`; cmd.exe
// `/d /s /c "line"` verbatim). workspace_run_command passes the arguments it built from the shell
// it chose (ProcessRequest.shellArguments).
import type { ShellKind } from '../ports/process';
import { shellInvocation, type ShellInvocation } from './shellChoice';

/** The shell's kind by its program's name: cmd, PowerShell (pwsh or powershell), else a POSIX shell. */
export function shellKindOf(program: string): ShellKind {
  const name = program.split(/[\\/]/).pop()?.toLowerCase() ?? '';
  if (name === 'cmd.exe' || name === 'cmd') {
    return 'cmd';
  }
  return ['pwsh.exe', 'pwsh', 'powershell.exe', 'powershell'].includes(name) ? 'powershell' : 'bash';
}

/** The arguments after the shell's path, and whether they go to Windows verbatim (no quoting by Node). */
export function shellArguments(shell: string, commandLine: string): ShellInvocation {
  return shellInvocation({ program: shell, kind: shellKindOf(shell) }, commandLine);
}
