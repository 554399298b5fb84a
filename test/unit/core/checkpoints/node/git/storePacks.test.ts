// The packs a touched checkpoint keeps (storePacks.ts): many small ones are rolled up into one by
// a real `git repack --geometric`, the large ones left as they are, every object still there and no
// mark of the roll-up left behind; a git without `--geometric` makes fast-import unpack again.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runGit, storeEnvironment, type GitResult } from '../../../../../../src/core/checkpoints/node/git/gitRunner';
import { MAX_PACKS, StorePacks } from '../../../../../../src/core/checkpoints/node/git/storePacks';
import { git } from '../../../../../support/gitFixtures';
import { needsWindowsProgram } from '../../../../support/platforms';

describe('StorePacks: the packs touched checkpoints keep', () => {
  before(function () {
    needsWindowsProgram(this, 'git');
  });

  let base: string;
  let gitDir: string;
  let env: Record<string, string>;

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-store-packs-'));
    gitDir = path.join(base, 'store');
    git(base, 'init', '-q', '--bare', gitDir);
    env = storeEnvironment(gitDir, base);
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  const packFolder = (): string => path.join(gitDir, 'objects', 'pack');
  const packs = (): string[] => fs.readdirSync(packFolder()).filter((name) => name.endsWith('.pack')).sort();
  /** A pack of its own holding one blob, as a touched checkpoint's fast-import keeps one; the blob's id. */
  function packOf(content: Buffer): string {
    const input = Buffer.concat([Buffer.from(`blob\nmark :1\ndata ${content.length}\n`), content, Buffer.from('\nget-mark :1\n')]);
    return execFileSync('git', ['-c', 'fastimport.unpackLimit=0', 'fast-import', '--quiet'], { cwd: gitDir, env, input }).toString('utf8').trim();
  }
  const lowPriority = (args: readonly string[]): Promise<GitResult> => runGit(args, env, gitDir, undefined, { lowPriority: true });

  it('rolls many small packs up into one, leaves a large pack as it is, and keeps every object', async () => {
    const large = packOf(randomBytes(9 * 1024 * 1024));
    const largePack = packs()[0];
    const small = Array.from({ length: MAX_PACKS }, (_, i) => packOf(Buffer.from(`small ${i}\n`)));
    assert.equal(packs().length, MAX_PACKS + 1);
    const store = new StorePacks({ gitDir, runLowPriority: lowPriority });
    store.tidy();
    await store.settled();
    assert.equal(packs().length, 2);
    assert.ok(packs().includes(largePack), 'the large pack is not rewritten');
    assert.deepEqual(fs.readdirSync(packFolder()).filter((name) => name.endsWith('.keep')), []);
    for (const id of [large, ...small]) {
      git(base, '--git-dir', gitDir, 'cat-file', '-e', id);
    }
    assert.equal(store.keep, true);
  });

  it('leaves the packs as they are while there are at most MAX_PACKS', async () => {
    for (let i = 0; i < MAX_PACKS; i += 1) {
      packOf(Buffer.from(`small ${i}\n`));
    }
    let runs = 0;
    const store = new StorePacks({ gitDir, runLowPriority: (args) => ((runs += 1), lowPriority(args)) });
    store.tidy();
    await store.settled();
    assert.equal(runs, 0);
    assert.equal(packs().length, MAX_PACKS);
  });

  it('has fast-import unpack again when git refuses --geometric (older than 2.32), and removes its marks', async () => {
    packOf(randomBytes(9 * 1024 * 1024));
    for (let i = 0; i < MAX_PACKS; i += 1) {
      packOf(Buffer.from(`small ${i}\n`));
    }
    const store = new StorePacks({ gitDir, runLowPriority: () => Promise.resolve({ stdout: Buffer.alloc(0), stderr: "error: unknown option `geometric=2'\n", stderrBytes: '', code: 129 }) });
    store.tidy();
    await store.settled();
    assert.equal(store.keep, false);
    assert.deepEqual(fs.readdirSync(packFolder()).filter((name) => name.endsWith('.keep')), []);
  });

  it('removes the marks a roll-up left (its window closed during it), never a .keep file of git\'s own', async () => {
    packOf(randomBytes(9 * 1024 * 1024));
    for (let i = 0; i < MAX_PACKS; i += 1) {
      packOf(Buffer.from(`small ${i}\n`));
    }
    // A roll-up that never ends: its window closed during it.
    new StorePacks({ gitDir, runLowPriority: () => new Promise(() => undefined) }).tidy();
    const marked = fs.readdirSync(packFolder()).filter((name) => name.endsWith('.keep'));
    assert.equal(marked.length, 1);
    const gitsOwn = path.join(packFolder(), packs().find((name) => !marked.includes(name.replace(/\.pack$/, '.keep')))!.replace(/\.pack$/, '.keep'));
    fs.writeFileSync(gitsOwn, 'fast-import\n');
    new StorePacks({ gitDir, runLowPriority: lowPriority }).clearMarks();
    assert.deepEqual(fs.readdirSync(packFolder()).filter((name) => name.endsWith('.keep')), [path.basename(gitsOwn)]);
  });
});
