import * as assert from 'node:assert/strict';
import { chooseCommandShell } from '../../../../src/core/process/shellChoice';

describe('process/shellChoice', () => {
  const everything = (): boolean => true;
  it('is the user shell when it is bash, sh or dash', () => {
    assert.equal(chooseCommandShell('/usr/local/bin/bash', everything), '/usr/local/bin/bash');
  });
  it('is bash when the user shell parses differently (zsh, fish)', () => {
    assert.equal(chooseCommandShell('/usr/bin/zsh', everything), '/bin/bash');
  });
  it('is /bin/sh when there is no bash', () => {
    assert.equal(chooseCommandShell('/usr/bin/fish', () => false), '/bin/sh');
  });
});
