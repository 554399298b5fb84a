// Escapes a red team ran for real through workspace_run_command, written again from their classes:
// a heredoc bash ends before the policy thinks, reads that take file names from standard input or
// follow links out of the workspace, and credentials the redaction must catch in a result. Every
// case runs through the core tool in the real bubblewrap sandbox with nobody approving: the line
// must ask (and so not run), or run and show nothing secret.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCommandTool } from '../../../../../src/core/tools/command/runCommand';
import { commandWorkspace } from '../../../support/commandWorkspace';
import { resultText } from '../../../support/context';
import { invokeTool } from '../../../../../src/core/tools/invoke';

describe('tools/runCommand against escapes, with no approval given', () => {
  const workspace = commandWorkspace();
  let outside = '';

  before(() => {
    const root = workspace.root;
    fs.mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(root, '.git', 'config'), '[core]\n\tbare = false\n');
    fs.writeFileSync(path.join(root, 'a.txt'), 'a\n');
    outside = path.join(workspace.parent, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'credentials'), 'CANARY-OUTSIDE-7731\n');
    fs.mkdirSync(path.join(root, 'links'));
    fs.symlinkSync(outside, path.join(root, 'links', 'home'));
    fs.mkdirSync(path.join(root, 'other'));
    fs.writeFileSync(path.join(root, 'names.txt'), `${path.join(outside, 'credentials')}\0`);
    fs.writeFileSync(path.join(root, 'sums.txt'), `0000000000000000000000000000000000000000000000000000000000000000  ${path.join(outside, 'credentials')}\n`);
  });

  /** Runs the line with the approver refusing every question; returns the result text and how many questions came. */
  async function refused(command: string): Promise<{ text: string; asked: number }> {
    const { ctx, approver } = workspace.setup({ approve: false });
    const text = await invokeTool(runCommandTool, { command }, ctx).then(resultText, (error: Error) => `ERROR ${error.message}`);
    return { text, asked: approver.asked.length };
  }

  describe('a heredoc whose end bash reads differently from the parser asks, so the line after it never runs', () => {
    const marker = (): string => path.join(workspace.root, 'heredoc-ran');
    const spellings = [
      "cat <<$'EOF'\ntext\nEOF\ntouch heredoc-ran\n$'EOF'",
      'cat <<$"EOF"\ntext\nEOF\ntouch heredoc-ran\n$"EOF"',
      "cat <<E$'O'F\ntext\nEOF\ntouch heredoc-ran\nE$'O'F",
      "cat <<-$'EOF'\n\ttext\n\tEOF\ntouch heredoc-ran\n$'EOF'",
      "wc -l <<'E'OF\ntext\nEOF\ntouch heredoc-ran\n'E'OF",
      'cat <<E\\OF\ntext\nEOF\ntouch heredoc-ran\nE\\OF',
    ];
    for (const command of spellings) {
      it(JSON.stringify(command), async () => {
        const { text, asked } = await refused(command);
        assert.equal(asked, 1, text);
        assert.match(text, /^ERROR The user declined/);
        assert.equal(fs.existsSync(marker()), false);
      });
    }

    it('the red team chain (rename .git, write a new config) changes nothing', async () => {
      const chain = "cat <<$'EOF'\nnotes\nEOF\nmv .git .git-orig && mkdir .git && printf '[core]\\n\\tfsmonitor = touch pwned\\n' > .git/config\n$'EOF'";
      const { asked } = await refused(chain);
      assert.equal(asked, 1);
      assert.equal(fs.readFileSync(path.join(workspace.root, '.git', 'config'), 'utf8'), '[core]\n\tbare = false\n');
      assert.equal(fs.existsSync(path.join(workspace.root, '.git-orig')), false);
    });

    it('an ordinary heredoc still runs without asking', async () => {
      const { text, asked } = await refused("cat <<'EOF' | wc -l\none\ntwo\nEOF");
      assert.equal(asked, 0, text);
      assert.match(text, /^Exit code: 0/);
      assert.match(text, /^2$/m);
    });
  });

  describe('reads that take names from a file or standard input, or follow links in a folder, ask', () => {
    const spellings = [
      `printf '%s\\0' ${path.posix.join('..', 'outside', 'credentials')} | sort --files0-from=-`,
      'wc --files0-from=names.txt',
      'cat names.txt | du --files0-from=-',
      'file -f names.txt',
      'sha256sum -c sums.txt',
      'diff -rN links other',
      'diff links/home other',
      'find -L links -type f',
      'ls -RL links',
    ];
    for (const command of spellings) {
      it(command, async () => {
        const { text, asked } = await refused(command);
        assert.equal(asked, 1, text);
        assert.doesNotMatch(text, /CANARY-OUTSIDE/);
      });
    }

    it('diff of two folders still runs without asking with --no-dereference, and compares the link as a link', async () => {
      const { text, asked } = await refused('diff -r --no-dereference links other');
      assert.equal(asked, 0, text);
      assert.doesNotMatch(text, /CANARY-OUTSIDE/);
      assert.match(text, /Only in links: home/);
    });
  });

  describe('credentials a command prints are redacted from its result', () => {
    const cases: Array<[string, string]> = [
      ["printf 'url.https://builder:Canary4Url@git.example.com/.insteadof=https://git.example.com/\\n'", 'Canary4Url'],
      ["printf 'remote.origin.url=http://me:CanaryIpPw9@10.0.0.1:8080/r\\n'", 'CanaryIpPw9'],
      ["printf '{\\n  \"GITHUB_TOKEN\": \"canary-json-token-1\"\\n}\\n'", 'canary-json-token-1'],
      ["printf '{\"npm_config__authToken\":\"canary-json-token-2\",\"HOME\":\"/h\"}\\n'", 'canary-json-token-2'],
      ["printf 'postgres://app:canary-pg-pw@db.internal:5432/app\\n'", 'canary-pg-pw'],
    ];
    for (const [command, canary] of cases) {
      it(command, async () => {
        const { text, asked } = await refused(command);
        assert.equal(asked, 0, text);
        assert.doesNotMatch(text, new RegExp(canary));
        assert.match(text, /REDACTED/);
      });
    }
  });
});
