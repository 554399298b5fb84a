// The command policy's git rules over repositories laid out as `git init` lays them: which repository
// git would use (issue 27 classes 1 and 2), the command line that runs with git's safety options, and
// secret files in git's objects (class 5). Nothing here runs a line: the policy only parses and judges.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { commandPolicyOptions } from '../../../../../src/core/guard/command/pathJudge';
import { evaluateCommandPolicy } from '../../../../../src/core/guard/command/policy';
import { describeVerdict, type CommandVerdict } from '../../../../../src/core/guard/command/verdict';
import { GIT_SECRET_EXCLUDES, gitGlobalInsertion } from '../../../../../src/core/guard/command/gitSafety';
import { testContext } from '../../../support/context';
import { appendConfig, bareLookalike, initLayout, write } from '../../../../support/gitFixtures';
import { needsSymlinks } from '../../../support/platforms';

let parent = '';

/** A clone's config with what VS Code, gh and the user add to it: every key harmless. */
const HARMLESS_CONFIG = [
  '[remote "origin"]\n\turl = https://example.invalid/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n\tgh-resolved = base\n',
  '[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n\tvscode-merge-base = origin/main\n',
  '[submodule "lib"]\n\turl = https://example.invalid/lib.git\n\tactive = true\n',
  '[user]\n\tname = Someone\n\temail = someone@example.invalid\n[pull]\n\trebase = false\n',
].join('');

const CORE = '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n';

/** Repository configs a folder can arrive with (a tarball, a copy), by what they hold. */
const PLANTED_CONFIGS = {
  'core.worktree': `${CORE}\tworktree = /home\n`,
  'include.path': `${CORE}[include]\n\tpath = ~/.my.cnf\n`,
  includeIf: `${CORE}[includeIf "gitdir:/"]\n\tpath = /etc/passwd\n`,
  'a partial clone': '[core]\n\trepositoryformatversion = 1\n[remote "origin"]\n\turl = /tmp/elsewhere\n\tpromisor = true\n\tpartialclonefilter = blob:none\n\tuploadpack = "touch /tmp/ran; git-upload-pack"\n[extensions]\n\tpartialclone = origin\n',
  'extensions.partialclone': '[core]\n\trepositoryformatversion = 1\n[extensions]\n\tpartialClone = origin\n',
  'a filter driver': `${CORE}[filter "x"]\n\tclean = ./clean.sh\n`,
  'a 2 MiB config': `${CORE}${'\tfilemode = true\n'.repeat(140_000)}`,
  '[Core] WorkTree': '[Core]\n\tWorkTree = ..\n',
  'the old form [remote.origin]': `${CORE}[remote.Origin]\n\tuploadpack = sh -c id\n`,
  // Line 3 continues line 2's value, so [user] is text and worktree is core's.
  'a continuation line': '[core]\n\tbare = false \\\n[user]\n\tworktree = /home\n',
  // The ; and # are inside quotes: the value ends at the line's end, and the next line is a key.
  'a key after a comment-looking quoted value': '[core]\n\tabbrev = "12;" # a "quoted\n\tsshCommand = sh -c id\n',
  'an unknown future key': `${CORE}\tsomethingNew = 1\n`,
  'a subsection on a section that has none': '[core "x"]\n\tbare = false\n',
  'a line git rejects': `[core]\n\tbare = false\n\tabbrev = 1\\q\n`,
  'bytes that are not UTF-8': Buffer.concat([Buffer.from(`${CORE}[user]\n\tname = `), Buffer.from([0xff, 0x0a])]),
  'config.worktree': CORE,
  'a folder for a config': CORE,
  // Odd but harmless: a BOM, case, the old form, a quoted subsection with an escape, comments, a bare
  // key, and a continuation that makes `[core] worktree = b` part of the user's name, never a key.
  'harmless spellings': '\uFEFF; comment\n[CORE] # comment\n  FileMode=false\n\tBare\n[Branch.Main]\n\tRemote = origin\n[remote "o\\"r"] url = "x#y" ; c\n[user]\n\tname = a \\\n[core] worktree = b\n',
} as const;
let root = '';
let home = '';

/**
 * A repository in `folder`: its files, and its .git as `git init` lays it out. The policy reads only
 * the repository's shape and config (never its objects), so no git is needed to make it.
 */
function repository(folder: string, files: Readonly<Record<string, string>>): void {
  for (const [name, text] of Object.entries(files)) {
    write(path.join(folder, name), text);
  }
  initLayout(folder);
}

async function judge(command: string, workspaceRoot = root): Promise<CommandVerdict> {
  const ctx = testContext({ root: workspaceRoot, workspace: { home }, settings: { runCommandAllow: [], runCommandDeny: [] } });
  return evaluateCommandPolicy(command, await commandPolicyOptions(ctx, workspaceRoot));
}

/** The fixture's folders whose .git is a symbolic link: where links cannot be made (wine), lines into them judge another fixture. */
const LINKED = ['symlinked', 'dangling.git'];

function expectDecision(command: string, expected: 'allow' | 'ask' | 'deny', why: string, workspace?: () => string): void {
  it(`${expected}: ${JSON.stringify(command)} (${why})`, async function () {
    if (LINKED.some((folder) => command.includes(folder))) {
      needsSymlinks(this);
    }
    const verdict = await judge(command, workspace?.());
    assert.equal(verdict.decision, expected, describeVerdict(verdict).join('\n'));
    if (expected !== 'allow') {
      assert.equal(verdict.commandLine, undefined);
    }
  });
}

/** The words the policy puts after `git` in the fixture workspace (the user's config names the filter drivers below). */
const GLOBALS = gitGlobalInsertion(['fromInclude', 'lfs']);
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
    repository(root, { 'src/a.ts': 'export {};\n', f: 'two\n', '.env': 'SECRET=canary\n', 'svc/.env.local': 'SECRET=nested\n' });
    // What a clone, VS Code and the user write into a repository's config: all on the harmless list.
    appendConfig(path.join(root, '.git'), HARMLESS_CONFIG);
    // Class 1: repositories other than the workspace folder's own.
    repository(path.join(root, 'vendor', 'lib'), { 'x.c': 'int x;\n' });
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
    repository(path.join(parent, 'common-ws'), { f: 'x\n' });
    write(path.join(parent, 'common-ws', '.git', 'commondir'), '../../ws/vendor/lib/.git\n');
    repository(path.join(parent, 'above'), { 'inner/f': 'x\n' });
    fs.mkdirSync(path.join(parent, 'plain', 'ws'), { recursive: true });
    // Issue 37: workspaces whose own .git arrived with the folder, each with the config named by its key.
    for (const [name, config] of Object.entries(PLANTED_CONFIGS)) {
      repository(path.join(parent, 'planted', name), { f: 'x\n' });
      fs.writeFileSync(path.join(parent, 'planted', name, '.git', 'config'), config);
    }
    write(path.join(parent, 'planted', 'config.worktree', '.git', 'config.worktree'), '[core]\n\tworktree = /home\n');
    fs.rmSync(path.join(parent, 'planted', 'a folder for a config', '.git', 'config'));
    fs.mkdirSync(path.join(parent, 'planted', 'a folder for a config', '.git', 'config'));
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
    it('forces every program-running setting and every transport off after git, with the user\'s filter drivers, and no pager', async () => {
      const verdict = await judge('git status');
      assert.equal(
        verdict.commandLine,
        'git -c core.fsmonitor=false -c core.hooksPath=/dev/null -c core.pager=cat -c gpg.program=/dev/null/no-gpg -c gpg.openpgp.program=/dev/null/no-gpg ' +
          '-c gpg.x509.program=/dev/null/no-gpg -c gpg.ssh.program=/dev/null/no-gpg -c log.showSignature=false -c submodule.recurse=false ' +
          '-c status.submoduleSummary=false -c diff.ignoreSubmodules=all -c stash.showPatch=false -c stash.showIncludeUntracked=false ' +
          '-c protocol.allow=never -c protocol.file.allow=never -c protocol.ext.allow=never -c protocol.git.allow=never -c protocol.ssh.allow=never ' +
          '-c protocol.http.allow=never -c protocol.https.allow=never ' +
          '-c filter.fromInclude.clean= -c filter.fromInclude.smudge= -c filter.fromInclude.process= -c filter.fromInclude.required=false ' +
          '-c filter.lfs.clean= -c filter.lfs.smudge= -c filter.lfs.process= -c filter.lfs.required=false --no-pager status --ignore-submodules=all',
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

  describe('the user\'s filter drivers', () => {
    it('asks when a driver name cannot be passed safely on the command line', async () => {
      const extra = path.join(home, '.gitconfig-extra');
      const before = fs.readFileSync(extra, 'utf8');
      fs.appendFileSync(extra, "[filter \"it's\"]\n\tclean = x\n");
      try {
        const verdict = await judge('git status');
        assert.equal(verdict.decision, 'ask', describeVerdict(verdict).join('\n'));
        assert.match(describeVerdict(verdict).join('\n'), /filter driver "it's"/);
      } finally {
        fs.writeFileSync(extra, before);
      }
    });
    it('asks when the user\'s config is larger than the policy reads, instead of leaving its drivers on', async () => {
      const gitconfig = path.join(home, '.gitconfig');
      const before = fs.readFileSync(gitconfig, 'utf8');
      fs.writeFileSync(gitconfig, `${before}${'# padding\n'.repeat(30_000)}[filter "late"]\n\tclean = x\n`);
      try {
        const verdict = await judge('git status');
        assert.equal(verdict.decision, 'ask', describeVerdict(verdict).join('\n'));
        assert.match(describeVerdict(verdict).join('\n'), /\.gitconfig cannot be read whole \(it is larger than 256\.0 KB\)/);
      } finally {
        fs.writeFileSync(gitconfig, before);
      }
    });
  });

  describe('issue 37: git runs unasked only with a repository config read whole and found harmless', () => {
    const planted = (name: string) => () => path.join(parent, 'planted', name);
    function expectAsk(command: string, name: keyof typeof PLANTED_CONFIGS, reason: RegExp): void {
      it(`asks for ${JSON.stringify(command)} in a repository whose config has ${name}`, async () => {
        const verdict = await judge(command, planted(name)());
        const text = describeVerdict(verdict).join('\n');
        assert.equal(verdict.decision, 'ask', text);
        assert.equal(verdict.commandLine, undefined);
        assert.match(text, reason);
      });
    }
    expectAsk('git diff', 'core.worktree', /\.git\/config line 6 sets core\.worktree, which is not on the list of settings known to be harmless/);
    expectAsk('git config --list', 'include.path', /sets include\.path/);
    expectAsk('git log -1', 'includeIf', /sets includeif\.gitdir:\/\.path/);
    expectAsk('git log -p', 'a partial clone', /sets remote\.origin\.promisor/);
    expectAsk('git status', 'extensions.partialclone', /sets extensions\.partialclone/);
    expectAsk('git status', 'a filter driver', /sets filter\.x\.clean/);
    expectAsk('git status', 'a 2 MiB config', /\.git\/config cannot be read whole \(it is larger than 256\.0 KB\)/);
    expectAsk('git status', '[Core] WorkTree', /line 2 sets core\.worktree/);
    expectAsk('git status', 'the old form [remote.origin]', /sets remote\.origin\.uploadpack/);
    expectAsk('git status', 'a continuation line', /line 4 sets core\.worktree/);
    expectAsk('git status', 'a key after a comment-looking quoted value', /line 3 sets core\.sshcommand/);
    expectAsk('git status', 'an unknown future key', /sets core\.somethingnew/);
    expectAsk('git status', 'a subsection on a section that has none', /sets core\.x\.bare/);
    expectAsk('git status', 'a line git rejects', /\.git\/config line 3 is not valid git config \(the unknown escape \\q in a value\)/);
    expectAsk('git status', 'bytes that are not UTF-8', /\.git\/config is not valid UTF-8/);
    expectAsk('git status', 'config.worktree', /config\.worktree line 2 sets core\.worktree/);
    expectAsk('git status', 'a folder for a config', /config cannot be read whole \(it is a folder\)/);
    expectDecision('git status', 'allow', 'harmless settings only, in odd spellings and a continuation line that hides a key git never reads', planted('harmless spellings'));
    for (const command of ['git status', 'git diff', 'git log -p', 'git config --list']) {
      expectDecision(command, 'allow', 'the fixture\'s config holds only what a clone, VS Code and the user write');
    }
  });
});
