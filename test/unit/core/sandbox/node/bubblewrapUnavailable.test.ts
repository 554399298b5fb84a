import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { requireProgram } from '../../../support/programs';
import { describeOnlyOn } from '../../../support/platforms';

const CHILD = path.resolve(__dirname, '../../../support/bubblewrapUnavailableChild.js');

interface ChildReport {
  uid: number;
  availability: { kind: string; reason?: string; fix?: string };
  auto: { text: string; asked: string[] };
  required: { text: string; asked: string[] };
}

/**
 * Runs the child in a private user namespace whose user.max_user_namespaces is 0, as a user other
 * than root there (root would run bubblewrap without a user namespace of its own) and without the
 * capabilities that set the limit (bubblewrap refuses capabilities it was not given by setuid). The
 * same for root and for a normal user: the caller's uid is mapped to a non-zero one inside, and
 * --keep-caps lets the shell write the limit before setpriv drops every capability.
 */
function runWithoutUserNamespaces(parent: string): Promise<ChildReport> {
  const unshare = requireProgram('unshare');
  requireProgram('setpriv');
  requireProgram('bwrap');
  const uid = process.getuid?.() || 1000;
  const gid = process.getgid?.() || 1000;
  const script = 'echo 0 > /proc/sys/user/max_user_namespaces && exec setpriv --inh-caps=-all --ambient-caps=-all "$0" "$@"';
  const args = ['--user', `--map-user=${uid}`, `--map-group=${gid}`, '--keep-caps', '/bin/sh', '-c', script, process.execPath, CHILD, parent];
  return new Promise((resolve, reject) => {
    execFile(unshare, args, { maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`unshare ${args.join(' ')} failed: ${error.message}\n${stderr}`));
        return;
      }
      resolve(JSON.parse(stdout) as ChildReport);
    });
  });
}

describeOnlyOn(['linux', 'darwin'], 'the OS sandbox (bubblewrap, Seatbelt)')('sandbox/node: where bubblewrap cannot start (user.max_user_namespaces=0, so bwrap fails with ENOSPC)', () => {
  let parent = '';
  let report: ChildReport;
  before(async () => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-nouserns-'));
    fs.mkdirSync(path.join(parent, 'ws'));
    report = await runWithoutUserNamespaces(parent);
  });
  after(() => fs.rmSync(parent, { recursive: true, force: true }));

  const cause = /bubblewrap cannot start here: user namespaces are turned off: user\.max_user_namespaces is 0 \(\/proc\/sys\/user\/max_user_namespaces\); bwrap said "Creating new namespace failed: [^"]*(ENOSPC|No space left on device)[^"]*"; sudo sysctl -w user\.max_user_namespaces=15000/;

  it('the probe finds no sandbox, with bwrap\'s own error, the cause and the fix', () => {
    assert.notEqual(report.uid, 0, 'the child runs as a user other than root in its namespace');
    assert.equal(report.availability.kind, 'none');
    assert.match(`${report.availability.reason}; ${report.availability.fix}`, cause);
  });

  it('auto asks before the command and names the cause; the result\'s Sandbox: line carries the cause and the fix', () => {
    assert.equal(report.auto.asked.length, 1);
    assert.match(report.auto.asked[0], /OUTSIDE the sandbox.*there is no sandbox on this machine: bubblewrap cannot start here: user namespaces are turned off/);
    assert.match(report.auto.text, /^Exit code: 0/);
    assert.match(report.auto.text, new RegExp(`^Sandbox: none, ${cause.source}`, 'm'));
    assert.equal(fs.readFileSync(path.join(parent, 'ws', 'auto.txt'), 'utf8'), 'ran\n');
  });

  it('required refuses the command with the same cause and fix, asks nothing and runs nothing', () => {
    assert.equal(report.required.asked.length, 0);
    assert.match(report.required.text, /^ERROR The command was not run: workspaceAgentTools\.runCommand\.sandbox is "required" and there is no sandbox: /);
    assert.match(report.required.text, cause);
    assert.equal(fs.existsSync(path.join(parent, 'ws', 'required.txt')), false);
  });
});
