// Tests that run a program (rg, git, python3) fail with its name when it is missing: they never pass without it.
import { accessSync, constants } from 'node:fs';
import * as path from 'node:path';

/** The program's path on PATH; throws naming it (and how CI installs it) when it is not there. */
export function requireProgram(name: string): string {
  for (const folder of (process.env.PATH ?? '').split(path.delimiter).filter((entry) => path.isAbsolute(entry))) {
    try {
      accessSync(path.join(folder, name), constants.X_OK);
      return path.join(folder, name);
    } catch {
      // Not in this folder.
    }
  }
  throw new Error(`This test needs ${name}, which is not on PATH. Install it (.ci/run does: apt-get install ${name === 'rg' ? 'ripgrep' : name}).`);
}
