import * as assert from 'node:assert/strict';
import type { CommandDecision } from '../../../../../src/core/decisions';
import { commandPolicyOptions, commandRepositoryView } from '../../../../../src/core/guard/command/pathJudge';
import { evaluateCommandPolicy } from '../../../../../src/core/guard/command/policy';
import { describeVerdict } from '../../../../../src/core/guard/command/verdict';
import { testContext } from '../../../support/context';
import { FIFO_MECHANISM, FIFO_PLATFORMS, linkTreePerTest, WINE_SYMLINKS } from '../../../support/linkTree';
import { itOnlyOn, wineLacks } from '../../../support/platforms';

describe('guard/command/pathJudge', () => {
  const tree = linkTreePerTest();

  /** The policy's decision for a line in the workspace, with the guard table as its path judge. */
  const decide = async (line: string): Promise<{ decision: CommandDecision; reasons: string }> => {
    const ctx = testContext({ root: tree.root });
    const verdict = await evaluateCommandPolicy(line, await commandPolicyOptions(ctx, tree.root));
    return { decision: verdict.decision, reasons: describeVerdict(verdict).join('\n') };
  };

  it('lets a redirect into a plain workspace file run', async () => {
    assert.equal((await decide('echo x > plain.txt')).decision, 'allow');
  });

  it('refuses a redirect through a link that leads outside the workspace', async function () {
    wineLacks(this, WINE_SYMLINKS);
    const { decision, reasons } = await decide('echo x > escape.txt');
    assert.equal(decision, 'deny');
    assert.match(reasons, /file\.symlink_escape_write/);
  });

  it('refuses a redirect onto a dangling link, which would create its target wherever it points', async function () {
    wineLacks(this, WINE_SYMLINKS);
    const { decision, reasons } = await decide('echo x >> dangling.txt');
    assert.equal(decision, 'deny');
    assert.match(reasons, /file\.non_regular_file: dangling\.txt is a symlink that leads nowhere/);
  });

  it('asks before a redirect onto a hard-linked file', async () => {
    const { decision, reasons } = await decide('echo x > hard.txt');
    assert.equal(decision, 'ask');
    assert.match(reasons, /file\.hard_link_write/);
  });

  itOnlyOn(FIFO_PLATFORMS, FIFO_MECHANISM)('refuses to read a FIFO, which would block the command', async () => {
    const { decision, reasons } = await decide('cat fifo');
    assert.equal(decision, 'deny');
    assert.match(reasons, /file\.non_regular_file: fifo is not a regular file/);
  });

  it('gives git\'s discovery the home folder as a Location path, as its other paths, on Windows (C:\\Users\\u) and elsewhere', async () => {
    const windows = testContext({ root: tree.root, workspace: { home: 'C:\\Users\\u', platform: 'win32' } });
    assert.equal((await commandRepositoryView(windows)).home, '/C:/Users/u');
    const share = testContext({ root: tree.root, workspace: { home: '\\\\server\\share\\u', platform: 'win32' } });
    assert.equal((await commandRepositoryView(share)).home, '//server/share/u');
    const linux = testContext({ root: tree.root, workspace: { home: '/home/u', platform: 'linux' } });
    assert.equal((await commandRepositoryView(linux)).home, '/home/u');
  });
});
