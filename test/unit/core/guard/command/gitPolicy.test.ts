// The command policy's git rules over real repositories: which repository git would use (issue 27
// classes 1 and 2), the command line that runs with git's safety options, and secret files in git's
// objects (class 5). Nothing here runs a line: the policy only parses and judges.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { commandPolicyOptions } from '../../../../../src/core/guard/command/pathJudge';
import { evaluateCommandPolicy } from '../../../../../src/core/guard/command/policy';
import { describeVerdict, type CommandVerdict } from '../../../../../src/core/guard/command/verdict';
import { GIT_SECRET_EXCLUDES, gitGlobalInsertion } from '../../../../../src/core/guard/command/gitSafety';
import { scanConfig } from '../../../../../src/core/guard/command/gitRepository';
import { testContext } from '../../../support/context';
import { appendConfig, bareLookalike, git, repository, write } from '../../../../support/gitFixtures';

let parent = '';
let root = '';
let home = '';

async function judge(command: string, workspaceRoot = root): Promise<CommandVerdict> {
  const ctx = testContext({ root: workspaceRoot, workspace: { home }, settings: { runCommandAllow: [], runCommandDeny: [] } });
  return evaluateCommandPolicy(command, await commandPolicyOptions(ctx, workspaceRoot));
}

function expectDecision(command: string, expected: 'allow' | 'ask' | 'deny', why: string, workspace?: () => string): void {
  it(`${expected}: ${JSON.stringify(command)} (${why})`, async () => {
    const verdict = await judge(command, workspace?.());
    assert.equal(verdict.decision, expected, describeVerdict(verdict).join('\n'));
    if (expected !== 'allow') {
      assert.equal(verdict.commandLine, undefined);
    }
  });
}

/** The words the policy puts after `git` in the fixture workspace (its config names the filter drivers below). */
const GLOBALS = gitGlobalInsertion(['fromInclude', 'lfs', 'localfix']);
const EXCLUDES = GIT_SECRET_EXCLUDES.map((pathspec) => ` '${pathspec}'`).join('');
const DIFF_FLAGS = ' --no-ext-diff --no-textconv --ignore-submodules=all';

function expectLine(command: string, expected: string): void {
  it(`runs ${JSON.stringify(command)} as ${JSON.stringify(expected.slice(0, 60))}...`, async () => {
    const verdict = await judge(command);
    assert.equal(verdict.decision, 'allow', describeVerdict(verdict).join('\n'));
    assert.equal(verdict.commandLine, expected);
  });
}

describe('guard/command/git policy', () => {
  before(() => {
    parent = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'wat-gitpolicy-'));
    root = path.join(parent, 'ws');
    home = path.join(parent, 'home');
    // The user's own config names filter drivers, one of them through an include.
    write(path.join(home, '.gitconfig'), '[filter "lfs"]\n\tclean = git-lfs clean -- %f\n[include]\n\tpath = ~/.gitconfig-extra\n');
    write(path.join(home, '.gitconfig-extra'), '[filter "fromInclude"]\n\tclean = cat\n');
    repository(root, [{ 'src/a.ts': 'export {};\n', f: 'one\n', '.env': 'SECRET=canary\n', 'svc/.env.local': 'SECRET=nested\n' }, { f: 'two\n' }]);
    appendConfig(path.join(root, '.git'), '[filter "localfix"]\n\tclean = ./tools/clean.sh\n');
    // Class 1: repositories other than the workspace folder's own.
    repository(path.join(root, 'vendor', 'lib'), [{ 'x.c': 'int x;\n' }]);
    fs.mkdirSync(path.join(root, 'vendor', 'lib', 'src'), { recursive: true });
    bareLookalike(path.join(root, 'elsewhere.git'), '/bin/false');
    write(path.join(root, 'linked', '.git'), 'gitdir: ../elsewhere.git\n');
    fs.mkdirSync(path.join(root, 'symlinked'));
    fs.symlinkSync(path.join('..', 'vendor', 'lib', '.git'), path.join(root, 'symlinked', '.git'));
    write(path.join(root, 'docs', 'HEAD'), 'ref: refs/heads/main\n');
    // Class 2: bare-layout folders with a .git entry git passes over.
    bareLookalike(path.join(root, 'fixtures', 'repo.git'), '/bin/false');
    fs.mkdirSync(path.join(root, 'fixtures', 'repo.git', '.git'));
    bareLookalike(path.join(root, 'fixtures', 'dangling.git'), '/bin/false');
    fs.symlinkSync('/nonexistent/target', path.join(root, 'fixtures', 'dangling.git', '.git'));
    // A workspace whose own .git takes its config from elsewhere, one inside a repository, one outside any.
    repository(path.join(parent, 'common-ws'), [{ f: 'x\n' }]);
    write(path.join(parent, 'common-ws', '.git', 'commondir'), '../../ws/vendor/lib/.git\n');
    repository(path.join(parent, 'above'), [{ 'inner/f': 'x\n' }]);
    fs.mkdirSync(path.join(parent, 'plain', 'ws'), { recursive: true });
  });
  after(() => fs.rmSync(parent, { recursive: true, force: true }));

  describe('git runs without asking only in the workspace folder\'s own plain .git', () => {
    expectDecision('git status', 'allow', 'the workspace repository');
    expectDecision('cd src && git log -p', 'allow', 'a folder of the workspace repository');
    expectDecision('git -C src blame a.ts', 'allow', '-C into a folder of the workspace repository');
    expectDecision('cd .git && git log -1', 'allow', 'inside the workspace\'s own .git git uses that same repository');
    expectDecision('git status', 'allow', 'no repository at all: git only errors', () => path.join(parent, 'plain', 'ws'));
  });

  describe('class 1: another repository asks (its config and hooks can run programs)', () => {
    expectDecision('git -C vendor/lib status --short', 'ask', 'a nested repository');
    expectDecision('cd vendor/lib && git status', 'ask', 'a nested repository after cd');
    expectDecision('cd vendor/lib/src && git diff', 'ask', 'discovery walks up into the nested repository');
    expectDecision('timeout 5 git -C vendor/lib log -p', 'ask', 'a nested repository behind a wrapper');
    expectDecision('for d in vendor/lib src; do git -C "$d" status; done', 'ask', 'a loop that reaches the nested repository');
    expectDecision('env git -C linked status', 'ask', 'a .git file that points elsewhere');
    expectDecision('git -C symlinked log', 'ask', 'a .git that is a symbolic link');
    expectDecision('git -C docs log', 'ask', 'a folder with a HEAD entry could be a bare repository');
    expectDecision('git status', 'ask', 'the workspace\'s own .git has a commondir', () => path.join(parent, 'common-ws'));
    expectDecision('git status', 'ask', 'the workspace folder is inside a repository above it', () => path.join(parent, 'above', 'inner'));
  });

  describe('class 2: a bare-layout folder with a .git entry git passes over asks', () => {
    expectDecision('git -C fixtures/repo.git diff', 'ask', 'an empty .git folder inside a bare layout');
    expectDecision('cd fixtures/repo.git && git status', 'ask', 'the same after cd');
    expectDecision('cd fixtures/repo.git/refs && git log', 'ask', 'discovery walks up into the bare layout');
    expectDecision('git -C fixtures/repo.git/objects show', 'ask', '-C below the bare layout');
    expectDecision('git -C fixtures/dangling.git diff', 'ask', 'a dangling .git link inside a bare layout');
    expectDecision('nice git -C fixtures/dangling.git/refs/heads status', 'ask', 'a dangling .git link, from below, behind nice');
  });

  describe('the command line that runs carries git\'s safety options', () => {
    it('forces every program-running setting off after git, with the config\'s filter drivers, and no pager', async () => {
      const verdict = await judge('git status');
      assert.equal(
        verdict.commandLine,
        'git -c core.fsmonitor=false -c core.hooksPath=/dev/null -c core.pager=cat -c gpg.program=/dev/null/no-gpg -c gpg.openpgp.program=/dev/null/no-gpg ' +
          '-c gpg.x509.program=/dev/null/no-gpg -c gpg.ssh.program=/dev/null/no-gpg -c log.showSignature=false -c submodule.recurse=false ' +
          '-c status.submoduleSummary=false -c diff.ignoreSubmodules=all -c stash.showPatch=false -c stash.showIncludeUntracked=false ' +
          '-c filter.fromInclude.clean= -c filter.fromInclude.smudge= -c filter.fromInclude.process= -c filter.fromInclude.required=false ' +
          '-c filter.lfs.clean= -c filter.lfs.smudge= -c filter.lfs.process= -c filter.lfs.required=false ' +
          '-c filter.localfix.clean= -c filter.localfix.smudge= -c filter.localfix.process= -c filter.localfix.required=false --no-pager status --ignore-submodules=all',
      );
    });
    expectLine('git diff', `git${GLOBALS} diff${DIFF_FLAGS}${EXCLUDES}`);
    expectLine('git log -p -- src', `git${GLOBALS} log${DIFF_FLAGS} -p -- src${EXCLUDES}`);
    expectLine('git blame -L 1,2 src/a.ts', `git${GLOBALS} blame --no-textconv -L 1,2 src/a.ts`);
    expectLine('nice -n 5 git diff --stat | head', `nice -n 5 git${GLOBALS} diff${DIFF_FLAGS} --stat${EXCLUDES} | head`);
    expectLine('command git grep -n foo HEAD', `command git${GLOBALS} grep --no-textconv -n foo HEAD${EXCLUDES}`);
    expectLine('git stash list', `git${GLOBALS} stash list${DIFF_FLAGS}${EXCLUDES}`);
    expectLine('git reflog show -1', `git${GLOBALS} reflog show${DIFF_FLAGS} -1${EXCLUDES}`);
    expectLine('git rev-parse HEAD && git status -s', `git${GLOBALS} rev-parse HEAD && git${GLOBALS} status --ignore-submodules=all -s`);
    expectLine('echo "é😀 ü" && git log -1', `echo "é😀 ü" && git${GLOBALS} log${DIFF_FLAGS} -1${EXCLUDES}`);
    expectLine('for r in HEAD HEAD~1; do git show --stat "$r"; done', `for r in HEAD HEAD~1; do git${GLOBALS} show${DIFF_FLAGS} --stat "$r"${EXCLUDES}; done`);
    expectLine('echo $(git rev-parse --short HEAD)', `echo $(git${GLOBALS} rev-parse --short HEAD)`);
    expectLine('git show abc1234', `git${GLOBALS} show${DIFF_FLAGS} abc1234'^{commit}'${EXCLUDES}`);

    it('leaves a line without git as it is', async () => {
      assert.equal((await judge('ls src')).commandLine, undefined);
    });
    expectDecision('echo `git log \\`echo -1\\``', 'ask', 'git inside backticks that bash reads again: its options cannot be placed with certainty');
    expectDecision('for r in abc1234 HEAD; do git show "$r"; done', 'ask', 'the rounds of the loop need different options in one place');
    expectDecision('git --literal-pathspecs log -p', 'ask', 'literal pathspecs would defeat the secret excludes');
  });

  describe('options that enter submodules, check signatures or merge again ask', () => {
    expectDecision('git status --ignore-submodules=none', 'ask', 'would enter submodules');
    expectDecision('git diff --submodule=diff', 'ask', 'runs git inside submodules');
    expectDecision('git grep --recurse-submodules foo', 'ask', 'searches submodules');
    expectDecision('git ls-files --recurse-submodules', 'ask', 'lists submodules');
    expectDecision('git log --show-signature', 'ask', 'runs the signature program');
    expectDecision("git log --format='%h %G?'", 'ask', 'a signature placeholder');
    expectDecision('git show --pretty=format:%GS HEAD', 'ask', 'a signature placeholder');
    expectDecision('git log --remerge-diff -p', 'ask', 'merges again with merge drivers');
    expectDecision('git log --diff-merges=remerge -p', 'ask', 'merges again with merge drivers');
    expectDecision('git log --alternate-refs', 'ask', 'runs core.alternateRefsCommand');
    expectDecision('git rev-parse --show-superproject-working-tree', 'ask', 'runs git in the repository above');
    expectDecision('git status -v', 'ask', 'verbose status prints a diff with textconv');
    expectDecision('git stash show -p', 'ask', 'a patch of the stash may hold a secret file');
  });

  describe('class 5: secret files in git\'s objects', () => {
    expectDecision('git show HEAD:.env', 'deny', 'a <rev>:<path> read of .env');
    expectDecision('git show HEAD~1:svc/.env.local', 'deny', 'a nested .env variant');
    expectDecision('git cat-file -p HEAD:.env', 'deny', 'cat-file of a <rev>:<path>');
    expectDecision('git cat-file blob :.env', 'deny', 'the index entry of .env');
    expectDecision('git cat-file -p :0:.env', 'deny', 'a stage of the index entry');
    expectDecision('git -C src show HEAD:../.env', 'deny', 'a path from the folder git runs in');
    expectDecision('git -C svc show HEAD:./.env.local', 'deny', 'a ./ path from the -C folder');
    expectDecision('git diff HEAD:.env HEAD~1:.env', 'deny', 'a diff of two blobs of .env');
    expectDecision('git grep SECRET HEAD:.env', 'deny', 'grep of a blob of .env');
    expectDecision('git log -L 1,1:.env', 'deny', 'the line history of .env');
    expectDecision('git log --follow -p _netrc', 'deny', 'the history of a netrc file (excludes do not apply with --follow)');
    expectDecision('git cat-file -p 8f3a9c1', 'ask', 'an object id may be a secret blob');
    expectDecision('git cat-file --batch --batch-all-objects', 'ask', 'prints every object');
    expectDecision('git diff HEAD:f 8f3a9c1', 'ask', 'a blob by object id');
    expectDecision('git show 8f3a9c1^{}', 'ask', 'peels a tag to whatever it points at');
    expectDecision('git cat-file -t 8f3a9c1', 'allow', 'only the type');
    expectDecision('git cat-file -p HEAD', 'allow', 'a commit by name');
    expectDecision('git show HEAD:src/a.ts', 'allow', 'a plain file of the repository');
    expectLine('git grep SECRET HEAD', `git${GLOBALS} grep --no-textconv SECRET HEAD${EXCLUDES}`);
    expectLine('git diff HEAD~1', `git${GLOBALS} diff${DIFF_FLAGS} HEAD~1${EXCLUDES}`);
    expectLine('git show 8f3a9c1~1 --stat', `git${GLOBALS} show${DIFF_FLAGS} 8f3a9c1~1 --stat${EXCLUDES}`);
    expectLine('git log --follow -p src/a.ts', `git${GLOBALS} log${DIFF_FLAGS} --follow -p src/a.ts`);
    expectLine('git diff HEAD:f HEAD~1:f', `git${GLOBALS} diff${DIFF_FLAGS} HEAD:f HEAD~1:f`);
  });

  describe('the config scan', () => {
    it('finds filter drivers in both header spellings and include paths in include and includeIf sections', () => {
      const scanned = scanConfig('[filter "a b"]\n\tclean = x\n[filter.old]\n[include]\n\tpath = "one.cfg" ; note\n[includeIf "gitdir:~/w/"]\n\tpath = ~/two.cfg\n[core]\n\tpath = not-an-include\n');
      assert.deepEqual(scanned, { filters: ['a b', 'old'], includes: ['one.cfg', '~/two.cfg'] });
    });
    it('asks when a driver name cannot be passed safely on the command line', async () => {
      appendConfig(path.join(root, '.git'), "[filter \"it's\"]\n\tclean = x\n");
      try {
        const verdict = await judge('git status');
        assert.equal(verdict.decision, 'ask', describeVerdict(verdict).join('\n'));
      } finally {
        git(root, 'config', '--remove-section', "filter.it's");
      }
    });
  });
});
