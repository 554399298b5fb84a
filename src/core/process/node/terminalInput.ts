// A pseudoterminal as a command's standard input (workspace_run_command's interactive: true), with
// stdout and stderr left as pipes: isatty(0) is true, so `read -p` prints its prompt and a program
// takes its terminal path, while the output stays uncoloured and the two streams stay apart.
//
// Node has no pseudoterminal of its own (VS Code's node-pty is native, exists only in the extension
// host, and gives the child all three streams as the terminal, in a session of its own, which the
// process-group stop would not reach); util-linux `script` does the same. So a few lines of
// python3's standard pty module run between the launcher (bubblewrap) and the shell, in the
// command's own process group and sandbox: the child's fd 0 is the terminal's side, with no
// controlling terminal (no setsid, so it stays in the group, and `sudo`/`ssh` asking on /dev/tty fail
// at once as before); what the extension writes to the helper's stdin goes to the terminal, end of
// file becomes Ctrl+D (twice after an unfinished line, as a person
// presses it), and the terminal's echo is drained and dropped. The helper ends with its
// child's exit code or signal. Cost (measured, scripts/bench/sandbox.mjs): python3's start, some
// 20 ms on an idle machine, so only commands that ask for it pay it; the others get /dev/null.
import { accessSync, constants } from 'node:fs';
import * as path from 'node:path';

/**
 * The helper, run as `python3 -I -S -c HELPER program args...` (-I: no PYTHON* variables, no user
 * site; -S: no site module, so nothing of the workspace's is imported). The signals Python sets to
 * be ignored (SIGPIPE, SIGXFSZ) or handles (SIGINT) are set back to default in the child.
 */
export const TERMINAL_HELPER = [
  'import os,pty,select,signal,sys',
  'm,s=pty.openpty()',
  'r,w=os.pipe()',
  'os.set_blocking(w,False)',
  'signal.set_wakeup_fd(w)',
  'signal.signal(signal.SIGCHLD,lambda *_:None)',
  'p=os.fork()',
  'if p==0:',
  ' os.dup2(s,0);os.close(s);os.close(m);os.close(r);os.close(w)',
  ' for n in (signal.SIGINT,signal.SIGPIPE,signal.SIGCHLD,signal.SIGXFSZ):signal.signal(n,signal.SIG_DFL)',
  ' try:os.execvp(sys.argv[1],sys.argv[1:])',
  ' except OSError as e:sys.stderr.write(sys.argv[1]+": "+e.strerror+"\\n");os._exit(127)',
  'signal.signal(signal.SIGINT,signal.SIG_IGN)',
  'os.close(s)',
  'fds=[0,m,r];last=b"\\n"',
  'while True:',
  ' q,st=os.waitpid(p,os.WNOHANG)',
  ' if q:break',
  ' try:ready=select.select(fds,[],[])[0]',
  ' except InterruptedError:continue',
  ' if r in ready:os.read(r,512)',
  ' if m in ready:',
  '  try:os.read(m,4096)',
  '  except OSError:fds.remove(m)',
  ' if 0 in ready:',
  '  d=os.read(0,4096)',
  '  if d:os.write(m,d);last=d[-1:]',
  // A line typed so far is first sent as it is (one Ctrl+D), then the end of file (another).
  '  else:os.write(m,b"\\x04" if last in (b"\\n",b"\\r",b"\\x04") else b"\\x04\\x04");fds.remove(0)',
  'if os.WIFSIGNALED(st):',
  ' n=os.WTERMSIG(st);signal.signal(n,signal.SIG_DFL);os.kill(os.getpid(),n)',
  'sys.exit(os.WEXITSTATUS(st))',
].join('\n');

/** Where the system's python3 is, looked at before PATH. */
const SYSTEM_FOLDERS = ['/usr/bin', '/bin', '/usr/local/bin'];

/** The argv that runs the rest (the shell and its arguments) with a pseudoterminal as stdin. */
export function terminalHelperArgv(python: string): string[] {
  return [python, '-I', '-S', '-c', TERMINAL_HELPER];
}

/**
 * The system's python3, else the one a command with `env`'s PATH would run (an absolute path), or undefined: then this
 * machine gives no pseudoterminal (not Linux, where the probe of who reads the terminal exists and
 * the helper is tested; or no python3), and an interactive command's input is a pipe.
 */
export function terminalHelperPython(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform !== 'linux') {
    return undefined;
  }
  // The system's own first: root's, and faster than a version manager's shim (pyenv's takes a second or more).
  for (const folder of [...SYSTEM_FOLDERS, ...(env.PATH ?? '').split(path.delimiter)]) {
    if (!path.isAbsolute(folder)) {
      continue;
    }
    const candidate = path.join(folder, 'python3');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}
