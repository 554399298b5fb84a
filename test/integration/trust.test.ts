// Restricted Mode: only the read tools work; everything that writes or runs is refused with a reason.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { invoke, invokeError } from './support/tools';

const WRITING_CALLS: [string, object][] = [
  ['workspace_write_file', { file_path: 'trust-probe.txt', content: 'x\n' }],
  ['workspace_edit_file', { file_path: 'README.md', old_string: 'a', new_string: 'b' }],
  ['workspace_apply_patch', { patch: '*** Begin Patch\n*** Add File: trust-probe.txt\n+x\n*** End Patch\n' }],
  ['workspace_run_command', { command: 'echo hi' }],
];

describe('workspace trust (extension host)', () => {
  it('lets the read tools work in either trust state', async () => {
    assert.match((await invoke('workspace_list_directory', {})).text, /^\.\/ \(/);
  });

  for (const [name, input] of WRITING_CALLS) {
    it(`refuses ${name} when the workspace is untrusted`, async function () {
      if (vscode.workspace.isTrusted) this.skip();
      assert.match(await invokeError(name, input), new RegExp(`^${name} is not available because this workspace is not trusted`));
    });
  }
});
