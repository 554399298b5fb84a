import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { commandPolicyOptions } from '../../../../../src/core/guard/command/pathJudge';
import type { CommandDecision } from '../../../../../src/core/decisions';
import { DEFAULT_DENY_PATTERNS } from '../../../../../src/core/settings';
import { evaluateCommandPolicy, matchesPattern, type CommandVerdict } from '../../../../../src/core/guard/command/policy';
import { testContext } from '../../../support/context';

/** The workspace the policy judges paths against, made in the before hook of the suite. */
let root: string;

async function judge(command: string, settings: { allow?: string[]; deny?: string[] } = {}): Promise<CommandVerdict> {
  const ctx = testContext({ root, settings: { runCommandAllow: settings.allow ?? [], runCommandDeny: settings.deny ?? DEFAULT_DENY_PATTERNS } });
  return evaluateCommandPolicy(command, await commandPolicyOptions(ctx, root));
}

function expectDecision(command: string, expected: CommandDecision, why: string): void {
  it(`${expected}: ${JSON.stringify(command)} (${why})`, async () => {
    const verdict = await judge(command);
    assert.equal(verdict.decision, expected, verdict.reasons.join('\n'));
  });
}

describe('guard/command/policy', () => {
  let parent: string;
  before(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-policy-'));
    root = path.join(parent, 'ws');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'export {};\n');
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
    expectDecision('wc --files0-from=/etc/shadow', 'deny', 'a secret named in a long option value');
    expectDecision('grep -f~/.ssh/id_rsa src', 'deny', 'a secret attached to a short option');
    expectDecision('ls --color=never -la src', 'allow', 'option values that are not paths');
  });

  describe('deny patterns refuse with a reason', () => {
    it('refuses rm -rf / by the default deny list and names the pattern', async () => {
      const verdict = await judge('rm -rf /');
      assert.equal(verdict.decision, 'deny');
      assert.match(verdict.reasons.join('\n'), /runCommand\.deny/);
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

  describe('reasons', () => {
    it('name each sub-command and why', async () => {
      const verdict = await judge('ls && rm x');
      assert.equal(verdict.reasons.length, 2);
      assert.match(verdict.reasons[0], /^ls: runs without asking/);
      assert.match(verdict.reasons[1], /^rm x: needs approval \(rm deletes/);
    });
  });
});
