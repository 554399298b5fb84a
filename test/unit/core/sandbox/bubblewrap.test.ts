import * as assert from 'node:assert/strict';
import { bubblewrapLauncher } from '../../../../src/core/sandbox/bubblewrap';
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

  it('gives a command the network only when the plan says so, and always its own pid namespace', () => {
    assert.ok(bubblewrapLauncher('bwrap', plan, '/tmp/ws').includes('--unshare-net'));
    const approved = bubblewrapLauncher('bwrap', { ...plan, network: true }, '/tmp/ws');
    assert.equal(approved.includes('--unshare-net'), false);
    assert.ok(approved.includes('--unshare-pid') && approved.includes('--die-with-parent'));
  });
});
