import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CommandDecision } from '../../../../../src/core/decisions';
import { commandPathJudge } from '../../../../../src/core/guard/command/pathJudge';
import { evaluateCommandPolicy } from '../../../../../src/core/guard/command/policy';
import { DEFAULT_SETTINGS } from '../../../../../src/core/settings';
import { testContext } from '../../../support/context';

describe('guard/command/pathJudge', () => {
  let parent: string;
  let root: string;
  beforeEach(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-pathjudge-'));
    root = path.join(parent, 'ws');
    const outside = path.join(parent, 'outside');
    fs.mkdirSync(root);
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(root, 'plain.txt'), 'x\n');
    fs.writeFileSync(path.join(outside, 'target.txt'), 'outside\n');
    fs.symlinkSync(path.join(outside, 'target.txt'), path.join(root, 'escape.txt'));
    fs.symlinkSync(path.join(outside, 'created-through-link.txt'), path.join(root, 'dangling.txt'));
    fs.writeFileSync(path.join(root, 'linked.txt'), 'linked\n');
    fs.linkSync(path.join(root, 'linked.txt'), path.join(root, 'hard.txt'));
    execFileSync('mkfifo', [path.join(root, 'fifo')]);
  });
  afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

  /** The policy's decision for a line in the workspace, with the guard table as its path judge. */
  const decide = async (line: string): Promise<{ decision: CommandDecision; reasons: string }> => {
    const ctx = testContext({ root });
    const verdict = await evaluateCommandPolicy(line, { cwd: root, home: os.homedir(), allow: [], deny: DEFAULT_SETTINGS.runCommandDeny, judgePath: await commandPathJudge(ctx) });
    return { decision: verdict.decision, reasons: verdict.reasons.join('\n') };
  };

  it('lets a redirect into a plain workspace file run', async () => {
    assert.equal((await decide('echo x > plain.txt')).decision, 'allow');
  });

  it('refuses a redirect through a link that leads outside the workspace', async () => {
    const { decision, reasons } = await decide('echo x > escape.txt');
    assert.equal(decision, 'deny');
    assert.match(reasons, /file\.symlink_escape_write/);
  });

  it('refuses a redirect onto a dangling link, which would create its target wherever it points', async () => {
    const { decision, reasons } = await decide('echo x >> dangling.txt');
    assert.equal(decision, 'deny');
    assert.match(reasons, /file\.non_regular_file: dangling\.txt is a symlink that leads nowhere/);
  });

  it('asks before a redirect onto a hard-linked file', async () => {
    const { decision, reasons } = await decide('echo x > hard.txt');
    assert.equal(decision, 'ask');
    assert.match(reasons, /file\.hard_link_write/);
  });

  it('refuses to read a FIFO, which would block the command', async () => {
    const { decision, reasons } = await decide('cat fifo');
    assert.equal(decision, 'deny');
    assert.match(reasons, /file\.non_regular_file: fifo is not a regular file/);
  });
});
