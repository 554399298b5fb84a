// Why bubblewrap cannot start on this machine, and what fixes it: from bwrap's own error and the
// kernel settings that decide it (read by node/machineSandbox.ts), for the known shapes: Ubuntu's
// AppArmor restriction of unprivileged user namespaces (23.10 and later), user namespaces turned
// off (user.max_user_namespaces=0, Debian's kernel.unprivileged_userns_clone=0, a container's
// seccomp profile), bwrap missing, and a bwrap given capabilities it should not have.

/** Where the page on these causes and fixes is. */
export const BUBBLEWRAP_FAILURE_DOCS = 'docs/platforms.md#linux-where-bubblewrap-cannot-start';

export type BubblewrapFailureCause = 'missing' | 'apparmor' | 'userns-limit' | 'userns-off' | 'capabilities' | 'other';

/** What the probe saw: bwrap's exit and stderr, and the kernel settings it could read (undefined: no such file). */
export interface BubblewrapProbeFacts {
  readonly executable: string;
  readonly exitCode: number | null;
  /** bwrap's stderr, or the error of starting it. */
  readonly stderr: string;
  /** /proc/sys/kernel/apparmor_restrict_unprivileged_userns */
  readonly apparmorRestrictUserns?: string;
  /** /proc/sys/user/max_user_namespaces */
  readonly maxUserNamespaces?: string;
  /** /proc/sys/kernel/unprivileged_userns_clone (Debian's older kernels) */
  readonly unprivilegedUsernsClone?: string;
}

export interface BubblewrapFailure {
  readonly cause: BubblewrapFailureCause;
  /** Why, in one clause with bwrap's own words: follows "bubblewrap cannot start here: ". */
  readonly why: string;
  /** What the user runs to fix it, one line to paste in a terminal where a command does it. */
  readonly fix: string;
}

/** Keeping a sysctl across reboots, after setting it now. */
function sysctl(name: string, value: string): string {
  return `sudo sysctl -w ${name}=${value} (to keep it: echo '${name}=${value}' | sudo tee /etc/sysctl.d/60-bubblewrap.conf)`;
}

/**
 * The AppArmor profile that lets bwrap (and only it) make user namespaces, written and loaded in
 * one line. The profile names the executable; one with characters a profile or the shell would
 * read otherwise gets the system's /usr/bin/bwrap, which the user adjusts.
 */
export function apparmorProfileCommand(executable: string): string {
  const attach = /^\/[\w./+-]+$/.test(executable) ? executable : '/usr/bin/bwrap';
  return `printf 'abi <abi/4.0>,\\ninclude <tunables/global>\\nprofile bwrap ${attach} flags=(unconfined) {\\n  userns,\\n}\\n' | sudo tee /etc/apparmor.d/bwrap && sudo apparmor_parser -r /etc/apparmor.d/bwrap`;
}

/** bwrap's error as it said it, on one line, without its "bwrap: " prefix. */
function said(stderr: string): string {
  const text = stderr.replace(/^bwrap: /gm, '').replace(/\s+/g, ' ').trim();
  const shown = text.length > 300 ? `${text.slice(0, 300)}...` : text;
  return shown ? `bwrap said "${shown}"` : 'bwrap said nothing';
}

export function classifyBubblewrapFailure(facts: BubblewrapProbeFacts): BubblewrapFailure {
  const { stderr, executable } = facts;
  const bwrapSaid = said(facts.exitCode === null || stderr ? stderr : `exit code ${facts.exitCode}`);
  const after = ', then reload the window';
  if (/\bENOENT\b|no such file or directory/i.test(stderr) && !/^bwrap: /m.test(stderr)) {
    return { cause: 'missing', why: `${executable} cannot be run (${bwrapSaid.replace('bwrap said', 'starting it failed with')})`, fix: `install bubblewrap (on Debian or Ubuntu: sudo apt install bubblewrap; on Fedora: sudo dnf install bubblewrap)${after}` };
  }
  if (/max_\*_namespaces exceeded|ENOSPC|no space left on device/i.test(stderr) || facts.maxUserNamespaces === '0') {
    const limit = facts.maxUserNamespaces === undefined ? 'user namespaces are turned off or used up (user.max_user_namespaces)' : `user namespaces are turned off: user.max_user_namespaces is ${facts.maxUserNamespaces} (/proc/sys/user/max_user_namespaces)`;
    return { cause: 'userns-limit', why: `${limit}; ${bwrapSaid}`, fix: `${sysctl('user.max_user_namespaces', '15000')}; in a container, the host or the container's runtime sets the limit${after}` };
  }
  if (facts.unprivilegedUsernsClone === '0') {
    return { cause: 'userns-off', why: `unprivileged user namespaces are turned off: kernel.unprivileged_userns_clone is 0 (/proc/sys/kernel/unprivileged_userns_clone); ${bwrapSaid}`, fix: `${sysctl('kernel.unprivileged_userns_clone', '1')}${after}` };
  }
  const apparmor = facts.apparmorRestrictUserns === '1';
  if (/setting up uid map: Permission denied/i.test(stderr) || (apparmor && /Operation not permitted|Permission denied/i.test(stderr))) {
    const setting = apparmor ? 'kernel.apparmor_restrict_unprivileged_userns is 1 (/proc/sys/kernel/apparmor_restrict_unprivileged_userns)' : 'probably kernel.apparmor_restrict_unprivileged_userns=1 (/proc/sys/kernel/apparmor_restrict_unprivileged_userns)';
    return {
      cause: 'apparmor',
      why: `AppArmor restricts unprivileged user namespaces, as Ubuntu 23.10 and later do: ${setting}; ${bwrapSaid}`,
      fix: `give bwrap an AppArmor profile that allows them: ${apparmorProfileCommand(executable)}; or lift the restriction for every program: ${sysctl('kernel.apparmor_restrict_unprivileged_userns', '0')}${after}`,
    };
  }
  if (/No permissions to creat(e|ing) (a )?new namespace|Creating new namespace failed: Operation not permitted/i.test(stderr)) {
    return {
      cause: 'userns-off',
      why: `the system refuses unprivileged user namespaces (a container's seccomp profile, or a kernel built or set without them); ${bwrapSaid}`,
      fix: `allow them where the refusal comes from: a container started with user namespaces allowed (Docker: a seccomp profile that permits unshare and clone with CLONE_NEWUSER), or ${sysctl('kernel.unprivileged_userns_clone', '1')} on Debian's older kernels${after}`,
    };
  }
  if (/Unexpected capabilities but not setuid|Unexpected setuid/i.test(stderr)) {
    return {
      cause: 'capabilities',
      why: `bwrap started with capabilities it refuses (file capabilities on ${executable}, or an editor started with ambient capabilities); ${bwrapSaid}`,
      fix: `remove them: sudo setcap -r ${executable}, or start VS Code as a normal user without added capabilities${after}`,
    };
  }
  return {
    cause: 'other',
    why: `${bwrapSaid} (exit code ${facts.exitCode ?? 'none'})`,
    fix: `check that unprivileged user namespaces work here (unshare --user --map-root-user true), and see ${BUBBLEWRAP_FAILURE_DOCS}${after}`,
  };
}
