import * as assert from 'node:assert/strict';
import { PROXY_MOUNT, bubblewrapLauncher } from '../../../../src/core/sandbox/bubblewrap';
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
    const approved = bubblewrapLauncher('bwrap', { ...plan, network: true, proxy: { transport: 'unix', directory: '/tmp/wat-sandbox-x/proxy/c-1', relay } }, '/tmp/ws');
    assert.ok(approved.includes('--unshare-net') && approved.includes('--unshare-pid') && approved.includes('--die-with-parent'));
    const bind = approved.indexOf('/tmp/wat-sandbox-x/proxy/c-1');
    assert.deepEqual(approved.slice(bind - 1, bind + 2), ['--ro-bind', '/tmp/wat-sandbox-x/proxy/c-1', PROXY_MOUNT]);
    // The secrets are bound before the proxy folder, which is bound into bubblewrap's own /dev.
    assert.ok(bind > approved.lastIndexOf('/dev/null'));
    const command = approved.indexOf('--chdir') + 3;
    assert.deepEqual(approved.slice(command), ['/opt/code/node', '/ext/dist/proxyRelay.js', `${PROXY_MOUNT}/http.sock`, '3128', `${PROXY_MOUNT}/socks.sock`, '1080', '--']);
    assert.deepEqual(approved.slice(approved.indexOf('ELECTRON_RUN_AS_NODE') - 1, approved.indexOf('ELECTRON_RUN_AS_NODE') + 2), ['--setenv', 'ELECTRON_RUN_AS_NODE', '1']);
    assert.equal(approved.filter((arg) => arg === '/opt/code').length, 0, 'a relay outside /tmp is seen at its own path');
    const underTmp = bubblewrapLauncher('bwrap', { ...plan, network: true, proxy: { transport: 'unix', directory: '/d', relay: { program: '/tmp/clone/.cache/node/bin/node', script: '/ext/dist/proxyRelay.js' } } }, '/tmp/ws');
    const nodeBind = underTmp.indexOf('/tmp/clone/.cache/node/bin');
    assert.deepEqual(underTmp.slice(nodeBind - 1, nodeBind + 2), ['--ro-bind', '/tmp/clone/.cache/node/bin', '/tmp/clone/.cache/node/bin']);
    assert.ok(nodeBind > underTmp.indexOf('/tmp'), 'bound after the private /tmp, which would cover it');
    // A plan without the network never gets the relay, whatever proxy it names.
    const unasked = bubblewrapLauncher('bwrap', { ...plan, proxy: { transport: 'unix', directory: '/p', relay } }, '/tmp/ws');
    assert.ok(!unasked.includes('/p') && !unasked.includes(relay.script));
  });
});
