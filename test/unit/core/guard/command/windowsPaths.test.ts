// The bash policy on a Windows host (Git Bash): words its programs take as Windows paths are not
// read as names in the folder the line runs in.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import { commandPolicyOptions } from '../../../../../src/core/guard/command/pathJudge';
import { evaluateCommandPolicy } from '../../../../../src/core/guard/command/policy';
import type { CommandPolicyOptions } from '../../../../../src/core/guard/command/policyOptions';
import { describeVerdict } from '../../../../../src/core/guard/command/verdict';
import { testContext } from '../../../support/context';

/** The policy's options for a line run in `cwd`, with a path judge that lets every path through: only the policy's own reading of the words decides. */
async function optionsIn(cwd: string): Promise<CommandPolicyOptions> {
  const ctx = testContext({ root: os.tmpdir() });
  return { ...(await commandPolicyOptions(ctx, os.tmpdir())), cwd, judgePath: async () => ({ decision: 'allow', reason: 'a path the test lets through' }) };
}

describe('guard/command/policy: Windows paths in a bash line on a Windows host', () => {
  for (const line of ['cat C:/Users/me/.ssh/id_rsa', "cat 'C:\\Users\\me\\.ssh\\id_rsa'", 'cat c:secret.txt', "echo x > '.vscode\\settings.json'", 'cat .git\\\\config']) {
    it(`asks before ${line}`, async () => {
      const verdict = await evaluateCommandPolicy(line, await optionsIn('C:/work/ws'));
      assert.equal(verdict.decision, 'ask', describeVerdict(verdict).join('\n'));
      assert.match(describeVerdict(verdict).join('\n'), /Windows drive path|has a backslash/);
    });
  }

  it('judges a plain relative path as before', async () => {
    const verdict = await evaluateCommandPolicy('cat src/a.ts', await optionsIn('C:/work/ws'));
    assert.equal(verdict.decision, 'allow', describeVerdict(verdict).join('\n'));
  });

  it('on a POSIX host, reads such a word as the name it is there', async () => {
    const verdict = await evaluateCommandPolicy("cat 'C:\\x'", await optionsIn('/work/ws'));
    assert.equal(verdict.decision, 'allow', describeVerdict(verdict).join('\n'));
  });
});
