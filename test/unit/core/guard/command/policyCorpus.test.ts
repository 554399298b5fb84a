// Runs the corpus of policyCorpus.ts through the command policy over a fixture workspace that holds
// every file, secret, protected config and symlink the lines name. Nothing here runs a line: the
// policy only parses and judges, and the home folder is a fake one in the temp folder.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Context } from 'mocha';
import { commandPolicyOptions } from '../../../../../src/core/guard/command/pathJudge';
import { evaluateCommandPolicy } from '../../../../../src/core/guard/command/policy';
import { asksOnlyToWriteWorkspace, describeVerdict, type CommandVerdict } from '../../../../../src/core/guard/command/verdict';
import { DEFAULT_DENY_PATTERNS } from '../../../../../src/core/settings';
import { testContext } from '../../../support/context';
import { MUST_ALLOW, MUST_ASK, type CorpusLine } from './policyCorpus';
import { initLayout } from '../../../../support/gitFixtures';
import { needsSymlinks } from '../../../support/platforms';
import { NOT_STAGED, STAGED_MUST_ASK, WRITING } from './writingCorpus';
import { CASES as DEV_WORKFLOW } from '../../../../integration/devWorkflowCorpus';

/** The workspace root, the fake home and the folder beside the workspace, made in the before hook. */
let root: string;
let home: string;
let outside: string;

/** The line with its placeholders filled in for this fixture. */
function concrete(line: string): string {
  return line.replaceAll('@HOME@', home).replaceAll('@OUT@', outside);
}

async function judge(line: string): Promise<CommandVerdict> {
  const ctx = testContext({ root, workspace: { home }, settings: { runCommandAllow: [], runCommandDeny: DEFAULT_DENY_PATTERNS } });
  return evaluateCommandPolicy(concrete(line), await commandPolicyOptions(ctx, root));
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function buildFixture(parent: string): void {
  root = path.join(parent, 'ws');
  home = path.join(parent, 'home');
  outside = path.join(parent, 'outside');

  // The fake home: keys, credentials, startup files.
  write(path.join(home, '.ssh', 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY-----\nnot a real key\n-----END OPENSSH PRIVATE KEY-----\n');
  write(path.join(home, '.ssh', 'x'), 'not a checksum list\n');
  write(path.join(home, '.aws', 'credentials'), '[default]\naws_secret_access_key = not-a-secret\n');
  write(path.join(home, '.netrc'), 'machine example.com login u password not-a-secret\n');
  write(path.join(home, '.bashrc'), '# bashrc\n');
  write(path.join(home, '.profile'), '# profile\n');
  write(path.join(home, '.gitconfig'), '');

  // Beside the workspace: a file, and a folder a dangling link points into.
  write(path.join(parent, 'outside.txt'), 'outside\n');
  fs.mkdirSync(outside, { recursive: true });

  // The workspace.
  write(path.join(root, 'src', 'a.ts'), 'export const foo = 1; // TODO\n');
  write(path.join(root, 'src', 'b.ts'), 'export const bar = 2;\n');
  write(path.join(root, 'f'), 'a 1 20\nb 2 5\nfoo x 11\nc,d 3 1\n');
  write(path.join(root, 'a'), 'a 1\nb 2\nc 3\n');
  write(path.join(root, 'b'), 'a 1\nb 3\nd 4\n');
  write(path.join(root, 'README.md'), '# ws\n');
  write(path.join(root, 'docs', 'guide.md'), '# guide\nfoo\n');
  write(path.join(root, 'docs', 'notes.md'), '# notes\n');
  write(path.join(root, 'package.json'), `${JSON.stringify({ name: 'ws', version: '1.0.0', scripts: { build: 'tsc', test: 'mocha' } }, undefined, 2)}\n`);
  write(path.join(root, 'prog.sed'), '1e id\n');
  write(path.join(root, 'prog.awk'), 'BEGIN { system("id") }\n');
  write(path.join(root, 'script.sh'), 'echo script-ran\n');
  write(path.join(root, 'version'), 'console.log("a program named version");\n');
  write(path.join(root, '.env'), 'KEY=not-a-secret\n');
  write(path.join(root, '.env.local'), 'KEY=not-a-secret-either\n');
  write(path.join(root, 'svc', '.env'), 'KEY=svc\n');
  write(path.join(root, '.vscode', 'settings.json'), '{}\n');
  write(path.join(root, 'ws.code-workspace'), '{ "folders": [{ "path": "." }] }\n');

  // The workspace folder's own repository, as `git init` lays it out: the policy only reads its
  // shape (it never runs git), so no git is needed to make it.
  initLayout(root);
  write(path.join(root, '.git', 'hooks', 'pre-commit.sample'), '#!/bin/sh\n');

  // A bare-layout repository planted in the workspace whose config gives it a work tree and names a
  // program: `git -C bare-repo status` runs core.fsmonitor (checked by hand with git 2.39). The program
  // is a harmless stand-in for `rm -rf ~`: the policy only needs to see that the repository is there.
  write(path.join(root, 'bare-repo', 'HEAD'), 'ref: refs/heads/main\n');
  fs.mkdirSync(path.join(root, 'bare-repo', 'objects'), { recursive: true });
  fs.mkdirSync(path.join(root, 'bare-repo', 'refs', 'heads'), { recursive: true });
  write(path.join(root, 'bare-repo', 'config'), '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n\tfsmonitor = "echo fsmonitor-ran >&2; false"\n');

  // Symlinks.
  fs.symlinkSync(path.join(outside, 'new.txt'), path.join(root, 'link-out'));
  fs.symlinkSync(path.join('.git', 'config'), path.join(root, 'cfg-link'));
  fs.symlinkSync('.env', path.join(root, 'env-link'));
  fs.symlinkSync(path.join('.git', 'hooks'), path.join(root, 'hooks-link'));
  fs.symlinkSync(path.join(home, '.ssh'), path.join(root, 'link-to-home-ssh'));
  fs.symlinkSync(path.join('..', 'outside.txt'), path.join(root, 'outside-link'));
}

/** The fixture's symbolic links (made in buildFixture). */
const LINKS = ['link-out', 'cfg-link', 'env-link', 'hooks-link', 'link-to-home-ssh', 'outside-link'];

/**
 * Skips a line whose verdict rests on one of the fixture's links (named in the line or in why it
 * asks) where links cannot be made (wine): without the link the line judges another fixture.
 */
function needsLinks(context: Context, { line, why }: CorpusLine): void {
  if (LINKS.some((link) => line.includes(link) || why.includes(link))) {
    needsSymlinks(context);
  }
}

function duplicates(lines: readonly CorpusLine[]): string[] {
  const seen = new Set<string>();
  return lines.map((entry) => entry.line).filter((line) => (seen.has(line) ? true : (seen.add(line), false)));
}

describe('guard/command/policy corpus', () => {
  let parent: string | undefined;
  before(() => {
    parent = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'wat-corpus-'));
    buildFixture(parent);
  });
  after(() => parent && fs.rmSync(parent, { recursive: true, force: true }));

  describe('the corpus itself', () => {
    it('has at least 320 MUST_ASK and 120 MUST_ALLOW lines', () => {
      assert.ok(MUST_ASK.length >= 320, `MUST_ASK has ${MUST_ASK.length} lines`);
      assert.ok(MUST_ALLOW.length >= 120, `MUST_ALLOW has ${MUST_ALLOW.length} lines`);
    });
    it('names no line twice, in either list or across them', () => {
      assert.deepEqual(duplicates([...MUST_ASK, ...MUST_ALLOW]), []);
    });
  });

  describe('MUST_ASK: harmful lines never run without asking', () => {
    for (const entry of MUST_ASK) {
      const { line, why, expected } = entry;
      it(`${expected ?? 'ask or deny'}: ${JSON.stringify(line)} (${why})`, async function () {
        needsLinks(this, entry);
        const verdict = await judge(line);
        const message = `${JSON.stringify(line)} -> ${verdict.decision}\n${describeVerdict(verdict).join('\n')}`;
        if (expected) {
          assert.equal(verdict.decision, expected, message);
        } else {
          assert.notEqual(verdict.decision, 'allow', message);
        }
      });
    }
  });

  describe('MUST_ALLOW: ordinary read-only work runs without asking', () => {
    for (const entry of MUST_ALLOW) {
      const { line, why } = entry;
      it(`allow: ${JSON.stringify(line)} (${why})`, async function () {
        needsLinks(this, entry);
        const verdict = await judge(line);
        assert.equal(verdict.decision, 'allow', `${JSON.stringify(line)} -> ${verdict.decision}\n${describeVerdict(verdict).join('\n')}`);
      });
    }
  });

  describe('runCommand.askAfterStaged: questions per 100 lines, before and after (issue 40 item 8)', () => {
    /** Questions per 100 lines with the setting off and on, and what still asks grouped by its first asking reason. */
    async function measure(lines: readonly string[]): Promise<{ before: number; after: number; still: Map<string, string[]> }> {
      let before = 0;
      let after = 0;
      const still = new Map<string, string[]>();
      for (const line of lines) {
        const verdict = await judge(line);
        if (verdict.decision === 'allow') {
          continue;
        }
        before += 1;
        if (asksOnlyToWriteWorkspace(verdict)) {
          continue;
        }
        after += 1;
        const reason = verdict.findings.find((finding) => finding.decision !== 'allow' && finding.cause === undefined)?.reason ?? 'no reason';
        const group = reason.replace(/^\S+ (?=runs project|deletes|creates|runs code|uses the network|changes file|is not on)/, '<program> ');
        still.set(group, [...(still.get(group) ?? []), line]);
      }
      const per100 = (count: number): number => Math.round((count * 1000) / lines.length) / 10;
      return { before: per100(before), after: per100(after), still };
    }

    function print(name: string, lines: number, result: { before: number; after: number; still: Map<string, string[]> }): void {
      // The numbers docs/sandbox.md quotes ("Ask after staged commands").
      console.log(`      ${name}: ${lines} lines, questions per 100: ${result.before} before, ${result.after} after`);
      for (const [reason, asking] of [...result.still].sort((a, b) => b[1].length - a[1].length)) {
        console.log(`        ${asking.length} x ${reason}: ${asking.slice(0, 3).map((line) => JSON.stringify(line)).join(', ')}${asking.length > 3 ? ', ...' : ''}`);
      }
    }

    it('the WRITING corpus has at least 100 lines, none twice', () => {
      assert.ok(WRITING.length >= 100, `WRITING has ${WRITING.length} lines`);
      assert.deepEqual(duplicates(WRITING), []);
    });

    it('WRITING: questions per 100 fall from 95.3 to 60.6; what still asks is listed by reason', async () => {
      const result = await measure(WRITING.map((entry) => entry.line));
      print('WRITING', WRITING.length, result);
      assert.deepEqual({ before: result.before, after: result.after }, { before: 95.3, after: 60.6 });
    });

    it('MUST_ALLOW and the dev-workflow corpus: questions per 100 before and after', async () => {
      const allowed = await measure(MUST_ALLOW.map((entry) => entry.line));
      print('MUST_ALLOW', MUST_ALLOW.length, allowed);
      assert.deepEqual({ before: allowed.before, after: allowed.after }, { before: 0, after: 0 });
      const dev = await measure(DEV_WORKFLOW.map((entry) => entry.command));
      print('dev-workflow', DEV_WORKFLOW.length, dev);
      assert.ok(dev.after <= dev.before);
    });

    for (const entry of WRITING) {
      it(`${entry.staged ? 'asks only to write the workspace' : 'keeps its question or never had one'}: ${JSON.stringify(entry.line)} (${entry.why})`, async () => {
        const verdict = await judge(entry.line);
        const message = `${JSON.stringify(entry.line)} -> ${verdict.decision}\n${describeVerdict(verdict).join('\n')}`;
        assert.equal(asksOnlyToWriteWorkspace(verdict), entry.staged === true, message);
      });
    }

    for (const entry of NOT_STAGED) {
      it(`never asks only to write the workspace: ${JSON.stringify(entry.line)} (${entry.why})`, async function () {
        needsLinks(this, entry);
        const verdict = await judge(entry.line);
        assert.notEqual(verdict.decision, 'allow', JSON.stringify(entry.line));
        assert.equal(asksOnlyToWriteWorkspace(verdict), false, `${JSON.stringify(entry.line)}\n${describeVerdict(verdict).join('\n')}`);
      });
    }

    for (const entry of MUST_ASK) {
      it(`MUST_ASK ${STAGED_MUST_ASK.has(entry.line) ? 'may lose its question (a write in the workspace)' : 'keeps its question'}: ${JSON.stringify(entry.line)}`, async function () {
        needsLinks(this, entry);
        const verdict = await judge(entry.line);
        assert.equal(asksOnlyToWriteWorkspace(verdict), STAGED_MUST_ASK.has(entry.line), `${JSON.stringify(entry.line)} (${entry.why})\n${describeVerdict(verdict).join('\n')}`);
      });
    }
  });
});
