// Who reads a command's standard input, found by looking at its processes in /proc (Linux): a
// process whose fd 0 is the command's input (a pipe, or the socket Node's child_process makes for
// 'pipe') and that is blocked reading it (the read system call on fd 0), or waiting in epoll with it
// among what it watches (Node, most event loops). A command whose input is the pseudoterminal of
// terminalInput.ts: a process whose fd 0 is a terminal (/dev/pts/<n>, its own in the sandbox's
// devpts) blocked reading it (wait_woken or n_tty_read, on fd 0). Where /proc cannot tell (no /proc, a process in
// select or poll, a process that cannot be looked at), the answer is `unknown`. The launcher's own
// processes (bubblewrap, which polls its own descriptors) are not the command's readers.
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import type { InputReaders } from '../../ports/process';
import { groupMembersOnLinux } from './processGroup';

const INPUT_LINK = /^(pipe|socket):\[(\d+)\]$/;
/** Where a process blocked reading a pipe or a stream socket sleeps. */
const READ_WCHAN = /pipe_read|pipe_wait|unix_stream_read|unix_stream_data_wait|sk_wait_data|sock_read/;
/** Where a process blocked reading a terminal sleeps (n_tty_read before Linux 4.x's wait_woken). */
const TERMINAL_READ_WCHAN = /^(wait_woken|n_tty_read|tty_read)$/;
/** The terminal of the helper, as a process's fd 0 link shows it. */
const TERMINAL_LINK = /^\/dev\/pts\/\d+$/;

/** The input's link (`pipe:[<inode>]` or `socket:[<inode>]`) of a process's fd 0, or undefined (neither, gone, or no /proc). */
export function inputPipeOf(pid: number): string | undefined {
  try {
    const link = readlinkSync(`/proc/${pid}/fd/0`);
    return INPUT_LINK.test(link) ? link : undefined;
  } catch {
    return undefined;
  }
}

type Looked = 'reading' | 'other' | 'unknown';

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Whether one process is blocked on the pipe `pipe` (its fd 0), or on a terminal when `pipe` is `terminal`. */
function lookAt(pid: string, pipe: string, pipeInode: string | undefined): Looked {
  let fd0: string;
  try {
    fd0 = readlinkSync(`/proc/${pid}/fd/0`);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'other' : 'unknown';
  }
  const terminal = pipe === 'terminal';
  if (terminal ? !TERMINAL_LINK.test(fd0) : fd0 !== pipe) {
    return 'other';
  }
  // A terminal's inode is small and only unique on its devpts: its device is matched too.
  const inode = pipeInode ?? terminalInode(pid);
  const wchan = readText(`/proc/${pid}/wchan`)?.trim();
  if (wchan === undefined || wchan === '' || wchan === '0') {
    // wchan hidden (kernel.kptr_restrict) or the process is running: look again later.
    return wchan === '0' ? 'other' : 'unknown';
  }
  if (READ_WCHAN.test(wchan) || (terminal && TERMINAL_READ_WCHAN.test(wchan))) {
    // The first argument of the system call it is blocked in is the fd: 0 is its input.
    const syscall = readText(`/proc/${pid}/syscall`)?.trim().split(' ');
    return syscall === undefined || syscall.length < 2 || syscall[1] === '0x0' ? 'reading' : 'other';
  }
  if (/ep_poll|epoll_wait/.test(wchan)) {
    return inode === undefined ? 'unknown' : epollWatches(pid, inode);
  }
  if (/select|poll/.test(wchan)) {
    return 'unknown';
  }
  return 'other';
}

/** The inode of a process's terminal (fd 0) and, after a space, its device in hex, for its epoll's fdinfo. */
function terminalInode(pid: string): string | undefined {
  try {
    const stat = statSync(`/proc/${pid}/fd/0`);
    return `${stat.ino} ${stat.dev.toString(16)}`;
  } catch {
    return undefined;
  }
}

/** Whether an epoll instance of the process watches the pipe of `inode` (its fdinfo lists `ino:<hex>`), or the terminal of `<inode> <device hex>` (`ino:<hex> sdev:<hex>`). */
function epollWatches(pid: string, inode: string): Looked {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return 'unknown';
  }
  const [number, device] = inode.split(' ');
  const watched = new RegExp(`\\bino:${Number(number).toString(16)}${device === undefined ? '' : ` sdev:${device}`}\\b`);
  for (const fd of fds) {
    let link: string;
    try {
      link = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue;
    }
    if (link !== 'anon_inode:[eventpoll]') {
      continue;
    }
    const info = readText(`/proc/${pid}/fdinfo/${fd}`) ?? '';
    if (info.split('\n').some((line) => line.startsWith('tfd:') && watched.test(line))) {
      return 'reading';
    }
  }
  return 'other';
}

/**
 * Who of the group `pgid` reads `pipe` (the command's input, as inputPipeOf gave it, or `terminal`:
 * the helper's pseudoterminal); processes named in `launchers` are not counted.
 */
export function inputReadersOf(pgid: number, pipe: string | undefined, launchers: ReadonlySet<string> = new Set()): InputReaders {
  const inode = pipe?.match(INPUT_LINK)?.[2];
  if (pipe === undefined || (inode === undefined && pipe !== 'terminal')) {
    return { state: 'unknown' };
  }
  const members = groupMembersOnLinux(pgid);
  let unknown = false;
  // The newest process last: the program a shell started reads, not the shell that waits for it.
  for (const member of members.reverse()) {
    if (launchers.has(member.comm)) {
      continue;
    }
    const looked = lookAt(member.pid, pipe, inode);
    if (looked === 'reading') {
      return { state: 'reading', program: member.comm };
    }
    unknown ||= looked === 'unknown';
  }
  return unknown ? { state: 'unknown' } : { state: 'none' };
}
