// A folder the settings name writable that the sandbox keeps read-only (a folder on PATH, the home
// folder, a system folder): the command cannot write there, and its result's Sandbox: line says why.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandWorkspace } from '../../../support/commandWorkspace';

describe('workspace_run_command: a folder named writable that stays read-only', () => {
  const workspace = commandWorkspace();

  it('keeps a folder on PATH read-only although allowedWritePaths names it, and says why in the Sandbox: line', async () => {
    const bin = path.join(workspace.parent, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    const environment = { ...process.env, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` };
    const { text } = await workspace.run({ command: `sh -c 'printf x > ${bin}/git; printf y > ${workspace.root}/ok.txt'` }, { approve: true, environment, settings: { allowedWritePaths: [workspace.root, bin] } });
    assert.match(text, new RegExp(`^Sandbox: bubblewrap: .*; kept read-only: ${bin} is on your PATH \\(${bin}\\): a program the command put there would run outside the sandbox`, 'm'));
    assert.equal(fs.existsSync(path.join(bin, 'git')), false);
    assert.equal(fs.readFileSync(path.join(workspace.root, 'ok.txt'), 'utf8'), 'y');
  });
});
