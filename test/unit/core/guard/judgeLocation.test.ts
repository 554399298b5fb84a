import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { judgeLocation } from '../../../../src/core/guard/judgeLocation';
import type { GuardAccess } from '../../../../src/core/guard/rules';
import { fileLocation } from '../../../../src/core/location';
import type { CommandHost } from '../../../../src/core/ports/process';
import type { RiskLevel } from '../../../../src/core/settings';
import { testContext } from '../../support/context';
import { FIFO_MECHANISM, FIFO_PLATFORMS, linkTreePerTest, WINE_SYMLINKS } from '../../support/linkTree';
import { itOnlyOn, wineLacks } from '../../support/platforms';

describe('guard/judgeLocation', () => {
  const tree = linkTreePerTest();

  const judge = async (name: string, access: GuardAccess, riskLevel: RiskLevel) =>
    (await judgeLocation(fileLocation(path.join(tree.root, name)), access, testContext({ root: tree.root, settings: { riskLevel } }))).verdict;

  const table: [string, GuardAccess, string, Record<RiskLevel, string>][] = [
    ['escape.txt', 'write', 'file.symlink_escape_write', { low: 'deny', medium: 'deny', high: 'warn' }],
    ['hard.txt', 'write', 'file.hard_link_write', { low: 'deny', medium: 'warn', high: 'warn' }],
    ['fifo', 'read', 'file.non_regular_file', { low: 'deny', medium: 'deny', high: 'deny' }],
    ['fifo', 'write', 'file.non_regular_file', { low: 'deny', medium: 'deny', high: 'deny' }],
    ['dangling.txt', 'write', 'file.non_regular_file', { low: 'deny', medium: 'deny', high: 'deny' }],
  ];
  for (const [name, access, rule, levels] of table) {
    const test = name === 'fifo' ? itOnlyOn(FIFO_PLATFORMS, FIFO_MECHANISM) : it;
    for (const [level, decision] of Object.entries(levels) as [RiskLevel, string][]) {
      test(`${rule}: ${access} of ${name} at ${level} is ${decision}`, async function () {
        if (name === 'escape.txt' || name === 'dangling.txt') {
          wineLacks(this, WINE_SYMLINKS);
        }
        const verdict = await judge(name, access, level);
        assert.equal(verdict.decision, decision);
        assert.equal(verdict.rule, rule);
      });
    }
  }

  it('names the file as the workspace shows it in the reason', async () => {
    assert.match((await judge('hard.txt', 'write', 'medium')).reason, /^hard\.txt has 2 hard links/);
  });

  it('allows a plain file inside the workspace', async () => {
    assert.equal((await judge('plain.txt', 'write', 'low')).decision, 'allow');
  });

  it('judges a folder by its own rules, not as a hard-linked file (folders always have several links)', async () => {
    fs.mkdirSync(path.join(tree.root, 'sub', 'deeper'), { recursive: true });
    assert.equal((await judge('sub', 'write', 'low')).decision, 'allow');
  });

  it('returns what is at the resolved location', async function () {
    wineLacks(this, WINE_SYMLINKS);
    const judged = await judgeLocation(fileLocation(path.join(tree.root, 'escape.txt')), 'read', testContext({ root: tree.root, settings: { riskLevel: 'high' } }));
    assert.equal(judged.resolved.path, fileLocation(fs.realpathSync(path.join(tree.outside, 'target.txt'))).path);
    assert.equal(judged.stat?.kind, 'file');
    assert.match(judged.subject, /escape\.txt \(a symlink to .*target\.txt\)$/);
  });
});

describe('guard/judgeLocation: a git directory found by its contents, whatever its name', () => {
  const tree = linkTreePerTest();
  const judge = async (name: string, access: GuardAccess = 'write') =>
    (await judgeLocation(fileLocation(path.join(tree.root, name)), access, testContext({ root: tree.root, settings: { riskLevel: 'high' } }))).verdict;

  beforeEach(() => {
    // A bare repository git would use (`git -C plainbare ...`): HEAD, objects and refs, no `.git` in its name.
    for (const folder of ['plainbare/objects', 'plainbare/refs', 'lookalike/objects']) {
      fs.mkdirSync(path.join(tree.root, folder), { recursive: true });
    }
    fs.writeFileSync(path.join(tree.root, 'plainbare', 'HEAD'), 'ref: refs/heads/main\n');
    fs.writeFileSync(path.join(tree.root, 'plainbare', 'config'), '[core]\n\tbare = true\n');
    fs.writeFileSync(path.join(tree.root, 'lookalike', 'HEAD'), 'not a repository: no refs\n');
  });

  for (const name of ['plainbare/config', 'plainbare/hooks/pre-commit', 'plainbare/info/attributes', 'plainbare/commondir', 'plainbare/modules/sub/config', 'plainbare/modules/a/b/hooks/post-checkout']) {
    it(`asks before a write to ${name} (file.execution_config_write)`, async () => {
      const verdict = await judge(name);
      assert.equal(verdict.decision, 'warn');
      assert.equal(verdict.rule, 'file.execution_config_write');
    });
  }

  it('lets the rest of a bare repository, a folder without its marks, and reads alone', async () => {
    assert.notEqual((await judge('plainbare/description')).rule, 'file.execution_config_write');
    assert.notEqual((await judge('lookalike/config')).rule, 'file.execution_config_write');
    assert.equal((await judge('plainbare/config', 'read')).decision, 'allow');
  });

  describe('the extension\'s private folders', () => {
    // Only what the guard reads of the command host: where the logs are, and the folders commands never see.
    const hostWith = (privateFolder: string): CommandHost => ({ logDirectory: path.join(privateFolder, 'logs'), sandbox: { privateFolders: [privateFolder] } }) as unknown as CommandHost;
    const judgePrivate = async (name: string, access: GuardAccess, riskLevel: RiskLevel) => {
      const privateFolder = path.join(tree.root, 'private');
      fs.mkdirSync(path.join(privateFolder, 'logs'), { recursive: true });
      fs.writeFileSync(path.join(privateFolder, 'window-1.lock'), '{"nonce":"n"}');
      fs.writeFileSync(path.join(privateFolder, 'logs', 'cmd.log'), 'output\n');
      const ctx = testContext({ root: tree.root, settings: { riskLevel, allowedReadPaths: ['/'] }, commands: hostWith(privateFolder) });
      return (await judgeLocation(fileLocation(path.join(privateFolder, name)), access, ctx)).verdict;
    };

    it('refuses the MCP lock file (its nonce) below high and asks at high, wherever reads may go', async () => {
      assert.equal((await judgePrivate('window-1.lock', 'read', 'medium')).decision, 'deny');
      const high = await judgePrivate('window-1.lock', 'read', 'high');
      assert.equal(high.decision, 'warn');
      assert.equal(high.rule, 'file.sensitive_path_read');
      assert.equal((await judgePrivate('window-1.lock', 'write', 'high')).decision, 'deny');
    });

    it('still lets the model read the command logs the results point at', async () => {
      assert.equal((await judgePrivate('logs/cmd.log', 'read', 'medium')).decision, 'allow');
    });
  });
});

describe('guard/judgeLocation: a file about to be created is judged by its normalised name', () => {
  const tree = linkTreePerTest();
  const judge = async (name: string, access: GuardAccess, riskLevel: RiskLevel = 'high') =>
    (await judgeLocation(fileLocation(path.join(tree.root, name)), access, testContext({ root: tree.root, settings: { riskLevel } }))).verdict;

  beforeEach(() => fs.mkdirSync(path.join(tree.root, '.git', 'hooks'), { recursive: true }));

  const writes: [string, string][] = [
    ['.git./hooks/pre-commit', 'file.protected_file_overwrite'],
    ['GIT~1/config', 'file.protected_file_overwrite'],
    ['.git::$INDEX_ALLOCATION/config', 'file.protected_file_overwrite'],
    ['.vscode /tasks.json', 'file.execution_config_write'],
    ['VSCODE~1/settings.json', 'file.execution_config_write'],
    ['sub/.gitmodules.', 'file.execution_config_write'],
    ['.env::$DATA', 'file.sensitive_path_write'],
  ];
  for (const [name, rule] of writes) {
    it(`judges a write to ${name}, which does not exist, as ${rule}`, async () => {
      assert.ok(!fs.existsSync(path.join(tree.root, name)));
      assert.equal((await judge(name, 'write')).rule, rule);
    });
  }

  it('judges a read of .ENV. or ENV~1 as a read of a secret', async () => {
    assert.equal((await judge('.ENV.', 'read', 'medium')).rule, 'file.sensitive_path_read');
    assert.equal((await judge('ENV~1', 'read', 'medium')).rule, 'file.sensitive_path_read');
  });
});
