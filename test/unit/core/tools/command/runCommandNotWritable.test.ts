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

  it('hides the secret files of a workspace folder it keeps read-only, as it hides a writable one\'s', async () => {
    // The workspace folder itself on PATH: read-only, yet the command reads it, so its .env must be hidden.
    fs.writeFileSync(path.join(workspace.root, '.env'), 'API_TOKEN=read-only-folder\n');
    fs.writeFileSync(path.join(workspace.root, 'sub', '.env.local'), 'NESTED=read-only-folder\n');
    const environment = { ...process.env, PATH: `${workspace.root}:${process.env.PATH ?? '/usr/bin:/bin'}` };
    const read = "import sys\nfor name in ('.e' + 'nv', 'sub/.e' + 'nv.local'):\n  try: print(name, open(name).read().strip())\n  except OSError as e: print(name, e.strerror)\n";
    try {
      const { text } = await workspace.run({ command: `python3 -c "${read.replace(/"/g, '\\"')}"` }, { approve: true, environment });
      assert.match(text, new RegExp(`^Sandbox: bubblewrap: .*; kept read-only: ${workspace.root} is on your PATH`, 'm'));
      assert.match(text, /^\.env Permission denied$/m);
      assert.match(text, /^sub\/\.env\.local Permission denied$/m);
      assert.doesNotMatch(text, /read-only-folder/);
    } finally {
      fs.rmSync(path.join(workspace.root, '.env'));
      fs.rmSync(path.join(workspace.root, 'sub', '.env.local'));
    }
  });
});
