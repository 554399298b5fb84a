// git through workspace_run_command, for real: real repositories with planted configuration, git
// 2.39 and the bubblewrap sandbox (issue 27 classes 1, 2 and the git part of 5; issue 37). Every
// planted program appends to a marker file in the workspace: a git the policy ran without asking
// must never create it, a git in another repository or with a repository config that names a
// program must ask (and, declined, run nothing), and secret files committed to the repository must
// never reach the output of a git that ran without asking. The user's own config (a home folder of
// the test's, inside the workspace so that the sandbox shows it) names a program in every place a
// read-only git may run one: the forced options must keep them all off.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCommandTool } from '../../../../../src/core/tools/command/runCommand';
import { commandWorkspace } from '../../../support/commandWorkspace';
import { resultText } from '../../../support/context';
import { appendConfig, bareLookalike, git, repository, signedHead, write } from '../../../../support/gitFixtures';
import { invokeTool } from '../../../../../src/core/tools/invoke';

/** The committed secrets' values (a command line may name the prefix, its output must not show a value). */
const CANARY = /git-canary-\d/;

describe('tools/runCommand: git with planted programs, in the sandbox', () => {
  const workspace = commandWorkspace();
  let marker = '';
  let program = '';

  let home = '';

  async function run(command: string, approve = false) {
    const { ctx, approver } = workspace.setup({ approve, home });
    const text = await invokeTool(runCommandTool, { command }, ctx).then(resultText, (error: Error) => `ERROR ${error.message}`);
    return { text, asked: approver.asked };
  }

  /** A planted program that records that it ran (and passes its input through, as a filter would). */
  function plantProgram(parent: string, root: string): void {
    marker = path.join(root, 'planted-ran.txt');
    program = path.join(parent, 'planted.sh');
    write(program, `#!/bin/sh\necho "$0 $*" >> ${marker}\ncat\n`, 0o755);
  }

  function markerText(): string {
    return fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : '';
  }

  before(() => {
    const root = workspace.root;
    plantProgram(workspace.parent, root);
    repository(root, [
      { 'a.txt': 'a\n', 'b.bin': 'bin\n', '.gitattributes': '*.bin diff=conv filter=flt\n', '.env': 'SECRET=git-canary-1\n', 'svc/.env.local': 'NESTED=git-canary-2\n' },
      { 'a.txt': 'a2\n', 'b.bin': 'bin2\n', '.env': 'SECRET=git-canary-3\n' },
    ]);
    // A submodule, whose own config (.git/modules/mod/config) names a program too.
    repository(path.join(workspace.parent, 'module-source'), [{ 'm.txt': 'm\n' }]);
    git(root, 'submodule', 'add', '-q', path.join(workspace.parent, 'module-source'), 'mod');
    git(root, 'commit', '-q', '-m', 'submodule');
    appendConfig(path.join(root, '.git', 'modules', 'mod'), `[core]\n\tfsmonitor = ${program}\n`);
    write(path.join(root, '.git', 'modules', 'mod', 'hooks', 'post-index-change'), `#!/bin/sh\n${program} submodule-hook\n`, 0o755);
    signedHead(root);
    // The user's config names a program in every place a read-only git may run one.
    home = path.join(root, 'home');
    write(path.join(home, '.gitconfig'), [
      `[core]\n\tfsmonitor = ${program}\n\thooksPath = .githooks\n`,
      `[diff]\n\texternal = ${program}\n[diff "conv"]\n\ttextconv = ${program}\n\tcommand = ${program}\n`,
      `[filter "flt"]\n\tclean = ${program}\n\tsmudge = ${program}\n\trequired = true\n`,
      `[gpg]\n\tprogram = ${program}\n[log]\n\tshowSignature = true\n`,
    ].join(''));
    // The repository's own config holds what git init and git submodule add wrote, and a clone's remote.
    appendConfig(path.join(root, '.git'), '[remote "origin"]\n\turl = https://example.invalid/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n');
    write(path.join(root, '.githooks', 'post-index-change'), `#!/bin/sh\n${program} hook\n`, 0o755);
    fs.appendFileSync(path.join(root, 'b.bin'), 'changed in the work tree\n');
    // Repositories other than the workspace folder's own.
    repository(path.join(root, 'vendor', 'lib'), [{ 'x.c': 'int x;\n' }]);
    appendConfig(path.join(root, 'vendor', 'lib', '.git'), `[core]\n\tfsmonitor = ${program}\n`);
    git(root, 'init', '-q', `--separate-git-dir=${path.join(workspace.parent, 'elsewhere.git')}`, 'linked');
    appendConfig(path.join(workspace.parent, 'elsewhere.git'), `[core]\n\tfsmonitor = ${program}\n`);
    bareLookalike(path.join(root, 'fixtures', 'repo.git'), program);
    fs.mkdirSync(path.join(root, 'fixtures', 'repo.git', '.git'));
    bareLookalike(path.join(root, 'fixtures', 'dangling.git'), program);
    fs.symlinkSync('/nonexistent/target', path.join(root, 'fixtures', 'dangling.git', '.git'));
  });

  beforeEach(() => fs.rmSync(marker, { force: true }));

  it('has live planted programs: plain git, run directly, runs the fsmonitor, the hook and the filter', () => {
    execFileSync('git', ['status', '--short'], { cwd: workspace.root, stdio: 'ignore', env: { ...process.env, HOME: home } });
    assert.match(markerText(), /planted\.sh.*\n(.|\n)*hook/);
    fs.rmSync(marker);
    execFileSync('git', ['-C', 'fixtures/repo.git', 'diff'], { cwd: workspace.root, stdio: 'ignore' });
    assert.notEqual(markerText(), '');
  });

  describe('ordinary git in the workspace\'s own repository runs without asking, with its safety options', () => {
    for (const command of ['git status', 'git diff', 'git log -p', 'git blame b.bin', 'git show --stat', 'git log -1 --format=%h', 'git diff --stat HEAD~2', 'git grep -n a HEAD', 'cd sub && git log --oneline']) {
      it(`runs ${JSON.stringify(command)} with exit 0 and runs no planted program`, async () => {
        const { text, asked } = await run(command);
        assert.equal(asked.length, 0, asked.map((request) => request.detail).join('\n'));
        assert.match(text, /^Exit code: 0/m, text);
        assert.match(text, /^Git: ran with forced safety options/m);
        assert.equal(markerText(), '');
      });
    }

    it('reads the user\'s config inside the sandbox (so the runs above met its programs)', async () => {
      const { text, asked } = await run('git config --get diff.external');
      assert.equal(asked.length, 0);
      assert.match(text, /planted\.sh/);
    });

    it('runs git with GIT_NO_LAZY_FETCH=1, and a line without git without it', async () => {
      assert.match((await run('git rev-parse --is-inside-work-tree && printenv GIT_NO_LAZY_FETCH')).text, /--- stdout ---\ntrue\n1\n/);
      assert.match((await run('printenv GIT_NO_LAZY_FETCH')).text, /^Exit code: 1/m);
    });
  });

  describe('issue 37: a repository config that names a program asks, and declined runs nothing', () => {
    for (const [config, key] of [['[core]\n\tfsmonitor = PROGRAM\n', 'core.fsmonitor'], ['[diff "conv"]\n\ttextconv = PROGRAM\n', 'diff.conv.textconv'], ['[filter "flt"]\n\tclean = PROGRAM\n\trequired = true\n', 'filter.flt.clean']]) {
      it(`asks for git status with ${key} in .git/config`, async () => {
        const file = path.join(workspace.root, '.git', 'config');
        const before = fs.readFileSync(file, 'utf8');
        fs.appendFileSync(file, config.replaceAll('PROGRAM', program));
        try {
          const { text, asked } = await run('git status');
          assert.match(text, /^ERROR The user declined/);
          assert.equal(asked.length, 1);
          assert.match(asked[0].detail, new RegExp(`sets ${key.replaceAll('.', '\\.')}, which is not on the list`));
          assert.equal(markerText(), '');
        } finally {
          fs.writeFileSync(file, before);
        }
      });
    }
  });

  describe('class 1: a git that would use another repository asks, and declined runs nothing', () => {
    for (const command of ['git -C vendor/lib status --short', 'cd vendor/lib && git status', 'timeout 10 git -C vendor/lib diff', 'git -C linked status', 'env git -C linked log', 'git -C mod status', 'cd mod && git diff HEAD']) {
      it(`asks for ${JSON.stringify(command)}`, async () => {
        const { text, asked } = await run(command);
        assert.match(text, /^ERROR The user declined/);
        assert.equal(asked.length, 1);
        assert.match(asked[0].detail, /repository|\.git|commondir|HEAD entry/);
        assert.equal(markerText(), '');
      });
    }
  });

  describe('class 2: a bare layout with a .git entry git passes over asks, and declined runs nothing', () => {
    for (const command of ['git -C fixtures/repo.git diff', 'cd fixtures/repo.git && git status', 'git -C fixtures/repo.git/refs log', 'git -C fixtures/dangling.git diff', 'cd fixtures/dangling.git/objects && git status --short']) {
      it(`asks for ${JSON.stringify(command)}`, async () => {
        const { text, asked } = await run(command);
        assert.match(text, /^ERROR The user declined/);
        assert.equal(asked.length, 1);
        assert.equal(markerText(), '');
      });
    }
  });

  describe('class 5: secret files committed to the repository never reach the output of a git that did not ask', () => {
    it('refuses <rev>:<path> reads of them, even when the user would approve', async () => {
      for (const command of ['git show HEAD:.env', 'git cat-file -p HEAD~1:.env', 'git show HEAD:svc/.env.local', 'git -C svc show HEAD:./.env.local', 'git diff HEAD~1:.env HEAD~2:.env', 'git log -L 1,1:.env']) {
        const { text } = await run(command, true);
        assert.match(text, /^ERROR The command was refused/, command);
        assert.doesNotMatch(text, CANARY, command);
      }
    });

    for (const command of ['git log -p', 'git log -p --all -- .', 'git diff HEAD~2', 'git diff', 'git show HEAD~1', 'git grep git-canary HEAD~1', 'git grep --cached -n canary', 'git whatchanged -p', 'git diff-tree -p HEAD~2 HEAD~1', 'cd svc && git log -p', 'git stash list -p']) {
      it(`leaves them out of ${JSON.stringify(command)}`, async () => {
        const { text, asked } = await run(command);
        assert.equal(asked.length, 0, asked.map((request) => request.detail).join('\n'));
        assert.doesNotMatch(text, CANARY);
        assert.equal(markerText(), '');
      });
    }

    it('does not print a secret blob named by its object id without asking', async () => {
      const blob = git(workspace.root, 'rev-parse', 'HEAD~1:.env').trim();
      for (const command of [`git cat-file -p ${blob}`, `git show ${blob}`, `git show ${blob.slice(0, 8)}`, `git cat-file blob ${blob}`, `git diff ${blob} ${git(workspace.root, 'rev-parse', 'HEAD~2:.env').trim()}`]) {
        const { text } = await run(command);
        assert.doesNotMatch(text, CANARY, command);
      }
    });
  });
});

describe('tools/runCommand: git where the workspace\'s own .git takes its config from elsewhere', () => {
  const workspace = commandWorkspace();
  let marker = '';

  before(() => {
    const root = workspace.root;
    marker = path.join(root, 'planted-ran.txt');
    const program = path.join(workspace.parent, 'planted.sh');
    write(program, `#!/bin/sh\necho "$0 $*" >> ${marker}\n`, 0o755);
    repository(root, [{ 'a.txt': 'a\n' }]);
    // A copy of the git directory with a planted config, named by a commondir file the model could have written.
    fs.cpSync(path.join(root, '.git'), path.join(root, 'planted-common'), { recursive: true });
    appendConfig(path.join(root, 'planted-common'), `[core]\n\tfsmonitor = ${program}\n`);
    write(path.join(root, '.git', 'commondir'), '../planted-common\n');
  });

  it('is live: plain git, run directly, runs the program the commondir\'s config names', () => {
    execFileSync('git', ['status'], { cwd: workspace.root, stdio: 'ignore' });
    assert.notEqual(fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : '', '');
    fs.rmSync(marker);
  });

  for (const command of ['git status', 'git diff', 'git log -p', 'cd sub && git status', 'nice git blame a.txt']) {
    it(`asks for ${JSON.stringify(command)}, and declined runs nothing`, async () => {
      const { ctx, approver } = workspace.setup({ approve: false });
      const text = await invokeTool(runCommandTool, { command }, ctx).then(resultText, (error: Error) => `ERROR ${error.message}`);
      assert.match(text, /^ERROR The user declined/);
      assert.match(approver.asked[0]?.detail ?? '', /commondir/);
      assert.equal(fs.existsSync(marker), false);
    });
  }
});
