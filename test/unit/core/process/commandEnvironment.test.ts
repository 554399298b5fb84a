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
  it('drops the variables that point git at another repository, config or program', () => {
    const env = nonInteractiveEnvironment({
      PATH: '/usr/bin', HOME: '/home/u', GIT_DIR: '/elsewhere/.git', GIT_WORK_TREE: '/elsewhere', GIT_CONFIG_GLOBAL: '/tmp/evil', GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.fsmonitor', GIT_CONFIG_VALUE_0: 'touch pwned', GIT_CONFIG_PARAMETERS: "'core.fsmonitor'='x'", GIT_EXTERNAL_DIFF: 'evil', GIT_AUTHOR_NAME: 'kept',
    });
    assert.deepEqual(Object.keys(env).filter((name) => name.startsWith('GIT_') && !['GIT_PAGER', 'GIT_TERMINAL_PROMPT', 'GIT_EDITOR'].includes(name)), ['GIT_AUTHOR_NAME']);
    assert.equal(env.HOME, '/home/u');
  });

  it('turns pagers, prompts and colours off', () => {
    const env = nonInteractiveEnvironment({ FORCE_COLOR: '1' });
    assert.deepEqual([env.PAGER, env.GIT_PAGER, env.GIT_TERMINAL_PROMPT, env.DEBIAN_FRONTEND, env.NO_COLOR, env.FORCE_COLOR], ['cat', 'cat', '0', 'noninteractive', '1', undefined]);
  });
});
