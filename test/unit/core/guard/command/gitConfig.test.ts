// The config parser of the command policy (gitConfig.ts) against git itself: the same keys and values
// for files written to trip a line-by-line reader, and a refusal wherever git refuses the file.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isHarmlessSetting, parseGitConfig, repositoryConfigProblem } from '../../../../../src/core/guard/command/gitConfig';
import { execFileSync } from 'node:child_process';
import { needsWindowsProgram } from '../../../support/platforms';

/** Files git reads, each meant to catch a reader that is not git's: continuations, quotes, comments, case, old-style headers. */
const TRICKY: Readonly<Record<string, string>> = {
  'a continuation that folds a header into a value': '[user]\n\tname = a \\\n[core] worktree = b\n\temail = c\n',
  'a continuation that puts a key in the section above': '[core]\n\tbare = false \\\n[user]\n\tworktree = /home\n',
  'comment characters inside quotes and a quote inside a comment': '[core]\n\tabbrev = "12;" # a "quoted\n\tsshCommand = "a\\tb\\\\c \\"d\\"" x  y   \n\tpager = "; not a comment" ; a comment\n',
  'case and both header forms': '[Core]\n\tWorkTree = ..\n[remote.Origin]\n\tURL = one\n[Remote "Origin"]\n\tUrl = two\n[a.b "C.d"]\n\te-F = \n\tg\n\th=   spaced   value   \n',
  'CRLF, a lone CR, a BOM, tabs in a header and a key at the end without a newline': '\uFEFF[core]\r\n\tbare = true\r\n\tx = a\rb\n[a\t"b"] k = 1\n[include]path=one\n[includeIf "gitdir:~/w/"]\n\tpath = ~/two.cfg\n[z]\n\tlast = v\\',
  'escapes in a subsection and a value': '[remote "o\\"r\\\\g"]\n\turl = "x\\ny"\\\n  "z"\n[filter "a b"]\n\tclean = "tr ; a b"\n',
};

/** Files git refuses (each checked below against git): the parser must refuse them too. */
const REFUSED: Readonly<Record<string, string>> = {
  'an unclosed header': '[core\n\tbare = true\n',
  'text after a subsection\'s quote': '[core "x"y]\n\tk = v\n',
  'an unclosed quote': '[core]\n\tbare = "false\n',
  'an unknown escape': '[core]\n\tabbrev = 1\\q\n',
  'a key that starts with a digit': '[core]\n\t1key = x\n',
  'a comment after a bare key': '[core]\n\tkey ; c\n',
  'an underscore in a key': '[core]\n\tke_y = x\n',
  'an empty header': '[]\n\tk = v\n',
  'a subsection across lines': '[core "sub\n"]\n\tk = v\n',
  'an unclosed quote at the end of the file': '[core]\n\tkey = "a\\',
};

let folder = '';

/** git's own reading of a file: [key, value] pairs (value undefined for a bare key), or undefined when git refuses it. */
function gitReads(text: string): Array<[string, string | undefined]> | undefined {
  const file = path.join(folder, 'config');
  fs.writeFileSync(file, text);
  let out: string;
  try {
    // No system or user config, as gitFixtures' git; its refusals are expected, so stderr is kept out of the report.
    out = execFileSync('git', ['config', '--file', file, '--null', '--list'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(`These tests need git, which was not found: ${String(error)}`);
    }
    return undefined;
  }
  return out.split('\0').slice(0, -1).map((item) => {
    const newline = item.indexOf('\n');
    return newline < 0 ? [item, undefined] : [item.slice(0, newline), item.slice(newline + 1)];
  });
}

describe('guard/command/gitConfig', () => {
  before(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-gitconfig-'));
  });
  after(() => fs.rmSync(folder, { recursive: true, force: true }));

  describe('reads keys and values as git does (git config --file --list)', () => {
    before(function () {
      needsWindowsProgram(this, 'git');
    });
    for (const [name, text] of Object.entries(TRICKY)) {
      it(name, () => {
        const expected = gitReads(text);
        assert.ok(expected, 'git refused the file');
        const parsed = parseGitConfig(text);
        assert.ok(parsed.ok, parsed.ok ? '' : `line ${parsed.line}: ${parsed.problem}`);
        assert.deepEqual(parsed.entries.map((entry) => [entry.key, entry.value]), expected);
      });
    }
  });

  describe('refuses what git refuses', () => {
    before(function () {
      needsWindowsProgram(this, 'git');
    });
    for (const [name, text] of Object.entries(REFUSED)) {
      it(name, () => {
        assert.equal(gitReads(text), undefined, 'git read the file');
        assert.equal(parseGitConfig(text).ok, false);
      });
    }
    it('refuses a NUL character and a key before any section, which git would take', () => {
      assert.notEqual(gitReads('[core]\n\tbare = tr\0ue\n'), undefined);
      assert.notEqual(gitReads('bare = true\n'), undefined);
      assert.deepEqual(parseGitConfig('[core]\n\tbare = tr\0ue\n'), { ok: false, line: 2, problem: 'a NUL character' });
      assert.deepEqual(parseGitConfig('bare = true\n'), { ok: false, line: 1, problem: 'a key before any section header' });
    });
  });

  describe('the closed list of harmless settings', () => {
    const verdict = (text: string) => {
      const parsed = parseGitConfig(text);
      assert.ok(parsed.ok);
      return parsed.entries.map((entry) => `${entry.key}:${isHarmlessSetting(entry) ? 'harmless' : 'asks'}`);
    };
    it('takes what git init, a clone and VS Code write, in any case', () => {
      assert.deepEqual(verdict('[core]\n\trepositoryformatversion = 0\n\tFileMode = true\n[remote "origin"]\n\turl = x\n[branch "main"]\n\tmerge = refs/heads/main\n\tvscode-merge-base = origin/main\n'), [
        'core.repositoryformatversion:harmless', 'core.filemode:harmless', 'remote.origin.url:harmless', 'branch.main.merge:harmless', 'branch.main.vscode-merge-base:harmless',
      ]);
    });
    it('asks for keys that run programs, read other files, change the repository\'s format or are unknown', () => {
      const keys = [
        '[core]\n\tworktree = x\n\tfsmonitor = x\n\tpager = x\n\tsshCommand = x\n\thooksPath = x\n\teditor = x\n\tsomethingNew = x\n',
        '[include]\n\tpath = x\n[includeIf "onbranch:x"]\n\tpath = x\n[extensions]\n\tworktreeConfig = true\n',
        '[remote "o"]\n\tuploadpack = x\n\treceivepack = x\n\tproxy = x\n\tvcs = x\n\tpromisor = true\n[protocol "ext"]\n\tallow = always\n',
        '[credential]\n\thelper = x\n[alias]\n\tst = !x\n[diff "d"]\n\tcommand = x\n[filter "f"]\n\tclean = x\n[http]\n\tproxy = x\n[url "x"]\n\tinsteadOf = y\n',
        '[core "sub"]\n\tbare = true\n[remote]\n\turl = x\n[user "x"]\n\tname = y\n',
      ].join('');
      assert.deepEqual(verdict(keys).filter((entry) => entry.endsWith(':harmless')), []);
    });
    it('names the file, the line and the first key that asks, quoting a key with odd characters', () => {
      assert.equal(repositoryConfigProblem('/w/.git/config', new TextEncoder().encode('[core]\n\tbare = false\n[remote "a\u001b[2Jb"]\n\tuploadpack = x\n')), '/w/.git/config line 4 sets "remote.a\\u001b[2Jb.uploadpack", which is not on the list of settings known to be harmless (a repository\'s settings can point git at files outside it or make it run programs)');
      assert.equal(repositoryConfigProblem('/w/.git/config', new TextEncoder().encode('[core]\n\tbare = false\n')), undefined);
    });
  });
});
