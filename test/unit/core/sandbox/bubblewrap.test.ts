import * as assert from 'node:assert/strict';
import { ToolError } from '../../../../src/core/errors';
import { BUBBLEWRAP_MAX_ARGUMENTS, PROXY_MOUNT, argumentFile, bubblewrapLaunch, bubblewrapLauncher, environmentOptions } from '../../../../src/core/sandbox/bubblewrap';
import { sandboxLaunch } from '../../../../src/core/sandbox/launcher';
import type { SandboxPlan } from '../../../../src/core/sandbox/plan';

const plan: SandboxPlan = {
  writable: ['/tmp/ws'],
  readOnly: ['/tmp/ws/.git/config', '/tmp/ws/.vscode'],
  readOnlyMissing: ['/tmp/ws/.git/hooks'],
  pinned: [],
  emptiedRuntime: [],
  keptRuntime: [],
  caches: [],
  hiddenDirectories: ['/home/u/.ssh'],
  hiddenFiles: ['/tmp/ws/.env'],
  tempDirectory: '/tmp/wat-sandbox-x/tmp',
  emptyDirectory: '/tmp/wat-sandbox-x/empty',
  network: false,
};

/** The index of the first occurrence of a run of arguments, or -1. */
function indexOfRun(args: readonly string[], run: readonly string[]): number {
  return args.findIndex((_, index) => run.every((word, offset) => args[index + offset] === word));
}

describe('sandbox/bubblewrap', () => {
  it('binds the root read-only, then /tmp, then the workspace, then its protected entries, then hides secrets', () => {
    const args = bubblewrapLauncher('/usr/bin/bwrap', plan, '/tmp/ws/sub');
    const order = [
      ['--ro-bind', '/', '/'],
      ['--bind', '/tmp/wat-sandbox-x/tmp', '/tmp'],
      ['--bind', '/tmp/ws', '/tmp/ws'],
      ['--ro-bind', '/tmp/ws/.git/config', '/tmp/ws/.git/config'],
      ['--ro-bind', '/tmp/wat-sandbox-x/empty', '/tmp/ws/.git/hooks'],
      ['--tmpfs', '/home/u/.ssh', '--remount-ro', '/home/u/.ssh'],
      ['--ro-bind', '/dev/null', '/tmp/ws/.env'],
    ].map((run) => indexOfRun(args, run));
    assert.ok(order.every((index) => index >= 0), `missing a mount: ${JSON.stringify(order)}`);
    assert.deepEqual([...order].sort((a, b) => a - b), order, 'later mounts must cover earlier ones');
    assert.equal(args[0], '/usr/bin/bwrap');
    assert.deepEqual(args.slice(-3), ['--chdir', '/tmp/ws/sub', '--']);
  });

  it('gives every command its own network namespace and pid namespace; an approved one reaches only the proxy, through the relay', () => {
    assert.ok(bubblewrapLauncher('bwrap', plan, '/tmp/ws').includes('--unshare-net'));
    const noProxy = bubblewrapLauncher('bwrap', { ...plan, network: true }, '/tmp/ws');
    assert.ok(noProxy.includes('--unshare-net'));
    assert.equal(noProxy.at(-1), '--');
    const relay = { program: '/opt/code/node', script: '/ext/dist/proxyRelay.js' };
    const approved = bubblewrapLauncher('bwrap', { ...plan, network: true, proxy: { transport: 'unix', directory: '/tmp/wat-sandbox-x/proxy/c-1', relay, proxy: true, ports: false, local: [5432, 8123] } }, '/tmp/ws');
    assert.ok(approved.includes('--unshare-net') && approved.includes('--unshare-pid') && approved.includes('--die-with-parent'));
    const bind = approved.indexOf('/tmp/wat-sandbox-x/proxy/c-1');
    assert.deepEqual(approved.slice(bind - 1, bind + 2), ['--ro-bind', '/tmp/wat-sandbox-x/proxy/c-1', PROXY_MOUNT]);
    // The secrets are bound before the proxy folder, which is bound into bubblewrap's own /dev.
    assert.ok(bind > approved.lastIndexOf('/dev/null'));
    const command = approved.indexOf('--chdir') + 3;
    assert.equal(approved.at(-1), '--');
    assert.deepEqual(approved.slice(command, -2), ['/opt/code/node', '/ext/dist/proxyRelay.js']);
    assert.deepEqual(JSON.parse(approved.at(-2) as string), { http: { socket: `${PROXY_MOUNT}/http.sock`, port: 3128 }, socks: { socket: `${PROXY_MOUNT}/socks.sock`, port: 1080 }, local: [5432, 8123] });
    assert.deepEqual(approved.slice(approved.indexOf('ELECTRON_RUN_AS_NODE') - 1, approved.indexOf('ELECTRON_RUN_AS_NODE') + 2), ['--setenv', 'ELECTRON_RUN_AS_NODE', '1']);
    assert.equal(approved.filter((arg) => arg === '/opt/code').length, 0, 'a relay outside /tmp is seen at its own path');
    const underTmp = bubblewrapLauncher('bwrap', { ...plan, network: true, proxy: { transport: 'unix', directory: '/d', relay: { program: '/tmp/clone/.cache/node/bin/node', script: '/ext/dist/proxyRelay.js' }, proxy: true, ports: false, local: [] } }, '/tmp/ws');
    const nodeBind = underTmp.indexOf('/tmp/clone/.cache/node/bin');
    assert.deepEqual(underTmp.slice(nodeBind - 1, nodeBind + 2), ['--ro-bind', '/tmp/clone/.cache/node/bin', '/tmp/clone/.cache/node/bin']);
    assert.ok(nodeBind > underTmp.indexOf('/tmp'), 'bound after the private /tmp, which would cover it');
    // A plan without the network never gets the proxy nor the machine's ports, whatever its endpoint serves.
    const unasked = bubblewrapLauncher('bwrap', { ...plan, proxy: { transport: 'unix', directory: '/p', relay, proxy: true, ports: false, local: [5432] } }, '/tmp/ws');
    assert.ok(!unasked.some((arg) => arg.includes('http.sock') || arg.includes('5432')));
    assert.ok(!unasked.includes('HTTP_PROXY'));
    // A background command's relay only names its listening ports to the forwards' socket.
    const serving = bubblewrapLauncher('bwrap', { ...plan, serves: true, proxy: { transport: 'unix', directory: '/p', relay, proxy: false, ports: true, local: [] } }, '/tmp/ws');
    assert.deepEqual(serving.slice(serving.indexOf('--chdir') + 3), [relay.program, relay.script, JSON.stringify({ ports: `${PROXY_MOUNT}/ports.sock` }), '--']);
    assert.ok(serving.includes('--unshare-net'));
  });

  it('passes every option through bubblewrap\'s --args 3, so argv holds only the program, the separator and the relay', () => {
    const many: SandboxPlan = { ...plan, hiddenFiles: Array.from({ length: 2500 }, (_, index) => `/tmp/ws/${'deep/'.repeat(90)}p${index}/.env`) };
    const all = bubblewrapLauncher('/usr/bin/bwrap', many, '/tmp/ws');
    const launch = sandboxLaunch({ kind: 'bubblewrap', executable: '/usr/bin/bwrap' }, many, '/tmp/ws');
    assert.deepEqual(launch.argv, ['/usr/bin/bwrap', '--args', '3', '--']);
    assert.equal(launch.input, argumentFile(all.slice(1, -1)));
    assert.ok(Buffer.byteLength(launch.input ?? '') > 1024 * 1024, 'more than execve takes in argv');
    const relay = { program: '/usr/bin/node', script: '/ext/dist/proxyRelay.js' };
    const approved = bubblewrapLaunch('bwrap', { ...plan, network: true, proxy: { transport: 'unix', directory: '/p', relay, proxy: true, ports: false, local: [] } }, '/tmp/ws');
    assert.deepEqual(approved.argv.slice(0, 5), ['bwrap', '--args', '3', '--', relay.program]);
    assert.ok(!approved.argv.includes('--ro-bind'));
  });

  it("gives the command exactly its environment, when bubblewrap runs with another, leaving out the names /bin/sh would not pass on", () => {
    assert.deepEqual(environmentOptions({ PATH: '/usr/bin', _x: '', 'a-b': 'x', '1A': 'y', 'BASH_FUNC_f%%': '() { :; }', GONE: undefined, SPACED: 'a b\nc' }), ['--clearenv', '--setenv', 'PATH', '/usr/bin', '--setenv', '_x', '', '--setenv', 'SPACED', 'a b\nc']);
  });

  it('writes the argument file NUL-separated, spaces and newlines kept inside an argument', () => {
    assert.equal(argumentFile(['--ro-bind', '/dev/null', '/tmp/ws/a b\nc/.env']), '--ro-bind\0/dev/null\0/tmp/ws/a b\nc/.env\0');
    assert.deepEqual(argumentFile(['x y', 'z\n']).split('\0'), ['x y', 'z\n', '']);
    assert.throws(() => argumentFile(['a\0b']), /NUL/);
  });

  it('refuses a workspace with more secret files than bubblewrap takes mounts, naming how many, where most are and the ways out', () => {
    const secrets = Array.from({ length: 12_000 }, (_, index) => `/tmp/ws/fixtures/p${index}/.env`);
    const huge: SandboxPlan = { ...plan, hiddenFiles: [...plan.hiddenFiles, '/home/u/.netrc', ...secrets] };
    assert.throws(() => sandboxLaunch({ kind: 'bubblewrap', executable: '/usr/bin/bwrap' }, huge, '/tmp/ws'), (error: Error) => {
      assert.ok(error instanceof ToolError);
      assert.match(error.message, /12,001 secret files \(\.env and the like; 12,000 under \/tmp\/ws\/fixtures\)/);
      assert.match(error.message, /bubblewrap starts with at most 9,000 arguments/);
      assert.match(error.message, /move it out of the workspace folders \(most are under \/tmp\/ws\/fixtures\)/);
      assert.match(error.message, /permissions: "unsandboxed"/);
      return true;
    });
    // Up to the limit it starts: the home folder's secrets, the mounts every command has and the shell count too.
    const fits = sandboxLaunch({ kind: 'bubblewrap', executable: '/usr/bin/bwrap' }, { ...plan, hiddenFiles: secrets.slice(0, 2900) }, '/tmp/ws');
    assert.ok(fits.argv.length - 1 + (fits.input ?? '').split('\0').length - 1 + 3 <= BUBBLEWRAP_MAX_ARGUMENTS);
  });

  it('names the protected entries and the folders pinned around them when they are what overflows', () => {
    const vscode = Array.from({ length: 4000 }, (_, index) => `/tmp/ws/pkgs/p${index}/.vscode`);
    const huge: SandboxPlan = { ...plan, readOnly: vscode, pinned: ['/tmp/ws/pkgs', ...vscode.map((entry) => entry.slice(0, -'/.vscode'.length))] };
    assert.throws(() => sandboxLaunch({ kind: 'bubblewrap', executable: '/usr/bin/bwrap' }, huge, '/tmp/ws'), /4,001 protected entries \(\.vscode, a repository's config and hooks, and the like; 4,000 under \/tmp\/ws\/pkgs\), 4,001 folders \(that hold them, pinned so none can be renamed; 4,000 under \/tmp\/ws\/pkgs\)/);
  });

  it('leaves Seatbelt as it was: no argument file', () => {
    const launch = sandboxLaunch({ kind: 'seatbelt', executable: '/usr/bin/sandbox-exec' }, plan, '/tmp/ws');
    assert.equal(launch.input, undefined);
  });
});
