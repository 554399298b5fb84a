// Secrets stay out of commands' environment, in the real extension host through
// vscode.lm.invokeTool: twenty secret variables seeded into the host's own environment, and not one
// of them visible to env, printenv, set, node's process.env or /proc/self/environ, in the sandbox
// and outside it; PATH, HOME and LANG kept; a name the user passes gets through.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { answerNextApproval, invoke, withSettings } from './support/tools';
import { CANARY, SEEDED_SECRETS } from '../support/seededSecrets';

const TOOL = 'workspace_run_command';
const PROBE = 'env; printenv; set; node -e \'console.log(JSON.stringify(process.env)); console.log(require("fs").readFileSync("/proc/self/environ", "utf8"))\'';

describe('secrets stay out of commands\' environment (extension host)', function () {
  this.timeout(60_000);
  const saved = new Map<string, string | undefined>();

  before(function () {
    if (!vscode.workspace.isTrusted || process.platform !== 'linux') this.skip();
    for (const [name, value] of Object.entries(SEEDED_SECRETS)) {
      saved.set(name, process.env[name]);
      process.env[name] = value;
    }
    if (!process.env.LANG) {
      saved.set('LANG', undefined);
      process.env.LANG = 'C.UTF-8';
    }
  });

  after(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  for (const sandbox of ['auto', 'off']) {
    it(`shows none of 20 seeded secrets to env, printenv, set, node and /proc/self/environ (sandbox ${sandbox}), keeps PATH, HOME and LANG, and says how many were withheld`, async () => {
      // Redaction off: the result must hold no secret because the command never had one, not because it was masked.
      const { text } = await withSettings({ 'runCommand.sandbox': sandbox, redactSecrets: false }, async () => {
        const call = invoke(TOOL, { command: PROBE, timeout: 30 });
        // node with inline code asks; outside the sandbox the extension asks as well.
        await answerNextApproval(true);
        return call;
      });
      assert.match(text, /^Exit code: 0$/m);
      assert.ok(!text.includes(CANARY), `a seeded secret reached the command:\n${text.split('\n').filter((line) => line.includes(CANARY)).join('\n')}`);
      const withheld = Number(/; (\d+) secret environment variables? withheld/.exec(text)?.[1]);
      assert.ok(withheld >= 20, `the Sandbox line says ${withheld} were withheld`);
      for (const kept of ['PATH', 'HOME', 'LANG']) assert.match(text, new RegExp(`^${kept}=`, 'm'), `${kept} is kept`);
    });
  }

  it('lets through a secret the user names in runCommand.passEnvironment', async () => {
    const { text } = await withSettings({ 'runCommand.passEnvironment': ['NPM_TOKEN'] }, () => invoke(TOOL, { command: 'printenv NPM_TOKEN' }));
    assert.match(text, new RegExp(`--- stdout ---\\n${SEEDED_SECRETS.NPM_TOKEN}\\n`));
  });
});
