import * as assert from 'node:assert/strict';
import { apparmorProfileCommand, classifyBubblewrapFailure, type BubblewrapProbeFacts } from '../../../../src/core/sandbox/bubblewrapFailure';

const bwrap = '/usr/bin/bwrap';
const facts = (stderr: string, more: Partial<BubblewrapProbeFacts> = {}): BubblewrapProbeFacts => ({ executable: bwrap, exitCode: 1, stderr, ...more });

// The messages are bubblewrap's own, as users reported them (bubblewrap 0.8 and 0.9, Ubuntu 24.04, containers).
describe('sandbox/bubblewrapFailure', () => {
  it('names AppArmor\'s restriction of user namespaces for "setting up uid map: Permission denied", with the profile and the sysctl as fixes', () => {
    const failure = classifyBubblewrapFailure(facts('bwrap: setting up uid map: Permission denied', { apparmorRestrictUserns: '1' }));
    assert.equal(failure.cause, 'apparmor');
    assert.match(failure.why, /AppArmor restricts unprivileged user namespaces/);
    assert.match(failure.why, /kernel\.apparmor_restrict_unprivileged_userns is 1 \(\/proc\/sys\/kernel\/apparmor_restrict_unprivileged_userns\)/);
    assert.match(failure.why, /bwrap said "setting up uid map: Permission denied"/);
    assert.ok(failure.fix.includes(apparmorProfileCommand(bwrap)));
    assert.match(failure.fix, /sudo apparmor_parser -r \/etc\/apparmor\.d\/bwrap/);
    assert.match(failure.fix, /sudo sysctl -w kernel\.apparmor_restrict_unprivileged_userns=0/);
  });

  it('names AppArmor for the loopback\'s "Operation not permitted" when the restriction is on, and only then', () => {
    const loopback = 'bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted';
    assert.equal(classifyBubblewrapFailure(facts(loopback, { apparmorRestrictUserns: '1' })).cause, 'apparmor');
    assert.equal(classifyBubblewrapFailure(facts(loopback, { apparmorRestrictUserns: '0' })).cause, 'other');
  });

  it('writes a profile that grants bwrap user namespaces, for the executable found', () => {
    const command = apparmorProfileCommand('/opt/bin/bwrap');
    assert.match(command, /^printf 'abi <abi\/4\.0>,\\ninclude <tunables\/global>\\nprofile bwrap \/opt\/bin\/bwrap flags=\(unconfined\) \{\\n {2}userns,\\n\}\\n' \| sudo tee \/etc\/apparmor\.d\/bwrap && sudo apparmor_parser -r \/etc\/apparmor\.d\/bwrap$/);
    // A path the shell or the profile would read otherwise is not pasted into either.
    assert.match(apparmorProfileCommand("/tmp/x'; rm -rf ~; '"), /profile bwrap \/usr\/bin\/bwrap flags/);
  });

  it('names user.max_user_namespaces=0 for ENOSPC, in the words of bubblewrap 0.8 and of older ones', () => {
    for (const stderr of ['bwrap: Creating new namespace failed: nesting depth or /proc/sys/user/max_*_namespaces exceeded (ENOSPC)', 'bwrap: Creating new namespace failed: No space left on device']) {
      const failure = classifyBubblewrapFailure(facts(stderr, { maxUserNamespaces: '0' }));
      assert.equal(failure.cause, 'userns-limit');
      assert.match(failure.why, /user namespaces are turned off: user\.max_user_namespaces is 0 \(\/proc\/sys\/user\/max_user_namespaces\)/);
      assert.match(failure.fix, /sudo sysctl -w user\.max_user_namespaces=15000/);
      assert.match(failure.fix, /\/etc\/sysctl\.d\//);
    }
    assert.match(classifyBubblewrapFailure(facts('bwrap: Creating new namespace failed: No space left on device')).why, /turned off or used up/);
  });

  it('names Debian\'s kernel.unprivileged_userns_clone=0, and a container\'s refusal, for "No permissions to create a new namespace"', () => {
    const refused = "bwrap: No permissions to create a new namespace, likely because the kernel does not allow non-privileged user namespaces. On e.g. debian this can be enabled with 'sysctl kernel.unprivileged_userns_clone=1'.";
    const debian = classifyBubblewrapFailure(facts(refused, { unprivilegedUsernsClone: '0' }));
    assert.equal(debian.cause, 'userns-off');
    assert.match(debian.why, /kernel\.unprivileged_userns_clone is 0/);
    assert.match(debian.fix, /sudo sysctl -w kernel\.unprivileged_userns_clone=1/);
    const container = classifyBubblewrapFailure(facts(refused));
    assert.equal(container.cause, 'userns-off');
    assert.match(container.why, /container's seccomp profile/);
    assert.match(container.why, /bwrap said "No permissions to create a new namespace/);
  });

  it('names a bwrap given capabilities, and a bwrap that cannot be started', () => {
    const caps = classifyBubblewrapFailure(facts('bwrap: Unexpected capabilities but not setuid, old file caps config?'));
    assert.equal(caps.cause, 'capabilities');
    assert.match(caps.fix, /sudo setcap -r \/usr\/bin\/bwrap/);
    const gone = classifyBubblewrapFailure(facts('spawn /usr/bin/bwrap ENOENT', { exitCode: null }));
    assert.equal(gone.cause, 'missing');
    assert.match(gone.fix, /sudo apt install bubblewrap/);
  });

  it('passes any other error on in bwrap\'s words, with the exit code and where the causes are described', () => {
    const other = classifyBubblewrapFailure(facts("bwrap: Can't mount proc on /newroot/proc: Operation not permitted"));
    assert.equal(other.cause, 'other');
    assert.match(other.why, /^bwrap said "Can't mount proc on \/newroot\/proc: Operation not permitted" \(exit code 1\)$/);
    assert.match(other.fix, /docs\/platforms\.md#linux-where-bubblewrap-cannot-start/);
  });
});
