// One path semantics on every platform: every row of the protected-names table is matched through a
// component's key (case folded beyond toLowerCase, NFC, HFS+'s ignored code points, Windows' trailing
// dots and spaces and alternate data streams) and through the 8.3 short names it may have.
import * as assert from 'node:assert/strict';
import { isExecutionConfigPath, isGitDirectoryConfig, isHomeExecutionConfig, isSecretFile, isWorkspaceExecutionConfig } from '../../../../src/core/guard/protectedNames';
import { evaluateGuard, type GuardFacts } from '../../../../src/core/guard/rules';
import { couldBeShortName, foldCase, isWindowsDeviceName, nameKey } from '../../../../src/core/location';

const HOME = '/home/dev';
const write = (path: string): GuardFacts => ({ access: 'write', path, insideWorkspace: true, home: HOME });
const read = (path: string): GuardFacts => ({ access: 'read', path, insideWorkspace: true, home: HOME });

describe('guard/name forms', () => {
  describe('nameKey', () => {
    it('folds case one code point at a time, beyond toLowerCase (long s, Kelvin sign)', () => {
      assert.equal(foldCase('.ENV'), '.env');
      assert.equal(foldCase('.\u017Fsh'), '.ssh');
      assert.equal(foldCase('\u212Aey'), 'key');
      assert.equal(foldCase('stra\u00DFe'), 'stra\u00DFe');
    });

    it('drops HFS+ ignored code points, Windows trailing dots and spaces and a stream suffix, and composes to NFC', () => {
      assert.equal(nameKey('.git\u200c'), '.git');
      assert.equal(nameKey('.vsco\u200dde'), '.vscode');
      assert.equal(nameKey('.GIT. . '), '.git');
      assert.equal(nameKey('.git::$INDEX_ALLOCATION'), '.git');
      assert.equal(nameKey('.env:secret:$DATA'), '.env');
      assert.equal(nameKey('cafe\u0301'), 'caf\u00e9');
      assert.equal(nameKey('..'), '..');
      assert.equal(nameKey('.'), '.');
    });
  });

  describe('8.3 short names', () => {
    it('takes a short name for each long name it may stand for, as git does for .git and .gitmodules', () => {
      assert.ok(couldBeShortName('git~1', '.git'));
      assert.ok(couldBeShortName('gitmod~1', '.gitmodules'));
      assert.ok(couldBeShortName('gi7eba~1', '.gitmodules'));
      assert.ok(couldBeShortName('vscode~1', '.vscode'));
      assert.ok(couldBeShortName('config~1.wor', 'config.worktree'));
      assert.ok(!couldBeShortName('config~1.txt', 'config.worktree'));
      assert.ok(!couldBeShortName('readme~1', '.git'));
      assert.ok(!couldBeShortName('.git', '.git'));
    });
  });

  const protectedSpellings = ['.git.', '.GIT ', '.git::$INDEX_ALLOCATION', 'GIT~1', 'git~2', '.g\u200cit'];
  for (const spelling of protectedSpellings) {
    it(`protects ${JSON.stringify(spelling)}/config and /hooks as .git's`, () => {
      assert.ok(isWorkspaceExecutionConfig(`/work/p/${spelling}/config`));
      assert.ok(isWorkspaceExecutionConfig(`/work/p/${spelling}/hooks/pre-commit`));
      const verdict = evaluateGuard(write(`/work/p/${spelling}/HEAD`), 'high');
      assert.equal(verdict.rule, 'file.protected_file_overwrite');
    });
  }

  const vscodeSpellings = ['.vscode.', '.VSCODE  ', 'VSCODE~1', '.vscod\u200ce', '.vscode:x', '.v\u017Fcode'];
  for (const spelling of vscodeSpellings) {
    it(`protects ${JSON.stringify(spelling)}/tasks.json as .vscode's`, () => {
      assert.ok(isWorkspaceExecutionConfig(`/work/p/${spelling}/tasks.json`));
      assert.equal(evaluateGuard(write(`/work/p/${spelling}/tasks.json`), 'high').rule, 'file.execution_config_write');
    });
  }

  it('protects .gitmodules as GITMOD~1 and its hashed short name, and a .code-workspace as FOO~1.COD', () => {
    assert.ok(isWorkspaceExecutionConfig('/work/p/GITMOD~1'));
    assert.ok(isWorkspaceExecutionConfig('/work/p/GI7EBA~1'));
    assert.ok(isWorkspaceExecutionConfig('/work/p/.gitmodules.'));
    assert.ok(isWorkspaceExecutionConfig('/work/p/FOO~1.COD'));
    assert.ok(!isWorkspaceExecutionConfig('/work/p/README~1.MD'));
  });

  it('protects a git directory\'s rows by key and short name', () => {
    assert.ok(isGitDirectoryConfig('CONFIG.'));
    assert.ok(isGitDirectoryConfig('HOOKS::$INDEX_ALLOCATION/post-checkout'));
    assert.ok(isGitDirectoryConfig('CONFIG~1.WOR'));
    assert.ok(!isGitDirectoryConfig('description'));
  });

  const secretSpellings = ['.env::$DATA', '.npmrc.', '.ENV ', 'ENV~1', 'ENV~1.LOC', '.en\u200cv', '.NETRC:x', 'NETRC~1', '.git-credentials.'];
  for (const spelling of secretSpellings) {
    it(`keeps ${JSON.stringify(spelling)} secret`, () => {
      assert.ok(isSecretFile(`/work/p/${spelling}`));
      assert.equal(evaluateGuard(read(`/work/p/${spelling}`), 'medium').rule, 'file.sensitive_path_read');
    });
  }

  it('keeps the .env templates readable and ordinary names ordinary', () => {
    assert.ok(!isSecretFile('/work/p/.env.example'));
    assert.ok(!isSecretFile('/work/p/.env.example.'));
    assert.ok(!isSecretFile('/work/p/environment.ts'));
    assert.ok(!isExecutionConfigPath('/work/p/src/config.ts'));
  });

  it('keeps the home folder\'s execution config and credentials under every spelling', () => {
    assert.ok(isHomeExecutionConfig(`${HOME}/.BASHRC.`, HOME));
    assert.ok(isHomeExecutionConfig(`${HOME}/BASHRC~1`, HOME));
    assert.ok(isHomeExecutionConfig(`${HOME}/.config/GIT~1/config`, HOME));
    assert.equal(evaluateGuard(read(`${HOME}/.\u017Fsh/id_ed25519`), 'medium').rule, 'file.sensitive_path_read');
    assert.equal(evaluateGuard(read(`${HOME}/SSH~1/id_ed25519`), 'medium').rule, 'file.sensitive_path_read');
    assert.equal(evaluateGuard(write(`${HOME}/.profile::$DATA`), 'high').rule, 'file.sensitive_path_write');
  });

  it('protects an NFD spelling as the NFC name', () => {
    const nfd = '\u00e9'.normalize('NFD');
    assert.equal(nameKey(`.env${nfd}`), nameKey('.env\u00e9'));
    assert.ok(isHomeExecutionConfig(`${HOME}/.config/fish/${nfd}`, HOME));
  });

  it('fails closed when a path has too many short names to try', () => {
    assert.ok(isWorkspaceExecutionConfig(`/work/p/${'A~1/'.repeat(40)}x`) || isWorkspaceExecutionConfig(`/work/p/${'C~1/'.repeat(40)}x`));
  });

  describe('Windows device names', () => {
    for (const name of ['CON', 'nul', 'Aux.txt', 'COM1', 'lpt9.log', 'NUL.', 'con ', 'CONIN$', 'conout$', 'NUL:stream', 'COM\u00b9']) {
      it(`takes ${JSON.stringify(name)} for a device`, () => assert.ok(isWindowsDeviceName(name)));
    }
    for (const name of ['console', 'nully', 'com0', 'lpt10', 'auxiliary.txt', 'CONIN']) {
      it(`takes ${JSON.stringify(name)} for a file`, () => assert.ok(!isWindowsDeviceName(name)));
    }
  });

  it('finds a Windows home by its shape under a drive letter', () => {
    assert.equal(evaluateGuard(read('/c:/Users/Other/.ssh/id_ed25519'), 'medium').rule, 'file.sensitive_path_read');
    assert.equal(evaluateGuard(write('/C:/USERS/other/.gitconfig.'), 'high').rule, 'file.sensitive_path_write');
  });

  describe('macOS /private', () => {
    it('judges /private/etc, /private/var and /private/tmp as /etc, /var and /tmp', () => {
      assert.equal(evaluateGuard(write('/private/etc/hosts'), 'high').rule, 'file.system_path_write');
      assert.equal(evaluateGuard(read('/private/etc/shadow'), 'medium').rule, 'file.sensitive_path_read');
      assert.equal(evaluateGuard(read('/private/var/root/.ssh/id_rsa'), 'medium').rule, 'file.sensitive_path_read');
      assert.equal(evaluateGuard(write('/private/var/root/.bashrc'), 'high').rule, 'file.sensitive_path_write');
    });
  });
});
