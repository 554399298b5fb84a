import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '../../../..');

describe('scripts/floors.mjs: the folder graph of src/core and the lint on planted imports', function () {
  this.timeout(180_000);

  it('finds no cycle between the folders of src/core, and the lint refuses an upward import for every pair of floors (planted on a copy)', async () => {
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      execFile(process.execPath, ['scripts/floors.mjs', '.', '--inject'], { cwd: REPO, maxBuffer: 4 * 1024 * 1024 }, (error, out) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout: out }));
    });
    assert.doesNotMatch(stdout, /ACCEPTED|^cycle:/m);
    const summary = /floors: 0 folder cycles and 0 folders without a floor in src\/core; planted imports (\d+) of (\d+) refused/.exec(stdout);
    assert.ok(summary, stdout);
    assert.equal(summary[1], summary[2]);
    // Fifteen pairs in each of src/core and src/vscode (six floors each), three between the roots of src.
    assert.ok(Number(summary[2]) >= 33, stdout);
    assert.equal(code, 0);
  });
});
