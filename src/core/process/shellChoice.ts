/**
 * The system shells a command line may run in: bash, sh and dash (the grammar the command policy
 * parses, or a subset of it) at the paths the operating system installs them, root-owned folders
 * that no command and no workspace can write. zsh, fish and others expand some words differently
 * (zsh's `=cmd`, fish's syntax), so running them would run something other than what was judged.
 */
export const SYSTEM_SHELLS: readonly string[] = ['/bin/bash', '/usr/bin/bash', '/bin/sh', '/usr/bin/sh', '/bin/dash', '/usr/bin/dash'];

/**
 * The shell that runs command lines with `-c`: the user's terminal shell when it is one of the
 * system shells, else bash, else /bin/sh. The preferred shell comes from the terminal profile,
 * which a workspace's settings can name: a path anywhere else (a `bash` the repository ships, a
 * Homebrew bash in a user-owned folder) is never run, whatever its name.
 */
export function chooseCommandShell(preferred: string | undefined, exists: (file: string) => boolean): string {
  if (preferred !== undefined && SYSTEM_SHELLS.includes(preferred) && exists(preferred)) {
    return preferred;
  }
  return ['/bin/bash', '/usr/bin/bash'].find(exists) ?? '/bin/sh';
}
