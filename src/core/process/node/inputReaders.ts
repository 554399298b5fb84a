// Who reads a command's standard input, found by looking at its processes in /proc (Linux): a
// process whose fd 0 is the command's input (a pipe, or the socket Node's child_process makes for
// 'pipe') and that is blocked reading it (the read system call on fd 0), or waiting in epoll with it
// among what it watches (Node, most event loops). Where /proc cannot tell (no /proc, a process in
// select or poll, a process that cannot be looked at), the answer is `unknown`. The launcher's own
// processes (bubblewrap, which polls its own descriptors) are not the command's readers.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { InputReaders } from '../../ports/process';
import { groupMembersOnLinux } from './processGroup';

const INPUT_LINK = /^(pipe|socket):\[(\d+)\]$/;
/** Where a process blocked reading a pipe or a stream socket sleeps. */
const READ_WCHAN = /pipe_read|pipe_wait|unix_stream_read|unix_stream_data_wait|sk_wait_data|sock_read/;

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

/** Whether one process is blocked on the pipe `pipe` (its fd 0). */
function lookAt(pid: string, pipe: string, inode: string): Looked {
  let fd0: string;
  try {
    fd0 = readlinkSync(`/proc/${pid}/fd/0`);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'other' : 'unknown';
  }
  if (fd0 !== pipe) {
    return 'other';
  }
  const wchan = readText(`/proc/${pid}/wchan`)?.trim();
  if (wchan === undefined || wchan === '' || wchan === '0') {
    // wchan hidden (kernel.kptr_restrict) or the process is running: look again later.
    return wchan === '0' ? 'other' : 'unknown';
  }
  if (READ_WCHAN.test(wchan)) {
    // The first argument of the system call it is blocked in is the fd: 0 is its input.
    const syscall = readText(`/proc/${pid}/syscall`)?.trim().split(' ');
    return syscall === undefined || syscall.length < 2 || syscall[1] === '0x0' ? 'reading' : 'other';
  }
  if (/ep_poll|epoll_wait/.test(wchan)) {
    return epollWatches(pid, inode);
  }
  if (/select|poll/.test(wchan)) {
    return 'unknown';
  }
  return 'other';
}

/** Whether an epoll instance of the process watches the pipe of `inode` (its fdinfo lists `ino:<hex>`). */
function epollWatches(pid: string, inode: string): Looked {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return 'unknown';
  }
  const watched = new RegExp(`\\bino:${Number(inode).toString(16)}\\b`);
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

/** Who of the group `pgid` reads `pipe` (the command's input, as inputPipeOf gave it); processes named in `launchers` are not counted. */
export function inputReadersOf(pgid: number, pipe: string | undefined, launchers: ReadonlySet<string> = new Set()): InputReaders {
  const inode = pipe?.match(INPUT_LINK)?.[2];
  if (pipe === undefined || inode === undefined) {
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
