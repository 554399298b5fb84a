import * as assert from 'node:assert/strict';
import { isSecretVariable, nonInteractiveEnvironment, searchPathVariable, withoutSecrets } from '../../../../src/core/process/commandEnvironment';
import { SEEDED_SECRETS } from '../../../support/seededSecrets';

describe('process/commandEnvironment', () => {
  it('drops empty and relative PATH entries, so a bare name never means a workspace file', () => {
    assert.equal(nonInteractiveEnvironment({ PATH: '.:/usr/bin::node_modules/.bin:/bin' }).PATH, '/usr/bin:/bin');
  });

  it('drops the PATH entries a command could write to, so no program is found by name in them', () => {
    const writable = (entry: string): boolean => entry.startsWith('/work/app');
    assert.equal(nonInteractiveEnvironment({ PATH: '/work/app/bin:/usr/bin:/work/app/node_modules/.bin:/bin' }, writable).PATH, '/usr/bin:/bin');
  });
  it('on Windows keeps the host\'s own spelling of Path, its ; separator and drive or share entries, and drops relative and writable ones', () => {
    const writable = (entry: string): boolean => entry.toLowerCase().replace(/\\/g, '/').startsWith('c:/work/app');
    const env = nonInteractiveEnvironment({ Path: 'C:\\Work\\App\\node_modules\\.bin;.;C:\\Windows\\System32;;bin;\\\\srv\\tools;c:/work/app/bin;C:\\Program Files\\Git\\cmd', SystemRoot: 'C:\\Windows' }, writable, 'win32');
    assert.equal(env.Path, 'C:\\Windows\\System32;\\\\srv\\tools;C:\\Program Files\\Git\\cmd');
    assert.equal(env.PATH, undefined, 'no second, POSIX-shaped PATH beside it');
    // cmd.exe and CreateProcess look in the current folder first unless told not to: a workspace's git.exe would win.
    assert.equal(env.NoDefaultCurrentDirectoryInExePath, '1');
    assert.equal(nonInteractiveEnvironment({ PATH: '.;relative', SYSTEMROOT: 'D:\\Win' }, () => false, 'win32').PATH, 'D:\\Win\\System32;D:\\Win');
  });

  it('names the search path variable as each platform has it', () => {
    assert.deepEqual({ ...searchPathVariable({ PATH: '/bin' }), absolute: undefined }, { key: 'PATH', separator: ':', fallback: '/usr/local/bin:/usr/bin:/bin', absolute: undefined });
    const windows = searchPathVariable({ pAtH: 'C:\\x' }, 'win32');
    assert.equal(windows.key, 'pAtH');
    assert.deepEqual(['C:\\x', 'c:/x', '\\\\srv\\share', 'x', '.\\bin', '\\x', 'C:x'].map((entry) => windows.absolute(entry)), [true, true, true, false, false, false, false]);
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

  describe('withoutSecrets', () => {
    const ordinary = { PATH: '/usr/bin:/bin', HOME: '/home/u', LANG: 'C.UTF-8', USER: 'u', SHELL: '/bin/bash', TERM: 'dumb', NODE_ENV: 'test', JAVA_HOME: '/usr/lib/jvm', GOPATH: '/home/u/go', HTTP_PROXY_PORT: '3128', EDITOR: 'vi' };

    it('withholds all 20 seeded secrets, sorted by name, and keeps PATH, HOME, LANG and the like', () => {
      const { env, withheld } = withoutSecrets({ ...ordinary, ...SEEDED_SECRETS });
      assert.deepEqual(withheld, Object.keys(SEEDED_SECRETS).sort());
      assert.deepEqual(env, ordinary);
    });

    it('lets through the names the user passes, exactly as written', () => {
      const { env, withheld } = withoutSecrets({ ...ordinary, NPM_TOKEN: 'n', GITHUB_TOKEN: 'g' }, ['NPM_TOKEN', 'github_token']);
      assert.equal(env.NPM_TOKEN, 'n');
      assert.deepEqual(withheld, ['GITHUB_TOKEN']);
    });

    it('withholds a password in any URL-valued variable, and credential handles by name', () => {
      assert.equal(isSecretVariable('PIP_INDEX_URL', 'https://user:pw@pypi.internal/simple'), true);
      assert.equal(isSecretVariable('PIP_INDEX_URL', 'https://pypi.internal/simple'), false);
      assert.equal(isSecretVariable('VSCODE_GIT_ASKPASS_MAIN', '/x'), true);
      assert.equal(isSecretVariable('VSCODE_IPC_HOOK_CLI', '/run/user/1/vscode.sock'), true);
      assert.equal(isSecretVariable('DBUS_SESSION_BUS_ADDRESS', 'unix:path=/run/user/1/bus'), true);
      assert.equal(isSecretVariable('XAUTHORITY', '/home/u/.Xauthority'), true);
      assert.equal(isSecretVariable('GPG_AGENT_INFO', '/run/gpg'), true);
      assert.equal(isSecretVariable('PWD', '/work'), false);
    });
  });
});
