// What the kernel accepts in one execve: a command line longer than this does not start at all
// (spawn E2BIG). Checked before anyone is asked, so such a line fails as a tool error that says
// what to do instead, and nothing is held or left behind.

/** Linux's MAX_ARG_STRLEN: one argument (the whole command line is one `-c` argument) of 32 pages of 4 KiB, its NUL included. */
export const MAX_ARGUMENT_BYTES = 128 * 1024;

/**
 * What the arguments and the environment may take together. Linux allows a quarter of the stack
 * limit (2 MiB with the usual 8 MiB stack), macOS 1 MiB; the lower one, so no machine refuses what
 * passed here. Every string costs its bytes, a NUL and a pointer.
 */
export const MAX_EXEC_TOTAL_BYTES = 1024 * 1024;

const POINTER_BYTES = 8;

export type ArgumentSizeProblem =
  | { readonly kind: 'argument'; readonly bytes: number; readonly limit: number }
  | { readonly kind: 'total'; readonly bytes: number; readonly limit: number };

function cost(text: string): number {
  return Buffer.byteLength(text, 'utf8') + 1 + POINTER_BYTES;
}

/** Why execve would refuse this argv and environment, or undefined when it fits. */
export function argumentSizeProblem(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): ArgumentSizeProblem | undefined {
  const longest = argv.reduce((most, arg) => Math.max(most, Buffer.byteLength(arg, 'utf8') + 1), 0);
  if (longest > MAX_ARGUMENT_BYTES) {
    return { kind: 'argument', bytes: longest - 1, limit: MAX_ARGUMENT_BYTES - 1 };
  }
  const variables = Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined);
  const total = argv.reduce((sum, arg) => sum + cost(arg), 0) + variables.reduce((sum, [name, value]) => sum + cost(`${name}=${value}`), 0);
  return total > MAX_EXEC_TOTAL_BYTES ? { kind: 'total', bytes: total, limit: MAX_EXEC_TOTAL_BYTES } : undefined;
}
