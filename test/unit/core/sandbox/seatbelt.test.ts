import * as assert from 'node:assert/strict';
import type { SandboxPlan } from '../../../../src/core/sandbox/plan';
import { profileString, seatbeltLauncher, seatbeltProfile } from '../../../../src/core/sandbox/seatbelt';

const plan: SandboxPlan = {
  writable: ['/Users/u/project'],
  readOnly: ['/Users/u/project/.vscode'],
  readOnlyMissing: [],
  pinned: [],
  emptiedRuntime: [],
  keptRuntime: [],
  caches: [],
  hiddenDirectories: ['/Users/u/.ssh'],
  hiddenFiles: ['/Users/u/.netrc'],
  tempDirectory: '/private/var/folders/xy/T/wat-sandbox-1/tmp',
  emptyDirectory: '/private/var/folders/xy/T/wat-sandbox-1/empty',
  network: false,
};

/** The rule of the profile that starts with `start`, through its balancing parenthesis (strings skipped). */
function rule(profile: string, start: string): string {
  const from = profile.indexOf(start);
  assert.ok(from >= 0, `no rule starting ${start} in\n${profile}`);
  let depth = 0;
  for (let index = from; index < profile.length; index += 1) {
    const char = profile[index];
    if (char === '"') {
      for (index += 1; profile[index] !== '"'; index += profile[index] === '\\' ? 2 : 1);
    } else if (char === '(' || char === ')') {
      depth += char === '(' ? 1 : -1;
      if (depth === 0) {
        return profile.slice(from, index + 1);
      }
    }
  }
  assert.fail(`unbalanced rule starting ${start}`);
}

describe('sandbox/seatbelt', () => {
  const profile = seatbeltProfile(plan);

  it('forbids every write, then allows the workspace and the private temp folder, then protects execution config (last match wins)', () => {
    const denyAll = profile.indexOf('(deny file-write*)');
    const allow = profile.indexOf('(allow file-write*');
    const protect = profile.indexOf('(deny file-write*\n');
    assert.ok(denyAll >= 0 && denyAll < allow && allow < protect, profile);
    const allowed = rule(profile, '(allow file-write*');
    assert.match(allowed, /\(subpath "\/Users\/u\/project"\)/);
    assert.match(allowed, /\(subpath "\/private\/var\/folders\/xy\/T\/wat-sandbox-1\/tmp"\)/);
    const protectedRule = rule(profile, '(deny file-write*\n');
    assert.match(protectedRule, /\(subpath "\/Users\/u\/project\/\.vscode"\)/);
    for (const name of ['config', 'hooks', 'vscode', 'workspace']) {
      assert.match(protectedRule, new RegExp(`require-all \\(subpath "/Users/u/project"\\) \\(regex #"[^"]*${[...name].map((char) => `\\[${char}${char.toUpperCase()}\\]`).join('')}`), name);
    }
  });

  it('hides the secrets after everything else, in any letter case, and reads the .env templates again', () => {
    const secrets = rule(profile, '(deny file-read* file-write*');
    assert.match(secrets, /\(subpath "\/Users\/u\/\.ssh"\)/);
    assert.match(secrets, /\(literal "\/Users\/u\/\.netrc"\)/);
    assert.match(secrets, /\(regex #"\/\\\.\[eE\]\[nN\]\[vV\]\\\.\[\^\/\]\*\$"\)/);
    assert.match(secrets, /\(regex #"\/\([^"]*\\\.\[eE\]\[nN\]\[vV\]\[rR\]\[cC\]\|/);
    assert.ok(profile.indexOf('(deny file-read* file-write*') > profile.indexOf('(deny file-write*\n'));
    assert.match(profile, /\(allow file-read\* \(regex #"[^"]*\(\[eE\]\[xX\]\[aA\]\[mM\]\[pP\]\[lL\]\[eE\]\|[^"]*\)\$"\)\)/);
  });

  it('cuts the network off, and lets an approved command reach only the proxy\'s loopback ports', () => {
    assert.match(profile, /\(deny network\*\)/);
    assert.doesNotMatch(profile, /allow network/);
    const noProxy = seatbeltProfile({ ...plan, network: true });
    assert.match(noProxy, /\(deny network\*\)/);
    assert.doesNotMatch(noProxy, /allow network/);
    const approved = seatbeltProfile({ ...plan, network: true, proxy: { transport: 'tcp', http: 50123, socks: 50124, local: [] } });
    assert.ok(approved.indexOf('(allow network-outbound') > approved.indexOf('(deny network*)'));
    assert.equal(rule(approved, '(allow network-outbound'), '(allow network-outbound\n  (remote ip "localhost:50123")\n  (remote ip "localhost:50124"))');
    assert.doesNotMatch(approved, /network-bind|network-inbound/);
  });

  it('lets an approved command reach the machine\'s loopback ports already allowed (it cannot ask), and a background command listen on loopback only', () => {
    const approved = seatbeltProfile({ ...plan, network: true, proxy: { transport: 'tcp', http: 50123, socks: 50124, local: [5432, 8123] } });
    assert.equal(rule(approved, '(allow network-outbound'), '(allow network-outbound\n  (remote ip "localhost:50123")\n  (remote ip "localhost:50124")\n  (remote ip "localhost:5432")\n  (remote ip "localhost:8123"))');
    const unasked = seatbeltProfile({ ...plan, proxy: { transport: 'tcp', http: 50123, socks: 50124, local: [5432] } });
    assert.doesNotMatch(unasked, /allow network/);
    const serving = seatbeltProfile({ ...plan, serves: true });
    assert.equal(rule(serving, '(allow network-bind'), '(allow network-bind network-inbound\n  (local ip "localhost:*"))');
    assert.ok(serving.indexOf('(allow network-bind') > serving.indexOf('(deny network*)'));
    assert.doesNotMatch(serving, /network-outbound/);
  });

  it('refuses an approved command every unix socket (hidden sockets, the emptied runtime folders), which a connect reaches without reading a file', () => {
    const approved = seatbeltProfile({ ...plan, network: true, proxy: { transport: 'tcp', http: 50123, socks: 50124, local: [] }, hiddenFiles: ['/private/tmp/agent.sock'], emptiedRuntime: ['/run/user/501'] });
    assert.match(approved, /\(deny network\*\)/);
    assert.doesNotMatch(approved, /unix-socket|allow network\*|allow network-outbound \(literal/);
  });

  it('escapes quotes and backslashes of paths, so a folder name cannot end a string early', () => {
    assert.equal(profileString('/a"b\\c'), '"/a\\"b\\\\c"');
    const odd = seatbeltProfile({ ...plan, writable: ['/Users/u/x") (allow default'] });
    assert.match(odd, /\(subpath "\/Users\/u\/x\\"\) \(allow default"\)/);
  });

  it('is passed to sandbox-exec with -p', () => {
    assert.deepEqual(seatbeltLauncher('/usr/bin/sandbox-exec', plan), ['/usr/bin/sandbox-exec', '-p', profile]);
  });
});
