// Secrets never reach the model: results are redacted in the extension host before invokeTool returns.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { invoke, withSettings, workspaceRoot } from './support/tools';

const TOKEN = 'ghp_R5v8KzQ2mN7pL4xW9tY3bC6dF1gH0jK2sA5e';

describe('secret redaction (extension host)', () => {
  before(() => fs.writeFileSync(path.join(workspaceRoot(), 'deploy.sh'), `#!/bin/sh\nexport GITHUB_TOKEN=${TOKEN}\n`));

  it('replaces a token in a read_file result with a marker naming kind and line', async () => {
    const { text } = await invoke('workspace_read_file', { file_path: 'deploy.sh' });
    assert.ok(!text.includes(TOKEN));
    assert.strictEqual(text, '     1\t#!/bin/sh\n     2\texport GITHUB_TOKEN=[REDACTED github secret, line 2]');
  });

  it('returns the text unchanged when redaction is turned off', async () => {
    const { text } = await withSettings({ redactSecrets: false }, () => invoke('workspace_read_file', { file_path: 'deploy.sh' }));
    assert.ok(text.includes(TOKEN));
  });

  it('leaves no performance marks behind in the extension host: the scan of every call must not grow its memory', async () => {
    await invoke('workspace_read_file', { file_path: 'deploy.sh' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // secretlint's own profiler marked each phase ("@core>lint::start||...") and kept every mark of the process.
    assert.deepStrictEqual(performance.getEntriesByType('mark').filter((mark) => mark.name.startsWith('@core>')).map((mark) => mark.name), []);
  });
});
