// The red team's worst chain, end to end in the real extension host: a command line that hides a
// rename of `.git` and a new `.git/config` with a `core.fsmonitor` behind a heredoc, followed by the
// `git status` VS Code's git extension runs outside any sandbox. With no approval the line asks
// and nothing runs; with the sandboxed approval the sandbox keeps the repository's folder and
// config where they are. Either way the planted program never runs with the user's rights.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { answerNextApproval, invoke, workspaceRoot } from './support/tools';

const TOOL = 'workspace_run_command';

/** git status as VS Code's git extension runs it: the user's environment, outside any sandbox. */
function gitStatusLikeTheGitExtension(repository: string): void {
  execFileSync('git', ['status', '-z', '-uall'], { cwd: repository, stdio: 'ignore' });
}

describe('the heredoc chain that renames .git (extension host)', function () {
  let repository: string;
  let marker: string;
  const ORIGINAL_CONFIG = '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n';

  before(function () {
    if (!vscode.workspace.isTrusted || process.platform !== 'linux') this.skip();
    repository = path.join(workspaceRoot(), 'escape-chain');
    marker = path.join(path.dirname(workspaceRoot()), `fsmonitor-ran-${process.pid}`);
  });

  beforeEach(function () {
    if (!repository) this.skip();
    fs.rmSync(repository, { recursive: true, force: true });
    fs.mkdirSync(repository, { recursive: true });
    execFileSync('git', ['init', '-q', repository]);
    fs.writeFileSync(path.join(repository, '.git', 'config'), ORIGINAL_CONFIG);
    fs.writeFileSync(path.join(repository, 'file.txt'), 'x\n');
    fs.rmSync(marker, { force: true });
  });

  after(() => {
    if (repository) fs.rmSync(repository, { recursive: true, force: true });
    if (marker) fs.rmSync(marker, { force: true });
  });

  /** The chain, with the hidden lines after a heredoc bash ends earlier than a naive parser thinks. */
  function chain(): string {
    return [
      "cat <<$'EOF'",
      'release notes',
      'EOF',
      `mv .git .git-orig && mkdir .git && cp -r .git-orig/. .git/ && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tfsmonitor = touch ${marker}\\n' > .git/config`,
      "$'EOF'",
    ].join('\n');
  }

  function assertUntouched(): void {
    assert.equal(fs.readFileSync(path.join(repository, '.git', 'config'), 'utf8'), ORIGINAL_CONFIG);
    assert.equal(fs.existsSync(path.join(repository, '.git-orig')), false);
    gitStatusLikeTheGitExtension(repository);
    assert.equal(fs.existsSync(marker), false, 'the planted fsmonitor ran');
  }

  it('asks, and with the question declined nothing runs', async () => {
    const answered = answerNextApproval(false);
    const outcome = await invoke(TOOL, { command: chain(), cwd: 'escape-chain' }).then(
      (result) => result.text,
      (error: Error) => `ERROR ${error.message}`,
    );
    await answered;
    assert.match(outcome, /declined/);
    assertUntouched();
  });

  it('approved in the sandbox, cannot move the repository\'s folder or replace its config', async () => {
    const answered = answerNextApproval(true);
    const { text } = await invoke(TOOL, { command: chain(), cwd: 'escape-chain' });
    await answered;
    assert.match(text, /^Sandbox: bubblewrap/m);
    // The heredoc's text came out, so the shell ran inside bubblewrap and tried the rest.
    assert.match(text, /^release notes$/m);
    assertUntouched();
  });
});
