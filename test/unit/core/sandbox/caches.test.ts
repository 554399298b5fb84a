import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cacheBinds, cacheVariables, type CacheRequest } from '../../../../src/core/sandbox/caches';
import { bubblewrapLauncher } from '../../../../src/core/sandbox/bubblewrap';
import { acquireSandboxLease } from '../../../../src/core/sandbox/lease';
import { MachineSandbox } from '../../../../src/core/sandbox/node/machineSandbox';
import { seatbeltProfile } from '../../../../src/core/sandbox/seatbelt';
import { DEFAULT_SETTINGS } from '../../../../src/core/settings';
import { testContext } from '../../support/context';
import { RIPGREP } from '../../support/searchTree';
import { SeatbeltProfile, WRITES } from '../../support/seatbeltEvaluator';
import { describeOnlyOn } from '../../support/platforms';

describeOnlyOn(['linux', 'darwin'], 'the OS sandbox (bubblewrap, Seatbelt)')('sandbox/caches', () => {
  let parent: string;
  let root: string;
  let home: string;
  let bin: string;
  let privateRoot: string;
  beforeEach(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-caches-'));
    root = path.join(parent, 'ws');
    home = path.join(parent, 'home');
    bin = path.join(parent, 'bin');
    privateRoot = path.join(parent, 'private');
    for (const folder of [root, home, bin]) fs.mkdirSync(folder, { recursive: true });
  });
  afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

  const request = (over: Partial<CacheRequest> = {}): CacheRequest => ({ env: { PATH: bin }, home, platform: 'linux', privateRoot, real: [], writable: [root], hidden: [path.join(home, '.ssh'), path.join(home, '.npmrc')], ...over });
  const ctx = () => testContext({ root, workspace: { home } });
  const program = (name: string) => fs.writeFileSync(path.join(bin, name), '', { mode: 0o755 });

  it('binds npm\'s cache and the XDG cache from private copies, and a tool\'s cache only when the tool is on PATH or its folder exists', async () => {
    program('npm');
    program('cargo');
    fs.mkdirSync(path.join(home, '.m2', 'repository'), { recursive: true });
    const binds = await cacheBinds(ctx(), request());
    const byId = Object.fromEntries(binds.map((bind) => [bind.id, bind]));
    assert.deepEqual(Object.keys(byId).sort(), ['cache', 'cargo-git', 'cargo-registry', 'maven', 'npm']);
    program('pnpm');
    const pnpm = (await cacheBinds(ctx(), request())).find((bind) => bind.id === 'pnpm-store');
    assert.equal(pnpm?.target, path.join(home, '.local', 'share', 'pnpm', 'store'), 'the store, not PNPM_HOME, which is on PATH');
    assert.deepEqual(byId.npm, { id: 'npm', target: path.join(home, '.npm'), source: path.join(privateRoot, 'npm'), real: false });
    assert.equal(byId.cache.target, path.join(home, '.cache'));
    assert.equal(byId['cargo-registry'].target, path.join(home, '.cargo', 'registry'));
    assert.equal(byId.maven.source, path.join(privateRoot, 'maven'));
  });

  it('binds the real folder for the caches runCommand.realCaches names, and follows the variables that move a cache', async () => {
    program('go');
    program('npm');
    const binds = await cacheBinds(ctx(), request({ real: ['npm'], env: { PATH: bin, npm_config_cache: '/opt/npm-cache', GOMODCACHE: '/opt/gomod', XDG_CACHE_HOME: '/opt/xdg' } }));
    const byId = Object.fromEntries(binds.map((bind) => [bind.id, bind]));
    assert.deepEqual(byId.npm, { id: 'npm', target: '/opt/npm-cache', source: '/opt/npm-cache', real: true });
    assert.equal(byId['go-modules'].target, '/opt/gomod');
    assert.equal(byId.cache.target, '/opt/xdg');
    assert.equal(byId['go-build'], undefined, 'go build\'s cache is in the XDG cache unless GOCACHE moves it');
    assert.ok((await cacheBinds(ctx(), request({ real: ['*'] }))).every((bind) => bind.real && bind.source === bind.target));
  });

  it('binds no cache that holds or lies in the workspace, the home folder or a hidden folder', async () => {
    const binds = await cacheBinds(ctx(), request({ env: { PATH: bin, npm_config_cache: path.join(root, '.npm-cache'), XDG_CACHE_HOME: home } }));
    assert.deepEqual(binds.map((bind) => bind.id), []);
    const hidden = await cacheBinds(ctx(), request({ env: { PATH: bin, XDG_CACHE_HOME: path.join(home, '.ssh', 'c') } }));
    assert.deepEqual(hidden.map((bind) => bind.id), []);
    assert.deepEqual(await cacheBinds(ctx(), request({ privateRoot: undefined })), []);
    program('npm');
    const onPath = await cacheBinds(ctx(), request({ searchPath: [path.join(home, '.npm', 'bin'), path.join(home, '.cache')] }));
    assert.deepEqual(onPath.map((bind) => bind.id), [], 'a cache that holds or is a PATH folder is left alone');
  });

  it('points the tools at the private copies where the sandbox cannot bind (Seatbelt), and lets them write there', async () => {
    program('npm');
    const binds = await cacheBinds(ctx(), request({ platform: 'darwin' }));
    assert.equal(binds.find((bind) => bind.id === 'cache')?.target, path.join(home, 'Library', 'Caches'));
    assert.deepEqual(cacheVariables(binds), { npm_config_cache: path.join(privateRoot, 'npm'), XDG_CACHE_HOME: path.join(privateRoot, 'cache') });
    const profile = seatbeltProfile({ writable: [root], pinned: [], readOnly: [], readOnlyMissing: [], hiddenDirectories: [], hiddenFiles: [], emptiedRuntime: [], keptRuntime: [], caches: binds, tempDirectory: '/tmp/t', emptyDirectory: '/tmp/e', network: false });
    // Read as macOS would (test/unit/support/seatbeltEvaluator.ts): the private copy is writable, the real folder is not.
    const evaluated = new SeatbeltProfile(profile);
    assert.ok(evaluated.allowsAll(WRITES, path.join(privateRoot, 'npm', '_cacache', 'x')));
    assert.ok(evaluated.refusesAll(WRITES, path.join(home, '.npm', 'x')));
  });

  it('binds each cache after the workspace and before the secrets, so none uncovers a secret', () => {
    const args = bubblewrapLauncher('bwrap', { writable: [root], pinned: [], readOnly: [], readOnlyMissing: [], hiddenDirectories: [path.join(home, '.ssh')], hiddenFiles: [], emptiedRuntime: [], keptRuntime: [], caches: [{ id: 'npm', target: path.join(home, '.npm'), source: path.join(privateRoot, 'npm'), real: false }], tempDirectory: '/tmp/t', emptyDirectory: '/tmp/e', network: false }, root);
    const bind = args.indexOf(path.join(privateRoot, 'npm'));
    assert.equal(args[bind - 1], '--bind');
    assert.equal(args[bind + 1], path.join(home, '.npm'));
    assert.ok(bind > args.indexOf(root) && bind < args.indexOf(path.join(home, '.ssh')));
  });

  it('lets a sandboxed command write its cache into the private copy, which the real folder never sees', async function () {
    const sandbox = new MachineSandbox(RIPGREP, [], 'linux', { cacheDirectory: privateRoot });
    if ((await sandbox.availability('')).kind !== 'bubblewrap') this.skip();
    program('npm');
    try {
      const context = testContext({ root, workspace: { home }, settings: { ...DEFAULT_SETTINGS } });
      const lease = await acquireSandboxLease(context, sandbox, { sandbox: { kind: 'bubblewrap', executable: '/usr/bin/bwrap' }, network: false, cwd: root, env: { PATH: `${bin}:/usr/bin:/bin` } });
      try {
        // bubblewrap reads its options on fd 3 (`--args 3`), as the process runner gives them.
        const options = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wat-args-')), 'options');
        fs.writeFileSync(options, lease.launch.input ?? '');
        const fd = fs.openSync(options, 'r');
        try {
          const out = execFileSync(lease.launch.argv[0], [...lease.launch.argv.slice(1), '/bin/sh', '-c', 'echo poisoned > ~/.npm/entry && mkdir -p ~/.cache/pip && echo wheel > ~/.cache/pip/w && cat ~/.npm/entry'], { env: { HOME: home, PATH: '/usr/bin:/bin' }, stdio: ['pipe', 'pipe', 'pipe', fd] }).toString();
          assert.equal(out, 'poisoned\n');
        } finally {
          fs.closeSync(fd);
          fs.rmSync(path.dirname(options), { recursive: true, force: true });
        }
      } finally {
        await lease.release();
      }
      assert.equal(fs.readFileSync(path.join(privateRoot, 'npm', 'entry'), 'utf8'), 'poisoned\n');
      assert.equal(fs.readFileSync(path.join(privateRoot, 'cache', 'pip', 'w'), 'utf8'), 'wheel\n');
      assert.deepEqual(fs.readdirSync(path.join(home, '.npm')), [], 'the real folder is only the mount point');
      assert.equal(fs.statSync(path.join(privateRoot, 'npm')).mode & 0o777, 0o700);
    } finally {
      sandbox.dispose();
    }
  });
});
