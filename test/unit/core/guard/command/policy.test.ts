import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { commandPolicyOptions } from '../../../../../src/core/guard/command/pathJudge';
import type { CommandDecision } from '../../../../../src/core/decisions';
import { DEFAULT_DENY_PATTERNS } from '../../../../../src/core/settings';
import { evaluateCommandPolicy } from '../../../../../src/core/guard/command/policy';
import { matchesPattern, terminalAskRules } from '../../../../../src/core/guard/command/settingsPatterns';
import { approvalReasons, describeFinding, describeVerdict, type CommandVerdict } from '../../../../../src/core/guard/command/verdict';
import { fileLocation } from '../../../../../src/core/location';
import { testContext } from '../../../support/context';
import { WINE_SYMLINKS } from '../../../support/linkTree';
import { wineLacks } from '../../../support/platforms';

/** The workspace the policy judges paths against, made in the before hook of the suite. */
let root: string;

async function judge(command: string, settings: { allow?: string[]; deny?: string[]; terminal?: unknown } = {}): Promise<CommandVerdict> {
  const ctx = testContext({ root, workspace: { platform: process.platform }, settings: { runCommandAllow: settings.allow ?? [], runCommandDeny: settings.deny ?? DEFAULT_DENY_PATTERNS, terminalAskRules: terminalAskRules(settings.terminal) } });
  // The folder the command runs in, in the form runCommand gives the policy (resolveCommandCwd).
  return evaluateCommandPolicy(command, await commandPolicyOptions(ctx, ctx.host.fs.localPath(fileLocation(root)) ?? root));
}

function expectDecision(command: string, expected: CommandDecision, why: string, needsLinks = false): void {
  it(`${expected}: ${JSON.stringify(command)} (${why})`, async function () {
    if (needsLinks) {
      wineLacks(this, WINE_SYMLINKS);
    }
    const verdict = await judge(command);
    assert.equal(verdict.decision, expected, describeVerdict(verdict).join('\n'));
  });
}

describe('guard/command/policy', () => {
  let parent: string;
  before(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-policy-'));
    root = path.join(parent, 'ws');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'export {};\n');
    for (const file of ['f', 'package.json', 'README.md', 'NOTES.md', '.env']) {
      fs.writeFileSync(path.join(root, file), 'x\n');
    }
    // A folder that looks like a bare repository, whose config git would obey.
    fs.mkdirSync(path.join(root, 'bare', 'objects'), { recursive: true });
    fs.mkdirSync(path.join(root, 'bare', 'refs'));
    fs.writeFileSync(path.join(root, 'bare', 'HEAD'), 'ref: refs/heads/main\n');
    fs.writeFileSync(path.join(root, 'bare', 'config'), '[core]\n');
    // A file whose name a glob would hand to a program as an option.
    fs.mkdirSync(path.join(root, 'trap'));
    fs.writeFileSync(path.join(root, 'trap', '--files0-from=.env'), '');
    fs.mkdirSync(path.join(root, '.git'));
    fs.writeFileSync(path.join(root, '.git', 'config'), '[core]\n');
    fs.symlinkSync('/nonexistent/target', path.join(root, 'dangling'));
  });
  after(() => fs.rmSync(parent, { recursive: true, force: true }));

  describe('read-only command lines run without asking', () => {
    expectDecision('ls', 'allow', 'read-only');
    expectDecision('ls -la src', 'allow', 'read-only with a workspace path');
    expectDecision('cat src/a.ts', 'allow', 'reads a workspace file');
    expectDecision('grep -rn "TODO" src', 'allow', 'search');
    expectDecision('git status', 'allow', 'git read-only subcommand');
    expectDecision('git diff HEAD~1 -- src', 'allow', 'git diff');
    expectDecision('git log --oneline -n 5', 'allow', 'git log');
    expectDecision('git branch -a', 'allow', 'lists branches');
    expectDecision('git config --get user.name', 'allow', 'reads a setting');
    expectDecision('git --version', 'allow', 'prints the version');
    expectDecision("git commit -m 'a && b'", 'ask', 'git commit changes the repository; the quoted && is no operator');
    expectDecision('echo x > /dev/null', 'allow', 'redirect to /dev/null');
    expectDecision('ls 2>&1 | head -n 3', 'allow', 'fd duplication and a pipeline of readers');
    expectDecision('cd src && ls', 'allow', 'cd inside the workspace then a reader');
    expectDecision('echo "a && b; rm -rf /"', 'allow', 'operators inside double quotes are text');
    expectDecision("echo 'x | sh'", 'allow', 'operators inside single quotes are text');
    expectDecision('find . -name "*.ts" -type f', 'allow', 'find without actions');
    expectDecision("sed -n '1,5p' src/a.ts", 'allow', 'sed printing');
    expectDecision("sed 's/a/b/g' src/a.ts", 'allow', 'sed substitution to stdout');
    expectDecision("awk '{print $1}' src/a.ts", 'allow', 'awk printing');
    expectDecision('rg -n foo src', 'allow', 'ripgrep without --pre');
    expectDecision('wc -l src/a.ts && head -n 2 src/a.ts', 'allow', 'a list of readers');
    expectDecision('echo $(ls src)', 'allow', 'a reader inside a substitution, argument of echo');
    expectDecision('env ls', 'allow', 'env wrapping a reader');
    expectDecision('timeout 5 ls', 'allow', 'timeout wrapping a reader');
    expectDecision('time git status', 'allow', 'time wrapping a reader');
    expectDecision('command -v node', 'allow', 'looks a command up');
    expectDecision('/bin/ls src', 'allow', 'a reader by its system path');
    expectDecision('[ -f src/a.ts ] && cat src/a.ts', 'allow', 'a test and a reader');
    expectDecision('node --version', 'allow', 'an interpreter printing its version');
    expectDecision('echo hi > out.txt', 'allow', 'writes inside the workspace');
    expectDecision('for f in src/*.ts; do echo $f; done', 'allow', 'a loop of echo');
    expectDecision('sleep 1 & wait', 'allow', 'waiting for a background reader');
  });

  describe('chains, newlines and substitutions judge every command', () => {
    expectDecision('ls && rm -rf src', 'ask', 'rm after &&');
    expectDecision('ls; rm x', 'ask', 'rm after ;');
    expectDecision('ls || rm x', 'ask', 'rm after ||');
    expectDecision('ls\nrm x', 'ask', 'rm on the next line');
    expectDecision('ls | xargs rm', 'ask', 'xargs runs rm');
    expectDecision('echo $(rm x)', 'ask', 'rm in a substitution argument');
    expectDecision('echo "$(rm x)"', 'ask', 'rm in a quoted substitution');
    expectDecision('echo `rm x`', 'ask', 'rm in backticks');
    expectDecision('$(echo rm) x', 'ask', 'substitution in command position');
    expectDecision('`echo rm` x', 'ask', 'backticks in command position');
    expectDecision('echo `echo \\`rm x\\``', 'ask', 'escaped backticks nested inside backticks');
    expectDecision('echo `echo \\$(rm x)`', 'ask', 'an escaped $( inside backticks');
    expectDecision('echo `echo \\`ls\\``', 'allow', 'nested backticks of a reader');
    expectDecision('cat <(rm x)', 'ask', 'rm in a process substitution');
    expectDecision('echo $(( $(rm x) + 1 ))', 'ask', 'rm inside arithmetic');
    expectDecision('(rm x)', 'ask', 'rm in a subshell');
    expectDecision('{ rm x; }', 'ask', 'rm in a group');
    expectDecision('if true; then rm x; fi', 'ask', 'rm in an if');
    expectDecision('cat <<EOF\n$(rm x)\nEOF', 'ask', 'rm in a heredoc body');
    expectDecision('echo ${x:-$(rm a)}', 'ask', 'rm in a parameter default');
    expectDecision('ls() { rm -rf src; }; ls', 'ask', 'a function shadowing ls');
  });

  describe('quoting and naming tricks are seen through', () => {
    expectDecision("r''m x", 'ask', 'empty quotes inside the name');
    expectDecision('r"m" x', 'ask', 'double quotes inside the name');
    expectDecision('\\rm x', 'ask', 'a backslash before the name');
    expectDecision('/bin/rm x', 'ask', 'rm by absolute path');
    expectDecision('./ls', 'ask', 'a program from a workspace path, even named ls');
    expectDecision('$IFS', 'ask', 'an expansion as the command');
    expectDecision('x=rm; $x file', 'ask', 'a variable as the command');
    expectDecision("$'\\x72\\x6d' x", 'ask', 'an ANSI-C string as the command');
    expectDecision('{rm,x}', 'ask', 'brace expansion as the command');
    expectDecision('env rm x', 'ask', 'env wrapping rm');
    expectDecision('env PATH=/tmp ls', 'ask', 'env setting a variable');
    expectDecision('command rm x', 'ask', 'command wrapping rm');
    expectDecision('nice -n 5 rm x', 'ask', 'nice wrapping rm');
    expectDecision('timeout 5 rm x', 'ask', 'timeout wrapping rm');
    expectDecision('time rm x', 'ask', 'time wrapping rm');
    expectDecision('find . -de\\\nlete', 'ask', 'a backslash-newline joining a flag the grammar would split');
    expectDecision('ls\r\nrm x', 'ask', 'a carriage return');
    expectDecision('grep -rn foo \\\n  src', 'allow', 'a line continuation between words');
  });

  describe('interpreters, eval and shell state ask', () => {
    expectDecision('echo cm0gLXJmIC8= | base64 -d | sh', 'ask', 'base64 into sh');
    expectDecision('bash -c "ls"', 'ask', 'bash -c');
    expectDecision("python3 -c 'import os'", 'ask', 'python -c');
    expectDecision("node -e 'process.exit()'", 'ask', 'node -e');
    expectDecision("perl -e 'print 1'", 'ask', 'perl -e');
    expectDecision('python3 script.py', 'ask', 'a script');
    expectDecision('eval "ls"', 'ask', 'eval');
    expectDecision('source env.sh', 'ask', 'source');
    expectDecision('. ./env.sh', 'ask', 'dot');
    expectDecision('exec ls', 'ask', 'exec');
    expectDecision('export A=1', 'ask', 'export');
    expectDecision('A=1', 'ask', 'an assignment');
    expectDecision('LD_PRELOAD=/tmp/x.so ls', 'ask', 'an assignment prefix');
    expectDecision('sudo ls', 'ask', 'sudo');
    expectDecision('curl https://example.com', 'ask', 'network');
    expectDecision('wget https://example.com', 'ask', 'network');
    expectDecision('chmod +x a', 'ask', 'permissions');
    expectDecision('git push', 'ask', 'git push');
    expectDecision('npm install', 'ask', 'installs packages');
    expectDecision('foo(', 'ask', 'a parse error');
    expectDecision('somecommand', 'ask', 'an unknown program');
  });

  describe('exec-capable flags of harmless-looking programs ask', () => {
    expectDecision('find . -exec rm {} \\;', 'ask', 'find -exec');
    expectDecision('find . -execdir sh -c x \\;', 'ask', 'find -execdir');
    expectDecision('find . -delete', 'ask', 'find -delete');
    expectDecision('find . -ok rm {} \\;', 'ask', 'find -ok');
    expectDecision('find . {-delete,}', 'ask', 'a find action hidden in a brace expansion');
    expectDecision('find . $ACTION', 'ask', 'a find argument from a variable');
    expectDecision("sed -i 's/a/b/' src/a.ts", 'ask', 'sed -i');
    expectDecision("sed 's/a/b/e' src/a.ts", 'ask', 'sed s///e');
    expectDecision("sed 's/a/b/w out' src/a.ts", 'ask', 'sed s///w');
    expectDecision("sed '1e id' src/a.ts", 'ask', 'sed e command');
    expectDecision("sed -n 'w out' src/a.ts", 'ask', 'sed w command');
    expectDecision("awk 'BEGIN{system(\"id\")}'", 'ask', 'awk system');
    expectDecision("awk '{print | \"sh\"}' src/a.ts", 'ask', 'awk pipe');
    expectDecision("awk '{print > \"out\"}' src/a.ts", 'ask', 'awk print >');
    expectDecision('rg --pre ./x foo', 'ask', 'rg --pre');
    expectDecision('git -c core.pager=sh log', 'ask', 'git -c');
    expectDecision('git log --output=x', 'ask', 'git --output');
    expectDecision('git branch newbranch', 'ask', 'creates a branch');
    expectDecision('sort -o out src/a.ts', 'ask', 'sort -o');
    expectDecision('sort --compress-program=sh src/a.ts', 'ask', 'sort --compress-program');
    expectDecision("awk -e 'print' -e 'system(\"id\")' src/a.ts", 'ask', 'awk with a second program');
  });

  describe('redirections and paths are judged with the guard rules', () => {
    expectDecision('echo x > /tmp/outside.txt', 'ask', 'writes outside the workspace');
    expectDecision('echo x >> ~/.bashrc', 'deny', 'writes a shell startup file');
    expectDecision('echo x > .vscode/tasks.json', 'ask', 'writes a file that runs code');
    expectDecision('echo x > .git/hooks/pre-commit', 'deny', 'writes inside .git');
    expectDecision('echo x > "$HOME/x"', 'ask', 'a redirect target from a variable');
    expectDecision('cat < /etc/shadow', 'deny', 'reads a secret');
    expectDecision('cat .env', 'deny', 'reads a .env file');
    expectDecision('cat ~/.ssh/id_rsa', 'deny', 'reads a key');
    expectDecision('cat /etc/hostname', 'ask', 'reads outside the workspace');
    expectDecision('cd .. && ls', 'ask', 'cd outside the workspace');
    expectDecision('cd /tmp && cat x', 'ask', 'a relative path after cd outside');
    expectDecision('(cd src); cat ../../outside', 'ask', 'a relative path judged from every folder the line may be in');
    expectDecision('cd "$DIR" && cat x', 'ask', 'cd to a variable');
    expectDecision('cd -P /etc && cat shadow', 'deny', 'cd with an option, then a secret relative to the new folder');
    expectDecision('cd -L .. && cat x', 'ask', 'cd -L outside the workspace');
    expectDecision('cd -- src && ls', 'allow', 'cd -- inside the workspace');
    expectDecision('cd -x src', 'ask', 'cd with an option it does not know');
    expectDecision('cat .*/x', 'ask', 'a glob that can match ..');
    expectDecision('grep --file=.env x src', 'deny', 'a secret named in an option value');
    expectDecision('sort --random-source=/etc/shadow f', 'deny', 'a secret named in a long option value');
    expectDecision('grep -f~/.ssh/id_rsa src', 'deny', 'a secret attached to a short option');
    expectDecision('ls --color=never -la src', 'allow', 'option values that are not paths');
  });

  describe('ordinary read-only work runs without asking (friction)', () => {
    for (const line of [
      'ls *.json', 'cat src/*.ts', 'wc -l **/*.md', "awk 'NR>1' f", "awk '$3 > 10 {print $1}' f", 'diff <(ls) <(ls -a)', 'head -n 20 f', 'head -20 f',
      'tail -n +5 f', "grep -rn --include='*.ts' foo src", 'sort -k2,2n -t, f', 'cut -d: -f1 f', 'git log --oneline -20', 'git diff --stat HEAD~3',
      "find . -name '*.ts' -newer package.json", 'ls -la | grep foo | wc -l', 'for f in *.md; do wc -l "$f"; done',
      'echo "$HOME" $1 "$@" $? $# $$', "printf '%s\\n' \"$x\"", 'echo ${x:-default} ${#x} ${x%.ts} ${x:1:2}', 'echo $((1 + 2))', 'cat <(ls src)',
      'jq .name package.json', 'sed -n -e 1p -e 2p f', 'test 1 -eq 2', '[[ -f f && $a == b ]]', 'cat <<\'EOF\'\n$(rm x) `rm x`\nEOF', 'od -An -tx1 f',
      'rg -n --hidden foo', 'seq -5 5', 'date +%s', 'env -i ls', 'git show HEAD:src/a.ts', 'git -C src log -n 3', 'cd src && git status',
      'git grep -n foo -- src', 'git tag -l "v*"', 'git stash list', 'uniq -c f', 'base64 -d f', 'xxd f', 'du -sh src', 'ls -- src',
      'command -v rm -rf ~', 'awk -F, -v n=3 \'NR > n { a[$1]++ } END { for (k in a) print k, a[k] }\' f', 'grep -c foo f || true',
    ]) {
      expectDecision(line, 'allow', 'read-only');
    }
  });

  describe('options are read exactly: unknown, abbreviated and writing options ask', () => {
    expectDecision('sort --compress-prog=sh f', 'ask', 'an abbreviation of --compress-program');
    expectDecision('sort --out=x f', 'ask', 'an abbreviation of --output');
    expectDecision('sort -T /tmp f', 'ask', 'sort writes temporary files');
    expectDecision('sort -rno x f', 'ask', 'sort -o inside a cluster');
    expectDecision('grep --fi=.env x f', 'ask', 'an abbreviation of --file');
    expectDecision('grep -uf.env x', 'ask', 'an unknown -u with an attached -f');
    expectDecision('grep -if.env x', 'deny', 'a cluster ending in -f with an attached secret');
    expectDecision('ls --fi=x', 'ask', 'an unknown long option');
    expectDecision('rg --pre=sh foo', 'ask', 'rg --pre');
    expectDecision('rg --hostname-bin=x foo', 'ask', 'rg runs a program for the host name');
    expectDecision('uniq f out.txt', 'ask', 'uniq writes its second operand');
    expectDecision('xxd f out.bin', 'ask', 'xxd writes its second operand');
    expectDecision('tree -o out.txt', 'ask', 'tree -o');
    expectDecision('tree -R', 'ask', 'tree -R writes 00Tree.html');
    expectDecision('base64 -o out f', 'ask', "BSD base64's -o is unknown");
    expectDecision('date -s now', 'ask', 'sets the clock');
    expectDecision('date 01010000', 'ask', 'a date operand sets the clock');
    expectDecision('hostname foo', 'ask', 'sets the host name');
    expectDecision('file -C -m x', 'ask', 'file -C compiles');
    expectDecision('find . -fprint x', 'ask', 'find -fprint writes');
    expectDecision('find . -newer ~/.ssh/id_rsa', 'deny', 'a secret as a find reference file');
    expectDecision('find . -name *.md', 'ask', 'an unquoted glob where find expects a pattern');
    expectDecision('printf -v x y', 'ask', 'printf -v assigns');
    expectDecision('printf "$fmt" y', 'ask', 'a printf format that may be -v');
    expectDecision('wc -l -- "$x"', 'ask', 'a path only known at run time');
    expectDecision('strings @args', 'ask', 'a response file of more options');
    expectDecision('jq -n \'import "x" as y; .\'', 'ask', 'jq modules read files');
    expectDecision('jq --rawfile k .env .', 'deny', 'a secret read by --rawfile');
    expectDecision('env -S "rm x"', 'ask', 'env -S splits a command');
    expectDecision('env --chdir=/ ls', 'ask', 'env --chdir');
    expectDecision('env FOO=1 ls', 'ask', 'env sets a variable');
    expectDecision('command rm -v -rf x', 'ask', 'command runs rm with -v');
    expectDecision('timeout --kill=1 5 ls', 'ask', 'an abbreviated timeout option');
    expectDecision('nice -n 5 rm x', 'ask', 'nice wrapping rm');
    expectDecision('tail --follow=name --pid', 'ask', 'a required value missing');
  });

  describe('interpreters ask in every mode but an exact --version', () => {
    for (const line of ['bash -v', 'python3 -v', 'vim -V', 'node version', 'node -v', 'python3 --version --x']) {
      expectDecision(line, 'ask', 'not a lone --version');
    }
    expectDecision('python3 --version', 'allow', 'a lone --version');
  });

  describe('sed and awk read their programs', () => {
    expectDecision('sed -ni p f', 'ask', 'sed -i in a cluster');
    expectDecision('sed --in-place=.bak p f', 'ask', 'sed --in-place');
    expectDecision('sed --in=.bak p f', 'ask', 'an abbreviation of --in-place');
    expectDecision('sed -f script f', 'ask', 'sed -f');
    expectDecision("sed -e 1p -e 'w out' f", 'ask', 'a w command in the second script');
    expectDecision('sed -n "$script" f', 'ask', 'a script only known at run time');
    expectDecision("awk 'BEGIN{print ENVIRON[\"HOME\"]}'", 'ask', 'awk reads the environment');
    expectDecision("awk 'BEGIN{ARGV[1]=\"/etc/shadow\"; ARGC=2} {print}'", 'ask', 'awk adds input files');
    expectDecision("awk '{ \"id\" | getline x }'", 'ask', 'awk runs a command into getline');
    expectDecision("awk '@include \"x\"'", 'ask', 'awk includes a file');
    expectDecision("awk '{ @f() }'", 'ask', 'an indirect call');
    expectDecision("awk 'BEGIN { printf(\"%s\", 1) > \"out\" }'", 'ask', 'printf redirected after parentheses');
    expectDecision("awk 'BEGIN { print 1,\n > \"out\" }'", 'ask', 'a redirection after a continued print');
    expectDecision("awk 'BEGIN { if (1 > 0) print \"x\" }'", 'allow', 'a comparison in a condition');
    expectDecision("awk '/a|b/ { print $1 }' f", 'allow', 'a pipe inside a regex literal');
    expectDecision("awk -v ARGV=1 'NR>1' f", 'ask', 'an assignment to ARGV');
    expectDecision("awk --source='BEGIN{system(\"id\")}'", 'ask', 'system in a --source program');
    expectDecision("awk 'NR>1' ARGC=5 f", 'ask', 'an operand assigning ARGC');
    expectDecision("gawk --sandbox -f x", 'ask', 'a program file');
    expectDecision("awk -W exec x", 'ask', "mawk's -W");
  });

  describe('git: global options, subcommand options and paths', () => {
    expectDecision('git diff /dev/null ~/.ssh/id_rsa', 'deny', 'git diff compares a secret outside the repository');
    expectDecision('git diff --no-index a b', 'ask', '--no-index');
    expectDecision('git grep -O foo', 'ask', 'opens files in a pager');
    expectDecision('git grep --open-files-in-pager=vi foo', 'ask', 'the long spelling');
    expectDecision('git grep --open foo', 'ask', 'an abbreviation');
    expectDecision('git blame --contents /etc/passwd src/a.ts', 'ask', 'blame --contents');
    expectDecision('git log --ext-diff -p', 'ask', 'an external diff program');
    expectDecision('git log --textconv -p', 'ask', 'textconv filters');
    expectDecision('git log --outp=x', 'ask', 'an abbreviation of --output');
    expectDecision('git --git-dir=/tmp/x log', 'ask', '--git-dir');
    expectDecision('git --work-tree=/ status', 'ask', '--work-tree');
    expectDecision('git --exec-path=/tmp log', 'ask', '--exec-path');
    expectDecision('git --bare log', 'ask', '--bare');
    expectDecision('git --config-env=core.pager=X log', 'ask', '--config-env');
    expectDecision('git -C .. status', 'ask', '-C outside the workspace');
    expectDecision('git log HEAD -- ../x', 'ask', 'a pathspec outside the workspace');
    expectDecision('git -C bare log', 'ask', 'a bare-looking repository');
    expectDecision('cd bare && git log', 'ask', 'a bare-looking repository after cd');
    expectDecision('git remote add x y', 'ask', 'changes remotes');
    expectDecision('git stash', 'ask', 'stashes');
    expectDecision('git config user.name x', 'ask', 'writes a setting');
    expectDecision('git tag v1', 'ask', 'creates a tag');
    expectDecision('git help log', 'ask', 'help starts a viewer');
  });

  describe('programs that take names or code from standard input or a file are judged by what they can read (issue 21, the two lines that ran)', () => {
    expectDecision("printf '%s\\0' ~/.ssh/id_rsa | sort --files0-from=-", 'ask', 'names on standard input: without a sandbox it would print the key');
    expectDecision('wc --files0-from=- < src/a.ts', 'ask', 'names on standard input from a workspace file');
    expectDecision('du --files0-from=src/a.ts', 'ask', 'names in a file');
    expectDecision('printf x | xargs cat', 'ask', 'names turned into arguments');
    expectDecision('sed -f src/a.ts src/a.ts', 'ask', 'a sed script from a file');
    expectDecision('awk -f src/a.ts src/a.ts', 'ask', 'an awk program from a file');
    expectDecision("echo '[diff \"x\"]' >> bare/config && git -C bare diff", 'ask', "a bare repository's config is execution config, and git in it asks");
    expectDecision('echo x > bare/hooks/pre-commit', 'ask', "a bare repository's hooks");
    expectDecision('git -C bare diff', 'ask', 'git in a bare repository of the workspace, whose config can run programs');
  });

  describe('expansions that can run a command or assign ask, wherever they are', () => {
    for (const line of [
      'echo ${x-`id`}', 'echo "${x-`id`}"', 'echo ${x:-$(id)}', 'echo ${x=val}', 'echo ${x:=val}', 'echo ${x?msg}', 'echo ${x@P}', 'echo "${x@Q}"',
      'echo ${!x}', 'echo ${a[0]}', 'echo ${x/a/$(id)}', 'echo $((x+1))', 'echo $[x]', 'echo "$[1]"', '((x++))', 'let x=1', 'read x', 'mapfile a',
      'jobs -x rm', "test -v 'a[$(id)]'", '[ -v x ]', '[[ -v x ]]', '[[ $x -eq 1 ]]', 'test "$x" -lt 3', 'cat <<EOF\n`id`\nEOF',
      'cat <<EOF\n${x:-`id`}\nEOF', 'a[1]=2', 'for ((i=0; i<3; i++)); do :; done',
    ]) {
      expectDecision(line, 'ask', 'runs a command or assigns');
    }
  });

  describe('globs, braces and links in paths are judged on what they can name', () => {
    expectDecision('cat .en?', 'deny', 'a glob matching .env');
    expectDecision('cat .ENV', 'deny', '.env in another case');
    expectDecision('echo x >> .gi[t]/config', 'deny', 'a glob reaching .git/config');
    expectDecision('echo x > {.vscode/tasks.json,}', 'ask', 'a brace reaching .vscode/tasks.json');
    expectDecision('echo x > .VSCode/tasks.json', 'ask', '.vscode in another case');
    expectDecision('echo x > .GIT/config', 'deny', '.git in another case');
    expectDecision('cat {f,/etc/hostname}', 'ask', 'a brace naming a file outside');
    expectDecision('cat */../../x', 'ask', 'a glob climbing out');
    expectDecision('wc -l trap/*', 'allow', 'a file named like an option, but behind a folder name');
    it('asks when a glob matches a file the program would read as an option', async () => {
      const ctx = testContext({ root });
      const verdict = await evaluateCommandPolicy('wc -l *', await commandPolicyOptions(ctx, path.join(root, 'trap')));
      assert.equal(verdict.decision, 'ask');
      assert.match(describeVerdict(verdict).join('\n'), /can become --files0-from=\.env, which the program would read as an option/);
    });
    expectDecision('echo x > dangling', 'deny', 'a dangling link as a redirect target', true);
    expectDecision('echo x > dang*', 'deny', 'a glob matching a dangling link', true);
    expectDecision('grep foo* f', 'ask', 'the shell expands the pattern argument into file names');
    expectDecision('grep foo *', 'deny', 'the glob names .env');
    expectDecision('ls src/../f', 'allow', '.. that stays inside');
  });

  describe('deny patterns refuse with a reason', () => {
    it('refuses rm -rf / by the default deny list and names the pattern', async () => {
      const verdict = await judge('rm -rf /');
      assert.equal(verdict.decision, 'deny');
      assert.match(describeVerdict(verdict).join('\n'), /runCommand\.deny/);
    });
    it('refuses a denied command hidden behind a wrapper', async () => {
      assert.equal((await judge('timeout 5 rm -rf ~')).decision, 'deny');
    });
    it('refuses a command matching a user deny prefix', async () => {
      assert.equal((await judge('git status && npm publish', { deny: ['npm publish'] })).decision, 'deny');
    });
    it('lets a user allow entry run a command that would ask', async () => {
      assert.equal((await judge('npm test', { allow: ['npm test'] })).decision, 'allow');
    });
    it('still asks for other sub-commands when one is allowed by the user', async () => {
      assert.equal((await judge('npm test && curl x', { allow: ['npm test'] })).decision, 'ask');
    });
    it('matches prefixes by whole words', () => {
      assert.equal(matchesPattern('git st', 'git status'), false);
      assert.equal(matchesPattern('git status', 'git status -s'), true);
    });
    it('matches /regex/flags entries', () => {
      assert.equal(matchesPattern('/^NPM test$/i', 'npm test'), true);
    });
  });

  describe('Always Allow: the allow entries that would let an asking line through', () => {
    it('offers the sub-command prefix of a program with sub-commands, and saving it lets the line run', async () => {
      const verdict = await judge('npm run build');
      assert.equal(verdict.decision, 'ask');
      assert.deepEqual(verdict.allowRules, ['npm run build']);
      assert.equal((await judge('npm run build', { allow: [...verdict.allowRules!] })).decision, 'allow');
      assert.equal((await judge('npm run lint', { allow: [...verdict.allowRules!] })).decision, 'ask', 'another script still asks');
    });
    it('offers the exact command, anchored, for any other program', async () => {
      const verdict = await judge('rm -rf src/a.ts');
      assert.deepEqual(verdict.allowRules, ['/^rm -rf src\\/a\\.ts$/']);
      const allow = [...verdict.allowRules!];
      assert.equal((await judge('rm -rf src/a.ts', { allow })).decision, 'allow');
      assert.equal((await judge('rm -rf src/a.ts src', { allow })).decision, 'ask', 'more arguments are another command');
      assert.equal((await judge('rm -rf src/aXts', { allow })).decision, 'ask', 'the dot is not a wildcard');
    });
    it('offers one entry per asking sub-command, and none for the ones that run without asking', async () => {
      const verdict = await judge('git status && git commit -m x && make test');
      assert.deepEqual(verdict.allowRules, ['git commit', 'make test']);
      assert.deepEqual((await judge('git -C src commit')).allowRules, ['/^git -C src commit$/'], 'options before the sub-command: the exact command');
      assert.equal((await judge('git status && git commit -m x && make test', { allow: [...verdict.allowRules!] })).decision, 'allow');
    });
    it('offers nothing for interpreters, shells, wrappers and the network tools, which run whatever they are given', async () => {
      for (const line of ['python3 -c "print(1)"', 'bash build.sh', 'sudo make install', 'xargs rm < f', 'curl https://example.com', 'timeout 5 rm x', 'env rm x']) {
        const verdict = await judge(line);
        assert.notEqual(verdict.decision, 'allow', line);
        assert.equal(verdict.allowRules, undefined, line);
      }
    });
    it('offers nothing when something besides the sub-commands asks, or the words are only known when it runs', async () => {
      for (const line of ['rm x > .vscode/settings.json', 'rm "$F"', 'rm *.log', 'make test $(id)', 'rm "a b"']) {
        const verdict = await judge(line);
        assert.notEqual(verdict.decision, 'allow', line);
        assert.equal(verdict.allowRules, undefined, `${line}: ${JSON.stringify(verdict.allowRules)}`);
      }
    });
    it('offers nothing for a line that runs anyway or is refused', async () => {
      assert.equal((await judge('ls')).allowRules, undefined);
      assert.equal((await judge('rm -rf /')).allowRules, undefined);
    });
  });

  describe("VS Code's chat.tools.terminal.autoApprove as a floor", () => {
    it('reads only the entries that deny: false and { approve: false }', () => {
      assert.deepEqual(terminalAskRules({ rm: false, ls: true, kill: null, '/\\.ps1$/i': { approve: false, matchCommandLine: true }, 'npm test': { approve: true }, '': false }), [
        { pattern: 'rm', commandLine: false },
        { pattern: '/\\.ps1$/i', commandLine: true },
      ]);
      assert.deepEqual(terminalAskRules(undefined), []);
      assert.deepEqual(terminalAskRules(['rm']), []);
    });
    it('makes a read-only command that an entry denies ask, naming the entry', async () => {
      assert.equal((await judge('cat src/a.ts')).decision, 'allow');
      const verdict = await judge('cat src/a.ts', { terminal: { cat: false } });
      assert.equal(verdict.decision, 'ask');
      assert.match(approvalReasons(verdict).join('\n'), /matches "cat" of VS Code's chat\.tools\.terminal\.autoApprove/);
    });
    it('wins over runCommand.allow, also behind a wrapper, and offers no Always Allow it would override', async () => {
      const verdict = await judge('timeout 5 npm publish', { allow: ['npm publish'], terminal: { 'npm publish': false } });
      assert.equal(verdict.decision, 'ask');
      assert.equal((await judge('npm publish', { terminal: { npm: false } })).allowRules, undefined);
    });
    it('matches plain entries at a word boundary, by the program name, and regexes as VS Code does', async () => {
      assert.equal((await judge('ls src', { terminal: { l: false } })).decision, 'allow', 'l is not a prefix of the word ls');
      assert.equal((await judge('/bin/cat src/a.ts', { terminal: { cat: false } })).decision, 'ask');
      assert.equal((await judge('git status', { terminal: { '/^git (status|log)\\b/': false } })).decision, 'ask');
      assert.equal((await judge('ls src', { terminal: { '/^git/': false } })).decision, 'allow');
    });
    it('tests matchCommandLine entries against the whole line', async () => {
      assert.equal((await judge('ls && cat src/a.ts', { terminal: { '/ls && cat/': { approve: false, matchCommandLine: true } } })).decision, 'ask');
      assert.equal((await judge('ls && cat src/a.ts', { terminal: { '/ls && cat/': false } })).decision, 'allow', 'without matchCommandLine each sub-command is tested alone');
    });
  });

  describe('reasons', () => {
    it('name each sub-command and why', async () => {
      const verdict = await judge('ls && rm x');
      assert.deepEqual(verdict.findings.map(({ subject, decision }) => [subject, decision]), [['ls', 'allow'], ['rm x', 'ask']]);
      const lines = describeVerdict(verdict);
      assert.equal(lines.length, 2);
      assert.match(lines[0], /^ls: runs without asking \(/);
      assert.match(lines[1], /^rm x: needs approval \(rm deletes/);
    });
    it('ask only the findings that do not allow, by their decision rather than their words', async () => {
      const verdict = await judge('ls && rm x');
      assert.deepEqual(approvalReasons(verdict), [describeFinding(verdict.findings[1])]);
      // A subject that reads like an allowed finding's prose is still asked about.
      const tricky: CommandVerdict = { decision: 'ask', findings: [{ subject: 'x: runs without asking (', decision: 'ask', reason: 'it deletes' }, { subject: 'ls', decision: 'allow', reason: 'reads' }] };
      assert.deepEqual(approvalReasons(tricky), ['x: runs without asking (: needs approval (it deletes)']);
    });
    it('keep every line when no finding asks, and say when nothing runs', async () => {
      const refused: CommandVerdict = { decision: 'deny', findings: [{ subject: 'rm -rf /', decision: 'deny', reason: 'matches' }] };
      assert.deepEqual(approvalReasons(refused), ['rm -rf /: refused (matches)']);
      const allowed: CommandVerdict = { decision: 'allow', findings: [{ subject: 'ls', decision: 'allow', reason: 'reads' }] };
      assert.deepEqual(approvalReasons(allowed), ['ls: runs without asking (reads)']);
      const empty = await judge('# only a comment');
      assert.deepEqual(empty.findings, []);
      assert.deepEqual(describeVerdict(empty), ['no command to run: only tests or comments']);
      assert.deepEqual(describeFinding({ decision: 'ask', reason: 'the shell parser could not read the command line' }), 'the shell parser could not read the command line');
    });
  });

  describe('readOnly: which lines a checkpoint may skip', () => {
    it('is true only for lines that run without asking and write no file', async () => {
      assert.equal((await judge('ls -la src && cat src/a.ts | grep x > /dev/null')).readOnly, true);
      assert.equal((await judge('echo x > new.txt')).readOnly, false, 'a redirect into the workspace runs without asking but writes');
      assert.equal((await judge('cat f >> f2')).readOnly, false);
      assert.equal((await judge('make build', { allow: ['make'] })).readOnly, false, 'an allow pattern lets through commands that write');
      assert.equal((await judge('rm -rf src')).readOnly, false);
    });
  });
});
