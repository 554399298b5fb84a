import * as assert from 'node:assert/strict';
import { evaluateGuard, isExecutionConfigPath, type GuardAccess, type GuardFacts } from '../../../../src/core/guard/rules';
import { type GuardDecision } from '../../../../src/core/decisions';
import type { RiskLevel } from '../../../../src/core/settings';

const HOME = '/home/dev';

function facts(access: GuardAccess, path: string, overrides: Partial<GuardFacts> = {}): GuardFacts {
  return { access, path, insideWorkspace: path.startsWith('/work/project'), home: HOME, ...overrides };
}

interface Row {
  rule: string;
  facts: GuardFacts;
  expected: Record<RiskLevel, GuardDecision>;
}

// One row per line of docs/design.md section 3's table, with a path that only that rule matches.
const TABLE: Row[] = [
  { rule: 'file.system_path_read', facts: facts('read', '/proc/self/environ', { insideWorkspace: true }), expected: { low: 'deny', medium: 'deny', high: 'deny' } },
  { rule: 'file.sensitive_path_read', facts: facts('read', '/work/project/.env'), expected: { low: 'deny', medium: 'deny', high: 'warn' } },
  { rule: 'file.outside_workspace_read', facts: facts('read', '/opt/other/readme.md'), expected: { low: 'deny', medium: 'warn', high: 'allow' } },
  { rule: 'file.system_path_write', facts: facts('write', '/usr/local/bin/tool', { insideWorkspace: true }), expected: { low: 'deny', medium: 'deny', high: 'deny' } },
  { rule: 'file.sensitive_path_write', facts: facts('write', `${HOME}/.bashrc`, { insideWorkspace: true }), expected: { low: 'deny', medium: 'deny', high: 'deny' } },
  { rule: 'file.outside_workspace_write', facts: facts('write', '/opt/other/out.txt'), expected: { low: 'deny', medium: 'warn', high: 'allow' } },
  { rule: 'file.protected_file_overwrite', facts: facts('write', '/work/project/.git/HEAD'), expected: { low: 'deny', medium: 'deny', high: 'warn' } },
  { rule: 'file.apply_patch_delete_many', facts: facts('patch', '/work/project', { deleteCount: 5 }), expected: { low: 'deny', medium: 'warn', high: 'warn' } },
];

describe('guard/rules', () => {
  for (const row of TABLE) {
    for (const level of ['low', 'medium', 'high'] as const) {
      it(`${row.rule} at ${level} is ${row.expected[level]}`, () => {
        const verdict = evaluateGuard(row.facts, level);
        assert.equal(verdict.decision, row.expected[level]);
        if (verdict.decision !== 'allow') {
          assert.equal(verdict.rule, row.rule);
        }
      });
    }
  }

  it('allows a plain read inside the workspace at every level', () => {
    for (const level of ['low', 'medium', 'high'] as const) {
      assert.equal(evaluateGuard(facts('read', '/work/project/src/a.ts'), level).decision, 'allow');
    }
  });

  it('takes the strictest rule when several match', () => {
    // Outside the workspace (warn at medium) and under ~/.ssh (deny at medium).
    const verdict = evaluateGuard(facts('read', `${HOME}/.ssh/id_rsa`), 'medium');
    assert.equal(verdict.decision, 'deny');
    assert.equal(verdict.rule, 'file.sensitive_path_read');
  });

  it('treats every sensitive read path of the table as sensitive', () => {
    const paths = ['/etc/shadow', '/etc/gshadow', '/etc/sudoers', `${HOME}/.ssh/config`, `${HOME}/.gnupg/pubring.kbx`, `${HOME}/.aws/credentials`, `${HOME}/.config/gcloud/creds.json`, '/work/project/.env', '/work/project/sub/.netrc', '/work/project/.env.local'];
    for (const path of paths) {
      assert.equal(evaluateGuard(facts('read', path, { insideWorkspace: true }), 'medium').rule, 'file.sensitive_path_read', path);
    }
  });

  it('treats the credential files the red team read at high risk as sensitive: build tools\', databases\' and coding agents\' tokens', () => {
    const paths = ['.m2/settings.xml', '.my.cnf', '.pgpass', '.gradle/gradle.properties', '.config/github-copilot/apps.json', '.claude/.credentials.json', '.codex/auth.json', '.gemini/oauth_creds.json'];
    for (const relative of paths) {
      const verdict = evaluateGuard(facts('read', `${HOME}/${relative}`, { insideWorkspace: true }), 'high');
      assert.equal(verdict.rule, 'file.sensitive_path_read', relative);
      assert.equal(verdict.decision, 'warn', relative);
    }
  });

  it('matches sensitive names in any case, as a case-insensitive file system would open them', () => {
    const paths = ['/work/project/.ENV', '/work/project/.Env.Local', '/work/project/sub/.NETRC', `${HOME}/.SSH/id_rsa`, `${HOME}/.Aws/credentials`, '/ETC/SHADOW'];
    for (const path of paths) {
      assert.equal(evaluateGuard(facts('read', path, { insideWorkspace: true }), 'medium').rule, 'file.sensitive_path_read', path);
    }
    assert.equal(evaluateGuard(facts('write', `${HOME}/.BASHRC`, { insideWorkspace: true }), 'medium').rule, 'file.sensitive_path_write');
  });

  it('protects .git and execution config in any case', () => {
    assert.equal(evaluateGuard(facts('write', '/work/project/.GIT/config'), 'medium').rule, 'file.protected_file_overwrite');
    for (const path of ['/p/.GIT/config', '/p/.Git/Hooks/pre-commit', '/p/.VSCode/tasks.json', '/p/.vscode/TASKS.JSON', '/p/team.Code-Workspace', '/p/.GitModules', `${HOME}/.config/Code/user/settings.json`]) {
      assert.ok(isExecutionConfigPath(path), path);
    }
  });

  it('does not treat .env templates or look-alike names as secrets', () => {
    for (const path of ['/work/project/.env.example', '/work/project/.envrc.md', '/work/project/env', `${HOME}/.sshd/x`]) {
      assert.equal(evaluateGuard(facts('read', path, { insideWorkspace: true }), 'medium').decision, 'allow', path);
    }
  });

  it('treats every system write root of the table as a system path', () => {
    for (const root of ['/etc', '/usr', '/boot', '/sbin', '/bin', '/lib', '/proc', '/sys', '/dev']) {
      assert.equal(evaluateGuard(facts('write', `${root}/x`, { insideWorkspace: true }), 'high').rule, 'file.system_path_write', root);
    }
    assert.equal(evaluateGuard(facts('write', '/library/x', { insideWorkspace: true }), 'high').decision, 'allow');
  });

  it('treats shell start-up files as sensitive for writes only', () => {
    for (const name of ['.bashrc', '.bash_profile', '.profile', '.zshrc', '.zprofile']) {
      assert.equal(evaluateGuard(facts('write', `${HOME}/${name}`, { insideWorkspace: true }), 'high').rule, 'file.sensitive_path_write');
      assert.equal(evaluateGuard(facts('read', `${HOME}/${name}`, { insideWorkspace: true }), 'high').decision, 'allow');
    }
  });

  it('judges the credentials and start-up files of any home-shaped folder, not only the extension host\'s home (a remote folder\'s home is another)', () => {
    for (const home of ['/home/u', '/root', '/Users/Ann', '/var/root']) {
      assert.equal(evaluateGuard(facts('read', `${home}/.ssh/id_rsa`, { insideWorkspace: true }), 'medium').rule, 'file.sensitive_path_read', home);
      assert.equal(evaluateGuard(facts('write', `${home}/.ssh/authorized_keys`, { insideWorkspace: true }), 'high').rule, 'file.sensitive_path_write', home);
      assert.equal(evaluateGuard(facts('write', `${home}/.bashrc`, { insideWorkspace: true }), 'high').rule, 'file.sensitive_path_write', home);
    }
    assert.equal(evaluateGuard(facts('write', '/home/u/proj/.bashrc', { insideWorkspace: true }), 'high').decision, 'allow', 'a project\'s own .bashrc is no start-up file');
    assert.equal(evaluateGuard(facts('write', '/rootfs/.bashrc', { insideWorkspace: true }), 'high').decision, 'allow', '/rootfs is no home');
  });

  it('finds the host\'s home given as a Windows path (D:\\profiles\\ann, no home shape) in a location\'s path /D:/profiles/ann', () => {
    const home = 'D:\\profiles\\ann';
    assert.equal(evaluateGuard(facts('write', '/D:/profiles/ann/.gitconfig', { insideWorkspace: true, home }), 'high').rule, 'file.sensitive_path_write');
    assert.equal(evaluateGuard(facts('write', '/d:/Profiles/Ann/.ssh/authorized_keys', { insideWorkspace: true, home }), 'high').rule, 'file.sensitive_path_write');
    assert.equal(evaluateGuard(facts('read', '/D:/profiles/ann/.ssh/id_rsa', { insideWorkspace: true, home }), 'medium').rule, 'file.sensitive_path_read');
    assert.equal(evaluateGuard(facts('write', '/D:/profiles/ann/proj/.bashrc', { insideWorkspace: true, home }), 'high').decision, 'allow', 'a project\'s own .bashrc is no start-up file');
  });

  it('denies writing every row of the home table at every level, in any letter case, and reads them as before', () => {
    const names = ['.gitconfig', '.config/git/config', '.config/Git/attributes', '.bash_login', '.zshenv', '.zlogin', '.inputrc', '.pam_environment', '.config/fish/config.fish', '.config/autostart/x.desktop', '.config/systemd/user/x.service', '.config/environment.d/10-x.conf', '.local/bin/git', 'bin/git', 'Library/LaunchAgents/x.plist', '.xprofile'];
    for (const name of names) {
      for (const level of ['low', 'medium', 'high'] as const) {
        const verdict = evaluateGuard(facts('write', `${HOME}/${name}`, { insideWorkspace: true }), level);
        assert.equal(verdict.decision, 'deny', `${name} at ${level}`);
        assert.equal(verdict.rule, 'file.sensitive_path_write', name);
      }
      assert.equal(evaluateGuard(facts('read', `${HOME}/${name}`, { insideWorkspace: true }), 'high').decision, 'allow', name);
    }
    assert.equal(evaluateGuard(facts('write', `${HOME}/.config/other/x`, { insideWorkspace: true }), 'high').decision, 'allow');
    assert.equal(evaluateGuard(facts('write', `${HOME}/.local/binary`, { insideWorkspace: true }), 'high').decision, 'allow');
  });

  it('treats a path a protected link leads to as execution config', () => {
    const verdict = evaluateGuard(facts('write', '/work/project/cfg/settings.json', { linkedFrom: '/work/project/.vscode' }), 'high');
    assert.equal(verdict.rule, 'file.execution_config_write');
    assert.match(verdict.reason, /reached through \/work\/project\/\.vscode, a symbolic link/);
  });

  it('does not let a patch deleting four files trip the delete-many rule', () => {
    assert.equal(evaluateGuard(facts('patch', '/work/project', { deleteCount: 4 }), 'low').decision, 'allow');
  });

  it('always asks before writing files that can run code', () => {
    for (const level of ['low', 'medium', 'high'] as const) {
      for (const path of ['/work/project/.vscode/tasks.json', '/work/project/.vscode/settings.json', '/work/project/app.code-workspace']) {
        const verdict = evaluateGuard(facts('write', path), level);
        assert.equal(verdict.decision, 'warn', `${path} at ${level}`);
        assert.equal(verdict.rule, 'file.execution_config_write');
      }
    }
  });

  it('always asks before writing user settings, tasks and installed extensions, even at high where outside writes are allowed', () => {
    for (const path of [
      '/home/dev/.config/Code/User/settings.json',
      '/home/dev/.config/Code/User/tasks.json',
      '/home/dev/.config/Code/User/mcp.json',
      '/home/dev/.config/Code/User/profiles/-3a1b2c/settings.json',
      '/home/dev/.local/share/code-server/User/settings.json',
      '/home/dev/.vscode-server/data/Machine/settings.json',
      '/home/dev/.vscode/extensions/acme.tool-1.0.0/out/extension.js',
      '/home/dev/.local/share/code-server/extensions/acme.tool-1.0.0/package.json',
    ]) {
      const verdict = evaluateGuard(facts('write', path, { insideWorkspace: false }), 'high');
      assert.equal(verdict.decision, 'warn', path);
      assert.equal(verdict.rule, 'file.execution_config_write', path);
    }
  });

  it('does not mistake ordinary files in folders named User or extensions for user settings', () => {
    assert.ok(!isExecutionConfigPath('/work/project/src/User/model.ts'));
    assert.ok(!isExecutionConfigPath('/work/project/fixtures/User/profile.json'));
    assert.ok(!isExecutionConfigPath('/work/project/extensions/README.md'));
    assert.ok(!isExecutionConfigPath('/work/project/docs/profiles/a/settings.json'));
  });

  it('recognises git hooks and config as execution config', () => {
    assert.ok(isExecutionConfigPath('/p/.git/hooks/pre-commit'));
    assert.ok(isExecutionConfigPath('/p/.git/config'));
    assert.ok(!isExecutionConfigPath('/p/.git/objects/ab/cdef'));
  });

  it('protects everything in a .vscode folder, as the sandbox does (extensions read more than its JSON files)', () => {
    assert.ok(isExecutionConfigPath('/p/.vscode/notes.md'));
    assert.ok(isExecutionConfigPath('/p/sub/.vscode/tasks.json'));
  });
});
