import * as assert from 'node:assert/strict';
import { chooseCommandShell } from '../../../../src/core/process/shellChoice';

describe('process/shellChoice', () => {
  const everything = (): boolean => true;
  it('is the user shell when it is a system bash, sh or dash', () => {
    assert.equal(chooseCommandShell('/usr/bin/bash', everything), '/usr/bin/bash');
    assert.equal(chooseCommandShell('/bin/dash', everything), '/bin/dash');
  });
  it('is never a bash the repository ships (a terminal profile in .vscode/settings.json), nor one in a user-owned folder', () => {
    assert.equal(chooseCommandShell('/workspaces/repo/tools/bash', everything), '/bin/bash');
    assert.equal(chooseCommandShell('/home/u/src/repo/bin/sh', everything), '/bin/bash');
    assert.equal(chooseCommandShell('/opt/homebrew/bin/bash', everything), '/bin/bash');
    assert.equal(chooseCommandShell('/usr/local/bin/bash', everything), '/bin/bash');
    assert.equal(chooseCommandShell('/bin/../workspaces/repo/bash', everything), '/bin/bash');
    assert.equal(chooseCommandShell('bash', everything), '/bin/bash');
  });
  it('is bash when the user shell parses differently (zsh, fish)', () => {
    assert.equal(chooseCommandShell('/usr/bin/zsh', everything), '/bin/bash');
  });
  it('is /bin/sh when there is no bash', () => {
    assert.equal(chooseCommandShell('/usr/bin/fish', () => false), '/bin/sh');
  });
});
