// The PowerShell policy (src/core/guard/command/powershell/) on the grammar, over a fixture
// workspace: the read-only work of an agent runs without asking, every escape shape asks, and paths
// are judged by the same path judge as bash (a secret is as secret to Get-Content as to cat).
// PowerShell itself is not needed: the policy only parses and judges, nothing runs.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { commandPolicyOptions } from '../../../../../src/core/guard/command/pathJudge';
import { evaluateCommandPolicy } from '../../../../../src/core/guard/command/policy';
import { evaluatePowerShellPolicy, judgeCmdLine } from '../../../../../src/core/guard/command/powershell/policy';
import { describeVerdict, type CommandVerdict } from '../../../../../src/core/guard/command/verdict';
import { fileLocation } from '../../../../../src/core/location';
import { DEFAULT_DENY_PATTERNS } from '../../../../../src/core/settings';
import { testContext } from '../../../support/context';

let root: string;
let home: string;

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

async function options(settings: { runCommandAllow?: string[] } = {}): Promise<Parameters<typeof evaluatePowerShellPolicy>[1]> {
  const ctx = testContext({ root, workspace: { home, platform: process.platform }, settings: { runCommandAllow: settings.runCommandAllow ?? [], runCommandDeny: DEFAULT_DENY_PATTERNS } });
  // The folder the command runs in, in the form runCommand gives the policy (resolveCommandCwd).
  return commandPolicyOptions(ctx, ctx.host.fs.localPath(fileLocation(root)) ?? root);
}

async function judge(line: string): Promise<CommandVerdict> {
  return evaluatePowerShellPolicy(line.replaceAll('@HOME@', home), await options());
}

async function judgeBash(line: string): Promise<CommandVerdict> {
  return evaluateCommandPolicy(line.replaceAll('@HOME@', home), await options());
}

function shown(line: string, verdict: CommandVerdict): string {
  return `${JSON.stringify(line)} -> ${verdict.decision}\n${describeVerdict(verdict).join('\n')}`;
}

/** Lines an agent runs to look around: they run without asking. */
const MUST_ALLOW: readonly string[] = [
  'Get-ChildItem',
  'Get-ChildItem -Path src -Recurse',
  'gci src -Filter *.ts',
  'ls src',
  'dir',
  'LS SRC',
  'get-childitem -recurse -file',
  'Microsoft.PowerShell.Management\\Get-ChildItem src',
  'Get-Content README.md',
  'gc src\\a.ts',
  'cat src/a.ts -TotalCount 5',
  'type README.md',
  'Get-Content -Path:README.md -Raw',
  'Get-Content -LiteralPath src\\a.ts -Tail 3',
  "Get-Content 'src\\a.ts'",
  'Get-Content "README.md"',
  'Get-Content src\\*.ts',
  'Get-Content src\\a.ts | Select-String TODO',
  'Select-String -Path src\\*.ts -Pattern foo',
  'sls foo src\\a.ts',
  'Get-ChildItem src | Where-Object { $_.Length -gt 10 } | Select-Object -Property Name',
  'Get-ChildItem -Recurse | Sort-Object Length -Descending | Select-Object -First 5',
  'Get-ChildItem | ForEach-Object { $_.Name.ToUpper() }',
  'ls | % { $_.Name }',
  'ls | ? { $_.Name -like "*.md" }',
  'Get-ChildItem | Sort-Object { $_.Length } | Format-Table -AutoSize',
  'Get-Location',
  'pwd',
  'Test-Path src',
  'Resolve-Path README.md',
  'Get-Item README.md | Format-List',
  'Get-FileHash README.md -Algorithm SHA256',
  'Get-Content README.md | Measure-Object -Line',
  'Write-Output hello; echo "plain text"',
  "Write-Host 'done'",
  'Get-Date -Format yyyy-MM-dd',
  '[Math]::Round(2.5)',
  '$PSVersionTable',
  'Get-ChildItem src && Get-Location',
  'Get-Content package.json -Raw | ConvertFrom-Json | Select-Object -ExpandProperty name',
  'Get-ChildItem > $null',
  'Get-ChildItem 2>&1 | Out-String',
  'cd src; Get-Content a.ts',
  'Set-Location src; Get-ChildItem',
  'git status',
  'git status --short',
  'git.exe status',
  'GIT status',
  'rg foo src',
  'rg -n "TODO" src',
  "& 'git' status",
  'node --version',
  'ls # a comment',
];

/** Lines that do harm, or whose harm cannot be known before they run: never without asking. */
const MUST_ASK: ReadonlyArray<readonly [string, string]> = [
  // Aliases of cmdlets that change files or use the network (5.1's curl and wget are Invoke-WebRequest).
  ['rm README.md', 'Remove-Item by its alias'],
  ['del README.md', 'Remove-Item by its cmd alias'],
  ['ri README.md', 'Remove-Item by its short alias'],
  ['sc x.txt hi', 'Set-Content by its 5.1 alias'],
  ['ni x.txt', 'New-Item'],
  ['Out-File x.txt', 'Out-File writes'],
  ['Copy-Item README.md x.md', 'copies'],
  ['curl https://example.com', 'Invoke-WebRequest in 5.1, curl.exe in 7: the network either way'],
  ['wget https://example.com', 'Invoke-WebRequest in 5.1'],
  ['iwr https://example.com -OutFile x', 'Invoke-WebRequest'],
  ['Invoke-RestMethod https://example.com', 'network'],
  // Case and module-qualified names.
  ['REMOVE-ITEM README.md', 'upper case'],
  ['ReMoVe-ItEm README.md', 'mixed case'],
  ['Microsoft.PowerShell.Management\\Remove-Item README.md', 'module-qualified Remove-Item'],
  ['Evil\\Get-ChildItem', 'a Get-ChildItem from another module'],
  ['Microsoft.PowerShell.Utility\\Get-ChildItem', 'the wrong module for Get-ChildItem'],
  ['Microsoft.PowerShell.Management\\ls', 'a module-qualified alias is not the cmdlet'],
  // Code from strings, scripts, other programs.
  ['iex "Remove-Item x"', 'Invoke-Expression by alias'],
  ['Invoke-Expression $code', 'Invoke-Expression'],
  ['Start-Process notepad', 'Start-Process'],
  ['start notepad', 'Start-Process by alias'],
  ['Invoke-Item README.md', 'opens the file with its program'],
  ['.\\build.ps1', 'a script'],
  ['build.ps1', 'a script by name'],
  ['./tools/x.cmd', 'a batch file'],
  ['C:\\tools\\git.exe status', 'a program by path'],
  ['. .\\profile.ps1', 'dot-sourcing'],
  ['pwsh -EncodedCommand ZABpAHIA', 'an encoded command'],
  ['powershell -enc ZABpAHIA', 'an encoded command, abbreviated'],
  ['pwsh -c ls', 'another PowerShell'],
  ['cmd /c dir', 'cmd'],
  ['New-Object -ComObject WScript.Shell', 'COM'],
  ['Add-Type -TypeDefinition "x"', 'compiles code'],
  ['Import-Module .\\evil.psm1', 'loads a module'],
  ['[IO.File]::ReadAllText(".env")', '.NET reads a secret'],
  ['[System.IO.File]::Delete("README.md")', '.NET deletes'],
  ['[Diagnostics.Process]::Start("calc")', '.NET starts a program'],
  ['[scriptblock]::Create("rm x").Invoke()', 'a script block from a string'],
  ['(Get-Item README.md).Delete()', 'a method that deletes'],
  ['Write-Output $a.Delete()', 'a method call in argument mode, which the grammar splits from its object'],
  ["Write-Output $ExecutionContext.InvokeCommand.InvokeScript('rm x')", 'runs a string as code through a method in an argument'],
  ['Get-Item README.md | ForEach-Object { $_.Replace("a", "b") }', 'FileInfo.Replace replaces files'],
  // Script blocks are judged as code.
  ['Get-ChildItem | Where-Object { Remove-Item $_ }', 'a command in a filter'],
  ['Get-ChildItem | ForEach-Object { $_.Delete() }', 'a method in ForEach-Object'],
  ['ls | % { rm $_ }', 'rm in ForEach-Object by alias'],
  ['ls | % Delete', 'ForEach-Object -MemberName calls a method by name'],
  ['ls | ? { $_.MoveTo("x") }', 'a method in Where-Object'],
  ['ls | ForEach-Object -Parallel { rm $_ }', 'a parameter not on the table'],
  ['& { Remove-Item x }', 'a script block invoked'],
  // Sub-expressions, variables and splatting.
  ['Write-Output $(Remove-Item README.md)', 'a sub-expression'],
  ['echo "a$(rm README.md)b"', 'a sub-expression inside a string'],
  ['Write-Output (Invoke-WebRequest https://example.com)', 'a parenthesised pipeline'],
  ['Get-Content (Get-Item .env)', 'a path computed when it runs'],
  ['Get-ChildItem @args', 'splatting'],
  ['git @a', 'splatting into a native program'],
  ['& $cmd', 'a command named by a variable'],
  ['& "rm" README.md', '& with a literal still judges rm'],
  ['$x = "rm"; & $x README.md', 'an assignment and a variable command'],
  ['Get-Content $HOME\\.ssh\\id_rsa', 'a variable in a path'],
  ['Get-Content $env:USERPROFILE\\.ssh\\id_rsa', 'an environment variable in a path'],
  ['${c:\\secret.txt}', 'variable syntax that reads a file'],
  ['$PSDefaultParameterValues["*:Path"] = ".env"', 'changes what later cmdlets get'],
  ['git log $x', 'a native argument only known when it runs'],
  ['rg foo $HOME', 'a native path only known when it runs'],
  // Native programs PowerShell passes differently, or Windows' own programs of a known name.
  ['git status --% && rm x', 'stop-parsing'],
  ["rg '' src", '5.1 drops the empty argument and shifts the others'],
  ['rg "a\\"b" src', 'a double quote inside an argument'],
  ['find . -name x', "Windows' find.exe, not GNU find"],
  ['sort.exe /O x README.md', "Windows' sort writes with /O"],
  ['expand x y', "Windows' expand writes"],
  ['where.exe git', 'not on the list'],
  ['git config core.pager evil', 'git writes its config (the bash git rules)'],
  ['git -c core.pager=evil log', 'git runs a program from -c (the bash git rules)'],
  // Redirections write files.
  ['Get-ChildItem > .env', 'writes a secret'],
  ['ls > .vscode\\settings.json', 'writes the workspace settings'],
  ['echo x >> .git\\config', 'appends to git config'],
  ['Get-Date *> @HOME@/.bashrc', 'writes a startup file outside the workspace'],
  ['ls 2> ..\\outside.txt', 'writes outside the workspace'],
  ['ls > $out', 'a target only known when it runs'],
  ['ls >.env', 'a redirection the grammar reads as a word'],
  ['ls 2>.env', 'a stream redirection the grammar reads as a word'],
  // Paths outside the workspace, drives and providers.
  ['Get-Content @HOME@/.ssh/id_rsa', 'a key outside the workspace'],
  ['Get-Content ..\\outside.txt', 'outside the workspace'],
  ['Set-Location ..; Get-Content outside.txt', 'cd out of the workspace'],
  ['cd $env:TEMP', 'cd to a folder only known when it runs'],
  ['Get-Content Env:\\PATH', 'the environment provider'],
  ['Get-ChildItem HKCU:\\Software', 'the registry'],
  ['Get-Content C:\\Windows\\win.ini', 'an absolute Windows path'],
  ['Get-Content \\\\server\\share\\x', 'a UNC path'],
  ['Get-Content *', 'a wildcard that names .env'],
  ['Get-Content .E*', "PowerShell's wildcards ignore case: .E* names .env"],
  ['Get-Content README.md:hidden', 'an alternate data stream'],
  ['Write-Output foo$c:secret.txt', 'variable syntax that reads a file of drive c:'],
  ["('rm x' -as [scriptblock]).Invoke()", 'a string converted to code and invoked'],
  ["'x' -as [System.IO.FileInfo]", 'a type this policy does not know, in -as'],
  // Characters PowerShell reads where the grammar does not.
  ['Get-Content \u2018.env\u2019', 'typographic single quotes are quotes to PowerShell'],
  ['Get-Content \u201C.env\u201D', 'typographic double quotes are quotes to PowerShell'],
  ['rg foo README.md\u00A0.env', 'a no-break space separates words for PowerShell'],
  ['ls\rrm README.md', 'a lone carriage return ends a line for PowerShell'],
  ['Get-ChildItem \u2013Recurse', 'a typographic dash is a dash to PowerShell'],
  // Parameters not on the tables.
  ['Get-ChildItem -FollowSymlink -Recurse', 'follows links out of the workspace'],
  ['Get-Content -Pa README.md', 'an abbreviation is not recognised'],
  ['Get-ChildItem -OutVariable x', 'sets a variable'],
  ['Get-Content README.md -Stream x', 'alternate streams'],
  ['Get-Content -Path', 'a parameter without its value'],
  // Pipelines that feed file names to a reading cmdlet.
  ["'.env' | Get-Content", 'a path from the pipeline'],
  ['Get-ChildItem -Recurse | Select-String password', 'Select-String reads every file it is given'],
  ['ls | Get-Content', 'Get-Content of every listed file'],
  ['Get-Item src | Set-Location', 'Set-Location from the pipeline'],
  // Statements beyond pipelines.
  ['foreach ($f in ls) { gc $f }', 'a loop'],
  ['if ($true) { rm x }', 'an if'],
  ['function ls { rm x }; ls', 'a function that shadows ls'],
  ['Set-Alias ls Remove-Item; ls x', 'an alias that shadows ls'],
  ['1..3 | % { $_ }', 'what the grammar does not read'],
  ['Get-Content src\\a.ts, .env', 'a list the grammar does not read'],
];

/** Pairs: the PowerShell line and the bash line that reads or writes the same file; the decision must be the same. */
const SAME_AS_BASH: ReadonlyArray<readonly [string, string]> = [
  ['Get-Content .env', 'cat .env'],
  ['gc svc\\.env', 'cat svc/.env'],
  ['Get-Content -LiteralPath .env', 'cat .env'],
  ['Get-Content -Path:.env', 'cat .env'],
  ['type .ENV', 'cat .ENV'],
  ['Select-String KEY -Path .env', 'grep KEY .env'],
  ['Get-Content @HOME@/.ssh/id_rsa', 'cat @HOME@/.ssh/id_rsa'],
  ['Get-ChildItem > .env', 'ls > .env'],
  ['Get-ChildItem > .git\\config', 'ls > .git/config'],
  ['"x" > .vscode\\settings.json', 'echo x > .vscode/settings.json'],
  ['rg KEY .env', 'rg KEY .env'],
  ['Get-Content README.md', 'cat README.md'],
];

describe('guard/command/powershell policy', () => {
  let parent: string;
  before(() => {
    parent = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'wat-pwsh-'));
    root = path.join(parent, 'ws');
    home = path.join(parent, 'home');
    write(path.join(home, '.ssh', 'id_rsa'), 'not a real key\n');
    write(path.join(home, '.bashrc'), '# bashrc\n');
    write(path.join(parent, 'outside.txt'), 'outside\n');
    write(path.join(root, 'src', 'a.ts'), 'export const foo = 1; // TODO\n');
    write(path.join(root, 'README.md'), '# ws\n');
    write(path.join(root, 'package.json'), '{ "name": "ws" }\n');
    write(path.join(root, '.env'), 'KEY=not-a-secret\n');
    write(path.join(root, 'svc', '.env'), 'KEY=svc\n');
    write(path.join(root, '.vscode', 'settings.json'), '{}\n');
    // The workspace folder's own repository, as `git init` lays it out (written here: the policy
    // only reads it, and Windows under wine has no git to make it).
    write(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    write(path.join(root, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n');
    for (const folder of ['objects/info', 'objects/pack', 'refs/heads', 'refs/tags']) {
      fs.mkdirSync(path.join(root, '.git', folder), { recursive: true });
    }
  });
  after(() => fs.rmSync(parent, { recursive: true, force: true }));

  describe('read-only lines run without asking', () => {
    for (const line of MUST_ALLOW) {
      it(JSON.stringify(line), async () => {
        const verdict = await judge(line);
        assert.equal(verdict.decision, 'allow', shown(line, verdict));
        assert.equal(verdict.readOnly, true, shown(line, verdict));
      });
    }
  });

  describe('every escape shape asks (or is refused)', () => {
    for (const [line, why] of MUST_ASK) {
      it(`${JSON.stringify(line)} (${why})`, async () => {
        const verdict = await judge(line);
        assert.notEqual(verdict.decision, 'allow', shown(line, verdict));
      });
    }
  });

  describe('paths are judged as bash judges them: secrets and protected names alike', () => {
    for (const [line, bash] of SAME_AS_BASH) {
      it(`${JSON.stringify(line)} as ${JSON.stringify(bash)}`, async () => {
        const [ours, theirs] = [await judge(line), await judgeBash(bash)];
        assert.equal(ours.decision, theirs.decision, `${shown(line, ours)}\n${shown(bash, theirs)}`);
      });
    }
  });

  it('a redirection to a file inside the workspace runs, but the line is not read-only (a checkpoint is taken)', async () => {
    const verdict = await judge('Get-ChildItem > listing.txt');
    assert.equal(verdict.decision, 'allow', shown('Get-ChildItem > listing.txt', verdict));
    assert.equal(verdict.readOnly, false);
    assert.equal((await judge('Get-ChildItem > $null')).readOnly, true);
  });

  it('git gets its safety options in the line that runs, as PowerShell words', async () => {
    const verdict = await judge('git status; Get-Location');
    assert.equal(verdict.decision, 'allow', shown('git status', verdict));
    assert.match(verdict.commandLine ?? '', /^git -c core\.fsmonitor=false -c core\.hooksPath=\/dev\/null .* --no-pager status --ignore-submodules=all; Get-Location$/);
  });

  it('names the reason a person recognises', async () => {
    assert.match(describeVerdict(await judge('rm README.md')).join('\n'), /rm deletes or empties files/);
    assert.match(describeVerdict(await judge('iex "x"')).join('\n'), /runs PowerShell code that cannot be checked/);
    assert.match(describeVerdict(await judge('ls @a')).join('\n'), /splatting/);
  });

  it('takes the allow and deny settings as the bash policy does', async () => {
    const allowed = await evaluatePowerShellPolicy('npm test', await options({ runCommandAllow: ['npm test'] }));
    assert.equal(allowed.decision, 'allow');
    assert.equal(allowed.readOnly, false);
  });

  it('cmd.exe lines have no policy: every one asks, and says why', () => {
    const verdict = judgeCmdLine();
    assert.equal(verdict.decision, 'ask');
    assert.match(describeVerdict(verdict).join('\n'), /cmd\.exe.*every cmd line asks/);
  });
});
