// The reduction of long command output in the real extension host, through vscode.lm.invokeTool:
// a command that prints thousands of passing test lines and one failure comes back with the
// failure, a `reduced:` line naming what was left out, and the full log, which has every line;
// a background command's read is reduced the same way.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { invoke } from './support/tools';
import { backgroundId, stdoutOf } from '../support/commandResults';

const RUN = 'workspace_run_command';
const STOP = 'workspace_stop_command';
const PASSING = 6000;
/** Passing lines as mocha prints them, then one failure and the totals: awk and echo run without asking. */
const TEST_RUN = `seq 1 ${PASSING} | awk '{ print "    ✔ case " $1 " keeps its order" }'; echo '  1) parser trims trailing spaces: AssertionError: expected 10 to equal 9'; echo '  ${PASSING} passing'; echo '  1 failing'`;

describe('long command output is reduced before the cut (extension host)', function () {
  this.timeout(60_000);

  before(function () {
    if (!vscode.workspace.isTrusted) this.skip();
  });

  it('drops the passing lines, keeps the failure and the totals, says so, and names the full log that has every line', async () => {
    const { text } = await invoke(RUN, { command: TEST_RUN });
    assert.match(text, /^Exit code: 0\n/);
    assert.match(text, new RegExp(`^reduced: ${PASSING} passing test lines dropped \\(the full log below has every line\\)$`, 'm'));
    assert.match(text, /^ {2}1\) parser trims trailing spaces: AssertionError: expected 10 to equal 9$/m);
    assert.match(text, new RegExp(`^ {2}${PASSING} passing\\n {2}1 failing$`, 'm'));
    assert.doesNotMatch(stdoutOf(text), /✔ case/);
    assert.doesNotMatch(text, /in the middle were left out/);

    const logPath = /^Full log: (\S+)$/m.exec(text)?.[1] ?? '';
    const log = fs.readFileSync(logPath, 'utf8').split('\n');
    assert.equal(log.filter((line) => /^ {4}✔ case \d+ keeps its order$/.test(line)).length, PASSING);
    assert.ok(log.includes('    ✔ case 4321 keeps its order'));
    assert.ok(log.includes('  1) parser trims trailing spaces: AssertionError: expected 10 to equal 9'));
  });

  it('reduces what a background command printed since the last read, while wait_for still sees the raw lines', async () => {
    const seconds = 1000 + Math.floor(Math.random() * 8000);
    // wait_for matches a passing line the read then leaves out: it sees every line as printed.
    const started = await invoke(RUN, { command: `${TEST_RUN}; sleep ${seconds}`, background: true, wait_for: '✔ case 5999 keeps', timeout: 30 });
    const id = backgroundId(started.text);
    try {
      const stdout = stdoutOf(started.text);
      assert.match(stdout, /^reduced: \d+ passing test lines dropped/m);
      assert.doesNotMatch(stdout, /✔ case/);
    } finally {
      await invoke(STOP, { id });
    }
  });
});
