// The test-only Seatbelt evaluator (test/unit/support/seatbeltEvaluator.ts) reads what it claims to
// and nothing else, and the profile's regexes mean in JavaScript what they mean in POSIX ERE.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { seatbeltProtectedPatterns, seatbeltSecretPatterns, seatbeltTemplatePattern } from '../../../../src/core/guard/protectedNames';
import { itOnlyOn } from '../../support/platforms';
import { requireProgram } from '../../support/programs';
import { ereToJs, kernelPath, readProfile, SeatbeltProfile } from '../../support/seatbeltEvaluator';

describe('support/seatbeltEvaluator', () => {
  it('decides by the last matching rule, (allow default) when none matches', () => {
    const profile = new SeatbeltProfile('(version 1)\n(allow default)\n(deny file-write*)\n(allow file-write* (subpath "/w"))\n(deny file-write* (literal "/w/x"))');
    assert.equal(profile.allows('file-write-data', '/w/y'), true);
    assert.equal(profile.allows('file-write-data', '/w/x'), false);
    assert.equal(profile.allows('file-write-data', '/wx'), false);
    assert.equal(profile.allows('file-read-data', '/anything'), true);
  });

  it('reads subpath as the folder and what is below it, literal as the path alone, regex unanchored', () => {
    const profile = new SeatbeltProfile('(version 1)\n(deny default)\n(allow file-read* (subpath "/a/b") (literal "/c") (regex #"/d$"))');
    assert.deepEqual(['/a/b', '/a/b/c', '/a/bc', '/c', '/c/d', '/x/d', '/x/dd'].map((p) => profile.allows('file-read-data', p)), [true, true, false, true, true, true, false]);
  });

  it('resolves /tmp, /var and /etc into /private as the kernel does before matching', () => {
    assert.equal(kernelPath('/tmp/x'), '/private/tmp/x');
    assert.equal(kernelPath('/var'), '/private/var');
    assert.equal(kernelPath('/etc/sudoers'), '/private/etc/sudoers');
    assert.equal(kernelPath('/tmpx/y'), '/tmpx/y');
    const profile = new SeatbeltProfile('(version 1)\n(allow default)\n(deny file-read* (literal "/tmp/x"))');
    assert.equal(profile.allows('file-read-data', '/tmp/x'), true, 'a rule written with /tmp never matches');
  });

  it('reads strings with \\\\ and \\" escapes, raw newlines and unicode, and regex literals raw', () => {
    assert.deepEqual(readProfile('("a\\"b\\\\c\nd é" #"\\.x")'), [{ kind: 'list', items: [{ kind: 'string', value: 'a"b\\c\nd é' }, { kind: 'regex', source: '\\.x' }] }]);
  });

  it('throws on whatever it does not read, so a generator change cannot pass silently', () => {
    const bad = [
      '(allow default)',
      '(version 1)(allow default)(allow file-read* (vnode-type REGULAR-FILE))',
      '(version 1)(allow default)(allow process-exec)',
      '(version 1)(allow default)(allow file-read-data (literal "/x"))',
      '(version 1)(allow default)(deny file-read* (literal "/x\\n"))',
      '(version 1)(allow default)(deny file-read* (literal "/x")',
      '(version 1)(allow default) ; comment',
      '(version 1)(allow default)(deny file-read* (regex #"(?:a)"))',
      '(version 1)(allow default)(deny file-read* (regex #"a{2}"))',
      '(version 1)(allow default)(deny file-read* (regex #"[\\]]"))',
      '(version 1)(allow default)(deny file-read* (regex #"\\d"))',
      '(version 1)(allow default)(deny network* (subpath "/x"))',
      '(version 1)(allow default)(deny network* (remote ip "10.0.0.1:80"))',
      '(version 1)(allow default)(deny file-read* (remote ip "localhost:80"))',
      '(version 1)(allow default)(deny file-read* network* (literal "/x"))',
      '(version 1)(allow default)(deny file-read* (subpath "/x/"))',
      '(version 1)(deny file-read*)(allow default)',
    ];
    for (const text of bad) {
      assert.throws(() => new SeatbeltProfile(text), /seatbelt evaluator/, text);
    }
  });

  it('names the rules and filters that decided no question asked of it', () => {
    const profile = new SeatbeltProfile('(version 1)\n(allow default)\n(deny file-write*)\n(allow file-write* (subpath "/a") (subpath "/b"))');
    profile.allows('file-write-data', '/a/x');
    assert.deepEqual(profile.unexercised(), ['(deny file-write*)', '(subpath "/b") in (allow file-write* ...)']);
    profile.allows('file-write-data', '/c');
    profile.allows('file-read-data', '/b/x');
    assert.deepEqual(profile.unexercised(), ['(subpath "/b") in (allow file-write* ...)']);
  });

  it('refuses to answer where an exact operation name and a wildcard would decide differently', () => {
    const profile = new SeatbeltProfile('(version 1)\n(allow default)\n(deny network-outbound)\n(allow network* (remote ip "localhost:1"))');
    assert.throws(() => profile.allows('network-outbound', { host: 'localhost', port: 1 }), /must not depend/);
  });

  it('reads (remote ip "localhost:PORT") as the loopback addresses on that port, never a unix socket', () => {
    const profile = new SeatbeltProfile('(version 1)\n(allow default)\n(deny network*)\n(allow network-outbound (remote ip "localhost:80"))');
    assert.equal(profile.allows('network-outbound', { host: '127.0.0.1', port: 80 }), true);
    assert.equal(profile.allows('network-outbound', { host: '::1', port: 80 }), true);
    assert.equal(profile.allows('network-outbound', { host: '10.0.0.1', port: 80 }), false);
    assert.equal(profile.allows('network-outbound', { host: 'localhost', port: 81 }), false);
    assert.equal(profile.allows('network-outbound', { unixSocket: '/private/var/run/docker.sock' }), false);
  });

  describe('the generated regexes mean the same in POSIX ERE and in JavaScript', () => {
    const patterns = [...seatbeltProtectedPatterns(), ...seatbeltSecretPatterns(), seatbeltTemplatePattern()];
    const corpus = [
      '/w/.vscode', '/w/.VSCODE/tasks.json', '/w/.vscodex', '/w/x.vscode', '/w/src/.git/config', '/w/src/.GIT/Config', '/w/src/git/config',
      '/w/.git/hooks/pre-commit', '/w/.Git/HOOKS', '/w/src/git/hooks', '/w/bare.git/hooks/x', '/w/.git/modules/a/b/config', '/w/.git/modules/a\nb/config',
      '/w/.git/modules/hooks', '/w/.git/info/attributes', '/w/.git/info/attributesx', '/w/.git/config.worktree', '/w/.git/commondir', '/w/.git/worktrees/x/HEAD',
      '/w/a.code-workspace', '/w/.code-workspace', '/w/a.code-workspace.bak', '/w/.gitmodules', '/w/.GitAttributes', '/w/.git', '/w/sub/.gitconfig',
      '/w/.env', '/w/.ENV', '/w/.env.local', '/w/.env.example', '/w/.Env.Example', '/w/.env.local.example', '/w/.env.example.local', '/w/x.env', '/w/.environment',
      '/w/.envrc', '/w/.netrc', '/w/_netrc', '/w/.npmrc', '/w/.pypirc', '/w/.git-credentials', '/w/a\n.env', '/w/.env\n', '/w/.env.\n', '/w/é/.env', '/w/(x)[y]{z}+?|$^/.env',
    ];
    // Windows has no POSIX ERE matcher to check against (no grep, unless Git for Windows brings one).
    const withGrep = itOnlyOn(['linux', 'darwin'], 'grep -E, the POSIX ERE matcher the regexes are checked against');
    for (const pattern of patterns) {
      withGrep(pattern, () => {
        const regex = ereToJs(pattern);
        const expected = corpus.filter((p) => regex.test(p));
        // GNU grep -E is a POSIX ERE matcher; -z reads NUL-separated records (a path may hold a newline).
        const grep = spawnSync(requireProgram('grep'), ['-E', '-z', '-a', '-e', pattern], { input: `${corpus.join('\0')}\0` });
        assert.ok(!grep.error && grep.status !== 2, `grep -E could not run: ${grep.error?.message ?? grep.stderr.toString()}`);
        const matched = grep.stdout.toString('utf8').split('\0').slice(0, -1);
        assert.deepEqual(matched, expected);
      });
    }
  });
});
