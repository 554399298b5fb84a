// Run by test/unit/core/sandbox/keptRuns.test.ts: a staged run's merge (stagedRuns.ts, as the
// extension host runs it) killed for real in its middle. The layers are made by OverlayStaging, the
// files the command "wrote" are put in the upper layer by the test, and this process kills itself
// (SIGKILL) right before the merge renames its `kill`-th temporary over its place: that temporary is
// left in the folder, as a host killed between the copy and the rename leaves it.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { OverlayStaging } from '../../../src/core/sandbox/node/stagedRuns';

async function main(): Promise<void> {
  const [root, folder, upperFiles, kill] = process.argv.slice(2);
  const staging = new OverlayStaging(root);
  const run = await staging.prepare([folder], []);
  const upper = path.join((await fs.readdir(root)).map((name) => path.join(root, name))[0], 'upper0');
  for (const [relative, text] of Object.entries(JSON.parse(upperFiles) as Record<string, string>)) {
    await fs.mkdir(path.dirname(path.join(upper, relative)), { recursive: true });
    await fs.writeFile(path.join(upper, relative), text);
  }
  const rename = fs.rename.bind(fs);
  let renames = 0;
  fs.rename = async (from, to) => {
    if (path.basename(String(from)).startsWith('.wat-merge-') && ++renames === Number(kill)) {
      process.kill(process.pid, 'SIGKILL');
      await new Promise(() => undefined);
    }
    return rename(from, to);
  };
  await run.merge(undefined);
  process.stdout.write('merged whole\n');
}

void main();
