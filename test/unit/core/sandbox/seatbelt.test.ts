// Every rule of the Seatbelt profile, proven on a realistic plan by the test-only evaluator of the
// profile language (test/unit/support/seatbeltEvaluator.ts): for each rule a case it allows and a
// neighbouring case it refuses. No Mac runs here: this is what the profile means if the evaluator
// reads the language as macOS does (see docs/sandbox.md, "macOS").
import * as assert from 'node:assert/strict';
import { ToolError } from '../../../../src/core/errors';
import { SEATBELT_MAX_PROFILE_BYTES, sandboxLaunch } from '../../../../src/core/sandbox/launcher';
import type { SandboxPlan } from '../../../../src/core/sandbox/plan';
import { profileString, seatbeltLauncher, seatbeltProbeProfile, seatbeltProfile } from '../../../../src/core/sandbox/seatbelt';
import { readProfile, READS, SeatbeltProfile, WRITES } from '../../support/seatbeltEvaluator';

const home = '/Users/u';
const work = `${home}/work/a`;
const plan: SandboxPlan = {
  // A workspace folder, and ~/.config named writable by a setting (its git and fish folders stay read-only).
  writable: [work, `${home}/.config`],
  pinned: [`${work}/tools`],
  readOnly: [`${work}/.git/config`, `${work}/.git/hooks`, `${work}/.vscode`, `${work}/tools/hook-target.sh`, `${home}/.config/git`],
  readOnlyMissing: [`${home}/.config/fish`],
  hiddenDirectories: [`${home}/.ssh`, `${home}/.aws`, `${home}/Library/Application Support/Code/User/globalStorage/x.workspace-agent-tools`],
  // A home credential, a workspace secret the walk found, the ssh agent's socket, a system secret as the table names it.
  hiddenFiles: [`${home}/.netrc`, `${work}/config/.env.production`, '/private/tmp/com.apple.launchd.abc/Listeners', '/etc/sudoers'],
  emptiedRuntime: ['/private/var/run'],
  keptRuntime: [],
  caches: [{ id: 'npm', target: `${home}/.npm`, source: `${home}/Library/Caches/workspace-agent-tools/sandbox-caches/npm`, real: false }],
  tempDirectory: '/private/var/folders/xy/abc/T/wat-sandbox-1/tmp',
  emptyDirectory: '/private/var/folders/xy/abc/T/wat-sandbox-1/empty',
  network: false,
};

const proxy = { transport: 'tcp' as const, http: 50123, socks: 50124, local: [5432] };

describe('sandbox/seatbelt: every rule, evaluated', () => {
  const profile = new SeatbeltProfile(seatbeltProfile(plan));
  const writable = (p: string): boolean => profile.allowsAll(WRITES, p);
  const notWritable = (p: string): boolean => profile.refusesAll(WRITES, p);
  const readable = (p: string): boolean => profile.allowsAll(READS, p);
  const hidden = (p: string): boolean => profile.refusesAll([...READS, ...WRITES], p);

  it('reads everything outside the secrets, and writes nowhere but where the plan says', () => {
    assert.ok(readable('/usr/bin/git') && readable(`${home}/Documents/notes.txt`) && readable(`${work}/src/index.ts`));
    for (const p of ['/usr/local/bin/x', `${home}/Documents/notes.txt`, `${home}/.zshrc`, `${home}/work`, '/private/tmp/x', '/Applications/x']) {
      assert.ok(notWritable(p), p);
    }
  });

  it('writes in each workspace folder and below it, not in a sibling whose name starts the same', () => {
    assert.ok(writable(work) && writable(`${work}/src/index.ts`) && writable(`${work}/.gitignore`));
    assert.ok(notWritable(`${work}b/x`) && notWritable(`${home}/work/ab`));
    assert.ok(writable(`${home}/.config/nvim/init.lua`) && notWritable(`${home}/.configx/y`));
  });

  it('writes in the private temp folder and the caches, not beside them', () => {
    assert.ok(writable(`${plan.tempDirectory}/build/x.o`) && notWritable('/private/var/folders/xy/abc/T/wat-sandbox-1/other'));
    assert.ok(writable(`${plan.caches[0].source}/_cacache/x`) && notWritable(`${home}/Library/Caches/workspace-agent-tools/sandbox-caches/pip/x`));
    assert.ok(notWritable(`${home}/.npm/x`), 'the real cache folder is not the private copy');
  });

  it('writes the devices a shell needs, and no other device', () => {
    for (const device of ['/dev/null', '/dev/zero', '/dev/tty', '/dev/stdout', '/dev/stderr', '/dev/fd/1', '/dev/fd/12']) {
      assert.ok(writable(device), device);
    }
    for (const device of ['/dev/disk0', '/dev/nullx', '/dev/ttys000', '/dev/fdx', '/x/dev/fd/1']) {
      assert.ok(notWritable(device), device);
    }
  });

  it('keeps the plan\'s read-only entries read-only (existing and missing, files and folders) and readable', () => {
    for (const p of [`${work}/tools/hook-target.sh`, `${home}/.config/git/config`, `${home}/.config/git`, `${home}/.config/fish/config.fish`, `${home}/.config/fish`]) {
      assert.ok(notWritable(p), p);
      assert.ok(readable(p), p);
    }
    assert.ok(writable(`${work}/tools/other.sh`) && writable(`${home}/.config/gitx`) && writable(`${home}/.config/fishy`));
  });

  it('keeps execution config read-only at any depth and in any letter case, not names that only look alike', () => {
    const refused = [
      '.vscode', '.vscode/tasks.json', '.VSCODE/Tasks.json', 'sub/deep/.vscode/settings.json', 'a.code-workspace', 'sub/X.Code-Workspace',
      '.gitmodules', 'sub/.GITATTRIBUTES', '.git', 'vendor/lib/.git', 'sub/.gitconfig',
      '.git/config', '.GIT/CONFIG', 'sub/.git/config', '.git/hooks/x', '.GIT/HOOKS/x', '.git/hooks', 'nested/repo/.git/hooks/pre-commit',
      '.git/config.worktree', '.git/commondir', '.git/info/attributes', '.git/worktrees/w/HEAD',
      'bare.git/config', 'bare.git/hooks/post-update', '.git/modules/lib/config', '.git/modules/a/b/hooks/x', '.git/modules/lib/modules/inner/config',
    ];
    // In each writable folder: the workspace, and a repository kept in the writable ~/.config.
    for (const base of [work, `${home}/.config/proj`]) {
      for (const p of refused) {
        assert.ok(notWritable(`${base}/${p}`), `${base}/${p}`);
      }
    }
    const allowed = [
      'src/git/hooks', 'src/git/hooks/x', 'src/git/config', '.vscodex/x', 'x.vscode/y', 'a.code-workspace.bak', '.gitmodules.bak', '.git/HEAD', '.git/objects/ab/cd',
      '.git/index', '.git/info/exclude', '.git/modules/lib/HEAD', 'hooks/x', 'config', 'gitconfig', 'notbare.gitx/config',
    ];
    for (const base of [work, `${home}/.config/proj`]) {
      for (const p of allowed) {
        assert.ok(writable(`${base}/${p}`), `${base}/${p}`);
      }
    }
  });

  it('hides the secret folders and files of the plan, reads and writes alike, not their neighbours', () => {
    for (const p of [`${home}/.ssh`, `${home}/.ssh/id_ed25519`, `${home}/.aws/credentials`, `${home}/.netrc`, `${work}/config/.env.production`, `${plan.hiddenDirectories[2]}/state.vscdb`]) {
      assert.ok(hidden(p), p);
    }
    for (const p of [`${home}/.sshx/y`, `${home}/.netrcx`, `${home}/.aws2/x`, `${home}/Library/Application Support/Code/User/settings.json`]) {
      assert.ok(readable(p), p);
    }
  });

  it('hides the system secrets the table names under /etc, which macOS resolves to /private/etc', () => {
    assert.ok(hidden('/etc/sudoers'));
    assert.ok(hidden('/private/etc/sudoers'));
    assert.ok(readable('/etc/hosts'));
  });

  it('hides the emptied runtime folder and the agent socket, not what lies beside them', () => {
    assert.ok(hidden('/private/var/run/docker.sock') && hidden('/var/run/docker.sock') && hidden('/tmp/com.apple.launchd.abc/Listeners'));
    assert.ok(readable('/private/var/runx') && readable('/private/tmp/com.apple.launchd.abc/Other'));
  });

  it('hides secret file names anywhere, at any depth and in any case; the committed templates stay readable', () => {
    for (const p of ['.env', '.ENV', 'sub/deep/.env', '.env.local', '.Env.Production', '.envrc', '.netrc', '_netrc', '.npmrc', '.pypirc', '.git-credentials', '.env.example.local']) {
      assert.ok(hidden(`${work}/${p}`), p);
      assert.ok(hidden(`/opt/elsewhere/${p}`), `${p} outside the workspace`);
    }
    for (const p of ['x.env', '.environment', 'env', '.envrc.d/x', '.npmrcx']) {
      assert.ok(readable(`${work}/${p}`) && writable(`${work}/${p}`), p);
    }
    for (const p of ['.env.example', '.ENV.EXAMPLE', 'sub/.env.sample', '.env.template', '.env.dist', '.env.defaults', '.env.local.example']) {
      assert.ok(readable(`${work}/${p}`), p);
    }
  });

  it('lets a command edit a committed .env template in the workspace (as bubblewrap does), not outside it nor inside protected config', () => {
    assert.ok(writable(`${work}/.env.example`) && writable(`${work}/sub/.ENV.Sample`) && writable(`${home}/.config/app/.env.example`));
    assert.ok(notWritable(`${home}/.env.example`) && notWritable('/opt/elsewhere/.env.example'));
    assert.ok(notWritable(`${work}/.vscode/.env.example`));
  });

  it('does not let a template name open a hidden folder', () => {
    assert.ok(hidden(`${home}/.ssh/.env.example`));
    assert.ok(hidden(`${home}/.aws/.env.sample`));
  });

  it('refuses a hard link to a secret or to protected config (the link would be a second name the rules do not match), and a clone of a secret', () => {
    for (const p of [`${work}/.env`, `${home}/.ssh/id_ed25519`, `${home}/.netrc`, `${work}/.git/config`, `${work}/.vscode/tasks.json`, `${work}/tools/hook-target.sh`]) {
      assert.equal(profile.allows('file-link', p), false, p);
    }
    for (const p of [`${work}/.env`, `${home}/.aws/credentials`]) {
      assert.equal(profile.allows('file-clone', p), false, p);
    }
    assert.ok(profile.allows('file-link', `${work}/src/index.ts`) && profile.allows('file-clone', `${work}/src/index.ts`));
  });

  it('keeps each folder that holds a read-only entry from being renamed or removed, while writing inside it', () => {
    assert.ok(notWritable(`${work}/tools`), 'mv tools x && mkdir tools would replace the read-only entry');
    assert.ok(writable(`${work}/tools/new.sh`));
  });

  it('reads a kept runtime folder inside an emptied one, nothing else there', () => {
    const kept = new SeatbeltProfile(seatbeltProfile({ ...plan, emptiedRuntime: ['/run/user/501'], keptRuntime: ['/run/user/501/resolve'] }));
    assert.ok(kept.allowsAll(READS, '/run/user/501/resolve/resolv.conf'));
    assert.ok(kept.refusesAll(READS, '/run/user/501/bus') && kept.refusesAll(WRITES, '/run/user/501/resolve/resolv.conf'));
  });

  it('connects nowhere and listens nowhere: the plan is of a command that ran without asking', () => {
    assert.equal(profile.allows('network-outbound', { host: '127.0.0.1', port: 80 }), false);
    assert.equal(profile.allows('network-bind', { host: 'localhost', port: 3000 }), false);
  });

  it('has no rule, nor filter of a rule, that decided none of the cases above', () => {
    assert.deepEqual(profile.unexercised(), []);
  });

  describe('the network', () => {
    const outbound = (p: SeatbeltProfile, host: string, port: number): boolean => p.allows('network-outbound', { host, port });

    it('is off for a command that ran without asking: no loopback, no proxy, no unix socket, no listening', () => {
      const off = new SeatbeltProfile(seatbeltProfile({ ...plan, proxy }));
      for (const [host, port] of [['localhost', 50123], ['127.0.0.1', 5432], ['93.184.215.14', 443], ['::1', 80]] as const) {
        assert.equal(outbound(off, host, port), false, `${host}:${port}`);
      }
      assert.equal(off.allows('network-outbound', { unixSocket: '/private/var/run/docker.sock' }), false);
      assert.equal(off.allows('network-bind', { host: 'localhost', port: 3000 }), false);
      assert.equal(off.allows('network-inbound', { host: 'localhost', port: 3000 }), false);
    });

    it('is off for an approved command when there is no proxy', () => {
      const noProxy = new SeatbeltProfile(seatbeltProfile({ ...plan, network: true }));
      assert.equal(outbound(noProxy, 'localhost', 50123), false);
      assert.equal(outbound(noProxy, '93.184.215.14', 443), false);
    });

    it('reaches only the proxy\'s two loopback ports and the allowed local ports for an approved command', () => {
      const approved = new SeatbeltProfile(seatbeltProfile({ ...plan, network: true, proxy }));
      for (const [host, port] of [['localhost', 50123], ['127.0.0.1', 50124], ['::1', 50123], ['127.0.0.1', 5432]] as const) {
        assert.equal(outbound(approved, host, port), true, `${host}:${port}`);
      }
      for (const [host, port] of [['localhost', 50125], ['127.0.0.1', 5433], ['10.0.0.1', 50123], ['93.184.215.14', 443], ['192.168.1.2', 5432]] as const) {
        assert.equal(outbound(approved, host, port), false, `${host}:${port}`);
      }
      assert.equal(approved.allows('network-outbound', { unixSocket: '/private/tmp/com.apple.launchd.abc/Listeners' }), false);
      assert.equal(approved.allows('network-bind', { host: 'localhost', port: 3000 }), false);
      assert.deepEqual(approved.unexercised().filter((text) => /network|ip "/.test(text)), []);
    });

    it('lets a background command listen and be reached on loopback only', () => {
      const serving = new SeatbeltProfile(seatbeltProfile({ ...plan, serves: true }));
      assert.ok(serving.allows('network-bind', { host: 'localhost', port: 3000 }) && serving.allows('network-inbound', { host: '127.0.0.1', port: 3000 }));
      assert.equal(serving.allows('network-bind', { host: '0.0.0.0', port: 3000 }), false);
      assert.equal(serving.allows('network-inbound', { host: '192.168.1.2', port: 3000 }), false);
      assert.equal(outbound(serving, 'localhost', 3000), false);
      assert.deepEqual(serving.unexercised().filter((text) => /network|ip "/.test(text)), []);
    });
  });

  it('is passed whole to sandbox-exec -p', () => {
    assert.deepEqual(seatbeltLauncher('/usr/bin/sandbox-exec', plan), ['/usr/bin/sandbox-exec', '-p', seatbeltProfile(plan)]);
  });
});

describe('sandbox/seatbelt: paths macOS spells otherwise, and odd paths', () => {
  it('names /tmp, /var and /etc paths as the kernel sees them (/private/...), so their rules match', () => {
    const spelled = new SeatbeltProfile(seatbeltProfile({ ...plan, writable: ['/tmp/ws'], readOnly: ['/tmp/ws/tools/x'], pinned: [], readOnlyMissing: [], tempDirectory: '/var/folders/xy/abc/T/wat-sandbox-1/tmp', hiddenFiles: ['/etc/sudoers'], hiddenDirectories: ['/var/db/secret'] }));
    assert.ok(spelled.allowsAll(WRITES, '/tmp/ws/a') && spelled.allowsAll(WRITES, '/private/tmp/ws/a'));
    assert.ok(spelled.refusesAll(WRITES, '/tmp/ws/.git/config') && spelled.refusesAll(WRITES, '/private/tmp/ws/tools/x'));
    assert.ok(spelled.allowsAll(WRITES, '/var/folders/xy/abc/T/wat-sandbox-1/tmp/x'));
    assert.ok(spelled.refusesAll(READS, '/etc/sudoers') && spelled.refusesAll(READS, '/private/var/db/secret/x'));
    assert.ok(spelled.refusesAll(WRITES, '/private/tmp/other'));
    assert.doesNotMatch(seatbeltProfile({ ...plan, writable: ['/tmp/ws', '/private/tmp/ws'] }), /"\/tmp\/ws"/);
  });

  it('allows no write at all where the plan has no writable folder (a rule without filters would cover every path)', () => {
    const none = new SeatbeltProfile(seatbeltProfile({ ...plan, writable: [], readOnly: [], readOnlyMissing: [], pinned: [], hiddenDirectories: [], hiddenFiles: [], emptiedRuntime: [], caches: [] }));
    assert.ok(none.refusesAll(WRITES, `${work}/x`) && none.refusesAll(WRITES, `${work}/.env.example`) && none.refusesAll(WRITES, '/x'));
    assert.ok(none.allowsAll(WRITES, `${plan.tempDirectory}/x`));
    assert.ok(none.refusesAll(READS, `${work}/.env`) && none.allowsAll(READS, `${work}/x`));
  });

  it('escapes quotes and backslashes, keeps newlines and unicode, so a folder name cannot end a string early or add a rule', () => {
    assert.equal(profileString('/a"b\\c'), '"/a\\"b\\\\c"');
    for (const odd of [`${home}/x") (allow file-write* (subpath "/y`, `${home}/back\\slash\\`, `${home}/new\nline`, `${home}/Café/項目`, `${home}/soup.*+?^$()[]{}|\\1`, `${home}/quote"`]) {
      const text = seatbeltProfile({ ...plan, writable: [odd], readOnly: [`${odd}/tools/x`], pinned: [`${odd}/tools`], readOnlyMissing: [], hiddenFiles: [`${odd}/secret`] });
      const profile = new SeatbeltProfile(text);
      assert.ok(profile.allowsAll(WRITES, `${odd}/src/a.ts`), odd);
      assert.ok(profile.refusesAll(WRITES, `${odd}x/a`) && profile.refusesAll(WRITES, '/usr/x') && profile.refusesAll(WRITES, `${home}/y`), odd);
      assert.ok(profile.refusesAll(WRITES, `${odd}/tools/x`) && profile.refusesAll(WRITES, `${odd}/tools`) && profile.allowsAll(WRITES, `${odd}/tools/y`), odd);
      assert.ok(profile.refusesAll(WRITES, `${odd}/.git/hooks/x`) && profile.refusesAll(WRITES, `${odd}/.VSCODE/x`), odd);
      assert.ok(profile.refusesAll(READS, `${odd}/secret`) && profile.refusesAll(READS, `${odd}/.env`) && profile.allowsAll(READS, `${odd}/.env.example`), odd);
      // The path goes into strings only, never into a regex.
      assert.ok(!/#"[^"]*(Café|soup|back|new)/.test(text), odd);
    }
  });
});

/** The profile's plan for a workspace with `count` read-only entries, secret files of other names and pinned folders each. */
function crowdedPlan(count: number): SandboxPlan {
  const entries = Array.from({ length: count }, (_, index) => `${work}/packages/package-${index}/tools/generated/hook-target-${index}.sh`);
  return {
    ...plan,
    readOnly: entries,
    hiddenFiles: entries.map((entry) => entry.replace(/hook-target-(\d+)\.sh$/, 'linked-secret-$1')),
    pinned: entries.map((entry) => entry.replace(/\/[^/]+$/, '')),
  };
}

describe('sandbox/seatbelt: size', () => {
  it('hides a workspace\'s thousands of .env files by their names, without a rule each', () => {
    const envs = Array.from({ length: 12_000 }, (_, index) => `${work}/fixtures/p${index}/.env`);
    const text = seatbeltProfile({ ...plan, hiddenFiles: [...plan.hiddenFiles, ...envs] });
    assert.ok(text.length < seatbeltProfile(plan).length + 100, `${text.length} characters`);
    const profile = new SeatbeltProfile(text);
    assert.ok(profile.refusesAll([...READS, ...WRITES, 'file-link', 'file-clone'], envs[0]) && profile.refusesAll(READS, envs[11_999]));
    // A secret file inside a runtime folder read again keeps its own rule (as bubblewrap binds /dev/null there).
    assert.doesNotMatch(text, /literal "[^"]*\/\.env"/);
    const kept = new SeatbeltProfile(seatbeltProfile({ ...plan, emptiedRuntime: ['/run/user/501'], keptRuntime: ['/run/user/501/resolve'], hiddenFiles: ['/run/user/501/resolve/.env'] }));
    assert.ok(kept.refusesAll(READS, '/run/user/501/resolve/.env') && kept.allowsAll(READS, '/run/user/501/resolve/resolv.conf'));
  });

  it('stays readable by the evaluator and under sandbox-exec\'s limit with 1,000 listed entries of each kind', () => {
    const crowded = crowdedPlan(1000);
    const profile = new SeatbeltProfile(seatbeltProfile(crowded));
    assert.ok(profile.refusesAll(WRITES, `${work}/packages/package-999/tools/generated/hook-target-999.sh`));
    assert.ok(profile.refusesAll(READS, `${work}/packages/package-999/tools/generated/linked-secret-999`));
    const launch = sandboxLaunch({ kind: 'seatbelt', executable: '/usr/bin/sandbox-exec' }, crowded, work);
    assert.ok(new TextEncoder().encode(launch.argv[2]).length <= SEATBELT_MAX_PROFILE_BYTES);
  });

  it('refuses a profile larger than sandbox-exec takes, naming how many entries, where most are and the ways out', () => {
    assert.throws(() => sandboxLaunch({ kind: 'seatbelt', executable: '/usr/bin/sandbox-exec' }, crowdedPlan(5000), work), (error: Error) => {
      assert.ok(error instanceof ToolError);
      assert.match(error.message, /macOS's sandbox takes .* as one argument of at most 512 KiB; this workspace needs [\d,]+ KiB for 5,000 secret files \(\.env and the like; 5,000 under \/Users\/u\/work\/a\/packages\), 5,001 protected entries/);
      assert.match(error.message, /most are under \/Users\/u\/work\/a\/packages/);
      assert.match(error.message, /permissions: "unsandboxed"/);
      return true;
    });
  });
});

/** Each rule of a profile as its shapes: the action and operations with each filter, strings and regexes as their kinds. */
function shapes(text: string): Set<string> {
  type Datum = ReturnType<typeof readProfile>[number];
  const shape = (datum: Datum): string => (datum.kind === 'list' ? `(${datum.items.map(shape).join(' ')})` : datum.kind === 'symbol' ? datum.name : datum.kind);
  const found = new Set<string>();
  for (const rule of readProfile(text)) {
    const items = rule.kind === 'list' ? rule.items : [];
    const head = items.filter((item) => item.kind !== 'list').map(shape).join(' ');
    const filters = items.filter((item) => item.kind === 'list');
    if (filters.length === 0) {
      found.add(head);
    }
    for (const filter of filters) {
      found.add(`${head} ${shape(filter)}`);
    }
  }
  return found;
}

describe('sandbox/seatbelt: the probe at activation', () => {
  it('has every kind of rule and filter a command\'s profile has, so a macOS that reads one of them differently fails the probe, not every command', () => {
    const probe = shapes(seatbeltProbeProfile());
    const full = seatbeltProfile({ ...plan, hiddenTargets: ['/Users/u/dotfiles/aws'], emptiedRuntime: ['/run/user/501'], keptRuntime: ['/run/user/501/resolve'], network: true, proxy, serves: true });
    for (const kind of shapes(full)) {
      assert.ok(probe.has(kind), `the probe lacks ${kind}`);
    }
    assert.ok(new SeatbeltProfile(seatbeltProbeProfile()).allows('file-read-data', '/usr/bin/true'));
  });
});
