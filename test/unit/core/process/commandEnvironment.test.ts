import * as assert from 'node:assert/strict';
import { nonInteractiveEnvironment } from '../../../../src/core/process/commandEnvironment';

describe('process/commandEnvironment', () => {
  it('drops empty and relative PATH entries, so a bare name never means a workspace file', () => {
    assert.equal(nonInteractiveEnvironment({ PATH: '.:/usr/bin::node_modules/.bin:/bin' }).PATH, '/usr/bin:/bin');
  });

  it('drops the PATH entries a command could write to, so no program is found by name in them', () => {
    const writable = (entry: string): boolean => entry.startsWith('/work/app');
    assert.equal(nonInteractiveEnvironment({ PATH: '/work/app/bin:/usr/bin:/work/app/node_modules/.bin:/bin' }, writable).PATH, '/usr/bin:/bin');
  });
  it('turns pagers, prompts and colours off', () => {
    const env = nonInteractiveEnvironment({ FORCE_COLOR: '1' });
    assert.deepEqual([env.PAGER, env.GIT_PAGER, env.GIT_TERMINAL_PROMPT, env.DEBIAN_FRONTEND, env.NO_COLOR, env.FORCE_COLOR], ['cat', 'cat', '0', 'noninteractive', '1', undefined]);
  });
});
