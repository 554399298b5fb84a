import * as path from 'node:path';

/** Shells whose syntax is the bash grammar the command policy parses (or a subset of it). */
const BASH_COMPATIBLE = new Set(['bash', 'sh', 'dash']);

/**
 * The shell that runs command lines with `-c`: the user's shell when it speaks the syntax the
 * policy judged (bash, sh, dash), else bash, else /bin/sh. zsh, fish and others expand some words
 * differently (zsh's `=cmd`, fish's syntax), so running them would run something other than what
 * was judged.
 */
export function chooseCommandShell(preferred: string | undefined, exists: (file: string) => boolean): string {
  if (preferred && path.isAbsolute(preferred) && BASH_COMPATIBLE.has(path.basename(preferred)) && exists(preferred)) {
    return preferred;
  }
  return ['/bin/bash', '/usr/bin/bash'].find(exists) ?? '/bin/sh';
}
