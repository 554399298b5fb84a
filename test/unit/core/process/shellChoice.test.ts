import * as assert from 'node:assert/strict';
import { chooseCommandShell, encodePowerShellCommand, POWERSHELL_PRELUDE, shellInvocation, type ShellHost } from '../../../../src/core/process/shellChoice';

/** A Linux host where every file exists (or none). */
const linux = (exists: (file: string) => boolean = () => true): ShellHost => ({ platform: 'linux', exists });

/** A Windows host whose existing files are `present` (compared as Windows does: any case). */
function windows(present: readonly string[], env: Record<string, string> = { SystemRoot: 'C:\\Windows', ProgramFiles: 'C:\\Program Files' }): ShellHost {
  const files = new Set(present.map((file) => file.toLowerCase()));
  return { platform: 'win32', exists: (file) => files.has(file.toLowerCase()), env };
}

const PWSH7 = 'C:\\Program Files\\PowerShell\\7\\pwsh.exe';
const POWERSHELL51 = 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe';
const CMD = 'C:\\Windows\\System32\\cmd.exe';
const GIT_BASH = 'C:\\Program Files\\Git\\bin\\bash.exe';
const EVERY_SHELL = [PWSH7, POWERSHELL51, CMD, GIT_BASH];

describe('process/shellChoice', () => {
  it('is the user shell when it is a system bash, sh or dash', () => {
    assert.deepEqual(chooseCommandShell('/usr/bin/bash', linux()), { program: '/usr/bin/bash', kind: 'bash' });
    assert.deepEqual(chooseCommandShell('/bin/dash', linux()), { program: '/bin/dash', kind: 'bash' });
  });
  it('is never a bash the repository ships (a terminal profile in .vscode/settings.json), nor one in a user-owned folder', () => {
    for (const preferred of ['/workspaces/repo/tools/bash', '/home/u/src/repo/bin/sh', '/opt/homebrew/bin/bash', '/usr/local/bin/bash', '/bin/../workspaces/repo/bash', 'bash']) {
      assert.equal(chooseCommandShell(preferred, linux()).program, '/bin/bash', preferred);
    }
  });
  it('is bash when the user shell parses differently (zsh, fish)', () => {
    assert.equal(chooseCommandShell('/usr/bin/zsh', linux()).program, '/bin/bash');
  });
  it('is /bin/sh when there is no bash', () => {
    assert.equal(chooseCommandShell('/usr/bin/fish', linux(() => false)).program, '/bin/sh');
  });
  it('never picks PowerShell or cmd off Windows, even when the profile names them', () => {
    assert.deepEqual(chooseCommandShell('/usr/bin/pwsh', linux()), { program: '/bin/bash', kind: 'bash' });
  });

  describe('on Windows', () => {
    it("runs the terminal profile's shell when it is a known system shell at its system location, with its kind", () => {
      const host = windows(EVERY_SHELL);
      assert.deepEqual(chooseCommandShell(PWSH7, host), { program: PWSH7, kind: 'powershell' });
      assert.deepEqual(chooseCommandShell(POWERSHELL51, host), { program: POWERSHELL51, kind: 'powershell' });
      assert.deepEqual(chooseCommandShell(CMD, host), { program: CMD, kind: 'cmd' });
      assert.deepEqual(chooseCommandShell(GIT_BASH, host), { program: GIT_BASH, kind: 'bash' });
    });
    it('matches the system location in any case and with either separator, as Windows does', () => {
      const host = windows(EVERY_SHELL);
      assert.deepEqual(chooseCommandShell('C:\\WINDOWS\\system32\\WindowsPowerShell\\v1.0\\powershell.exe', host), { program: POWERSHELL51, kind: 'powershell' });
      assert.deepEqual(chooseCommandShell('c:/program files/git/bin/bash.exe', host), { program: GIT_BASH, kind: 'bash' });
    });
    it('follows SystemRoot and ProgramFiles to the system folders of a Windows installed elsewhere', () => {
      const host = windows(['D:\\Win\\System32\\cmd.exe', 'D:\\Apps\\PowerShell\\7\\pwsh.exe'], { SystemRoot: 'D:\\Win', ProgramFiles: 'D:\\Apps' });
      assert.deepEqual(chooseCommandShell('D:\\Win\\System32\\cmd.exe', host), { program: 'D:\\Win\\System32\\cmd.exe', kind: 'cmd' });
      assert.deepEqual(chooseCommandShell(undefined, host), { program: 'D:\\Apps\\PowerShell\\7\\pwsh.exe', kind: 'powershell' });
    });
    it('never runs a shell from the workspace or a user-writable folder, whatever its name: PowerShell 7 instead', () => {
      const host = windows([...EVERY_SHELL, 'C:\\work\\repo\\pwsh.exe', 'C:\\Users\\u\\AppData\\Local\\Microsoft\\WindowsApps\\pwsh.exe', 'C:\\work\\repo\\tools\\bash.exe']);
      for (const preferred of ['C:\\work\\repo\\pwsh.exe', 'C:\\Users\\u\\AppData\\Local\\Microsoft\\WindowsApps\\pwsh.exe', 'C:\\work\\repo\\tools\\bash.exe', 'pwsh.exe', 'cmd', 'C:\\Program Files\\PowerShell\\7\\..\\..\\..\\work\\repo\\pwsh.exe', '\\\\server\\share\\pwsh.exe']) {
        assert.deepEqual(chooseCommandShell(preferred, host), { program: PWSH7, kind: 'powershell' }, preferred);
      }
    });
    it('is PowerShell 7 when the profile names nothing known, else Windows PowerShell 5.1', () => {
      assert.deepEqual(chooseCommandShell(undefined, windows(EVERY_SHELL)), { program: PWSH7, kind: 'powershell' });
      assert.deepEqual(chooseCommandShell('C:\\tools\\nu.exe', windows([POWERSHELL51, CMD])), { program: POWERSHELL51, kind: 'powershell' });
      assert.deepEqual(chooseCommandShell(GIT_BASH, windows([POWERSHELL51])), { program: POWERSHELL51, kind: 'powershell' }, 'a profile whose shell is not installed');
    });
    it('ignores a SystemRoot or ProgramFiles that is not a plain drive folder', () => {
      const host = windows([POWERSHELL51, 'C:\\work\\repo\\System32\\cmd.exe'], { SystemRoot: 'C:\\work\\repo\\..\\repo', ProgramFiles: '\\\\server\\share' });
      assert.deepEqual(chooseCommandShell('C:\\work\\repo\\System32\\cmd.exe', host), { program: POWERSHELL51, kind: 'powershell' });
    });
  });

  describe('the arguments that run a line', () => {
    it('bash: -c and the line as one argument', () => {
      assert.deepEqual(shellInvocation({ program: '/bin/bash', kind: 'bash' }, 'ls -la'), { args: ['-c', 'ls -la'], verbatim: false });
    });
    it('PowerShell: no profile, not interactive, text output, and the prelude and line as one -EncodedCommand word of UTF-16LE base64', () => {
      const line = 'Get-ChildItem "a b" | Select-String \'x\' -- "\\" é';
      const invocation = shellInvocation({ program: PWSH7, kind: 'powershell' }, line);
      assert.deepEqual(invocation.args.slice(0, -1), ['-NoLogo', '-NoProfile', '-NonInteractive', '-OutputFormat', 'Text', '-EncodedCommand']);
      assert.equal(invocation.verbatim, false);
      const encoded = invocation.args[invocation.args.length - 1];
      assert.match(encoded, /^[A-Za-z0-9+/]+=*$/, 'base64 only: nothing for Windows to quote');
      assert.equal(Buffer.from(encoded, 'base64').toString('utf16le'), `${POWERSHELL_PRELUDE}\n${line}`);
      assert.equal(encodePowerShellCommand('dir'), 'ZABpAHIA', 'the form PowerShell documents for -EncodedCommand');
    });
    it('PowerShell: the prelude sets UTF-8 output for the run', () => {
      assert.match(POWERSHELL_PRELUDE, /\[Console\]::OutputEncoding = \[System\.Text\.UTF8Encoding\]::new\(\$false\)/);
      assert.match(POWERSHELL_PRELUDE, /\$OutputEncoding = /);
    });
    it('cmd: AutoRun off, /s /c and the line in outer quotes, passed verbatim', () => {
      assert.deepEqual(shellInvocation({ program: CMD, kind: 'cmd' }, 'dir "a b"'), { args: ['/d', '/s', '/c', '"dir "a b""'], verbatim: true });
    });
  });
});
