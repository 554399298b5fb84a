// The one table of protected and secret names, and its consumers agreeing name by name over a
// fixture tree: the guard's predicates, the ripgrep globs the sandbox walks with, the Seatbelt
// regexes, and the bubblewrap plan built from a real walk of the tree.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  describeProtected,
  isExecutionConfigPath,
  isGitDirectoryConfig,
  isSecretFile,
  isWorkspaceExecutionConfig,
  seatbeltProtectedPatterns,
  seatbeltSecretPatterns,
  seatbeltTemplatePattern,
  sensitiveLocalPaths,
  workspaceScanGlobs,
} from '../../../../src/core/guard/protectedNames';
import { fileLocation } from '../../../../src/core/location';
import { acquireSandboxLease, type SandboxLease } from '../../../../src/core/sandbox/lease';
import { MachineSandbox } from '../../../../src/core/sandbox/node/machineSandbox';
import { testContext } from '../../support/context';
import { RIPGREP } from '../../support/searchTree';
import { itOnlyOn } from '../../support/platforms';
import { ereToJs } from '../../support/seatbeltEvaluator';

type Expected = 'protected' | 'secret' | 'plain';

/** Every file of the fixture and what each consumer must make of it. */
const FIXTURE: Readonly<Record<string, Expected>> = {
  '.git/config': 'protected',
  '.git/config.worktree': 'protected',
  '.git/commondir': 'protected',
  '.git/hooks/pre-commit': 'protected',
  '.git/info/attributes': 'protected',
  '.git/worktrees/wt/gitdir': 'protected',
  '.git/modules/lib/config': 'protected',
  '.git/modules/lib/hooks/post-checkout': 'protected',
  '.git/modules/vendor/deep/config': 'protected',
  'sub/nested/.git/config': 'protected',
  'sub/nested/.git/hooks/pre-push': 'protected',
  'mirror.git/config': 'protected',
  'mirror.git/hooks/update': 'protected',
  'linked/.git': 'protected',
  '.gitmodules': 'protected',
  'pkg/.gitattributes': 'protected',
  '.vscode/settings.json': 'protected',
  'pkg/.vscode/tasks.json': 'protected',
  // Its own folder: on a disk that ignores case, pkg/.VSCode would be pkg/.vscode.
  'app/.VSCode/launch.json': 'protected',
  'team.code-workspace': 'protected',
  'deep/x/Other.Code-Workspace': 'protected',
  '.env': 'secret',
  '.env.local': 'secret',
  'sub/.ENV.production': 'secret',
  '.envrc': 'secret',
  'web/.npmrc': 'secret',
  '.pypirc': 'secret',
  'ops/.git-credentials': 'secret',
  '.netrc': 'secret',
  '.env.example': 'plain',
  'sub/.env.local.sample': 'plain',
  '.envrc.md': 'plain',
  'src/config': 'plain',
  'docs/hooks/readme.md': 'plain',
  'config/settings.json': 'plain',
  '.git/HEAD': 'plain',
  '.git/objects/ab/cdef': 'plain',
  '.git/refs/heads/main': 'plain',
  '.vscode-notes/todo.md': 'plain',
  'project.code-workspace.bak': 'plain',
  'gitattributes.md': 'plain',
};

/**
 * Where bubblewrap's plan is built here: it works in the host's POSIX paths, over a disk that keeps
 * letter case (on one that ignores it the lease refuses: its mounts cover one spelling).
 */
const PLAN_PLATFORMS: readonly NodeJS.Platform[] = ['linux', 'darwin'];
const PLAN_MECHANISM = "bubblewrap's plan over the host's POSIX paths on a disk that keeps letter case";

function isInsideOrSame(child: string, parent: string): boolean {
  return child === parent || child.startsWith(`${parent}/`);
}

describe('guard/protectedNames', () => {
  let parent = '';
  let root = '';
  let sandbox: MachineSandbox;
  let lease: SandboxLease | undefined;
  let listed: string[] = [];

  before(async () => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-names-'));
    root = path.join(parent, 'ws');
    for (const file of Object.keys(FIXTURE)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), 'x\n');
    }
    // The git directories hold what git looks for, so the walk finds them by their HEAD as well.
    for (const gitDirectory of ['.git/modules/lib', '.git/modules/vendor/deep', 'sub/nested/.git', 'mirror.git']) {
      fs.writeFileSync(path.join(root, gitDirectory, 'HEAD'), 'ref: refs/heads/main\n');
      fs.mkdirSync(path.join(root, gitDirectory, 'objects'), { recursive: true });
      fs.mkdirSync(path.join(root, gitDirectory, 'refs'), { recursive: true });
    }
    sandbox = new MachineSandbox(RIPGREP);
    if (PLAN_PLATFORMS.includes(process.platform)) {
      const ctx = testContext({ root, workspace: { home: path.join(parent, 'home') } });
      lease = await acquireSandboxLease(ctx, sandbox, { sandbox: { kind: 'bubblewrap', executable: '/usr/bin/bwrap' }, network: false, cwd: root, env: {} });
    }
    const args = ['--files', '--hidden', '--no-ignore', '--no-config', '--glob-case-insensitive', ...workspaceScanGlobs().flatMap((glob) => ['--glob', glob]), root];
    // As locations' POSIX paths, the form the guard judges (ripgrep gives C:\x\y on Windows).
    listed = execFileSync(RIPGREP, args, { encoding: 'utf8' }).split('\n').filter(Boolean).map((file) => fileLocation(file).path);
  });
  after(async () => {
    await lease?.release();
    sandbox.dispose();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  for (const [file, expected] of Object.entries(FIXTURE)) {
    const protectedName = expected === 'protected';
    const secret = expected === 'secret';
    it(`${file}: ${expected}, to the guard, ripgrep and Seatbelt alike`, () => {
      // The path as a location's, the form the guard judges and Seatbelt matches (the host's on Linux and macOS).
      const absolute = fileLocation(path.join(root, file)).path;
      // The regexes as Seatbelt reads them (POSIX ERE, test/unit/support/seatbeltEvaluator.ts).
      const seatbeltProtects = seatbeltProtectedPatterns().some((pattern) => ereToJs(pattern).test(absolute));
      const seatbeltHides = seatbeltSecretPatterns().some((pattern) => ereToJs(pattern).test(absolute)) && !ereToJs(seatbeltTemplatePattern()).test(absolute);
      const seen = {
        guardProtects: isWorkspaceExecutionConfig(absolute) && isExecutionConfigPath(absolute),
        guardHides: isSecretFile(absolute),
        ripgrepLists: listed.includes(absolute),
        seatbeltProtects,
        seatbeltHides,
      };
      assert.deepEqual(seen, {
        guardProtects: protectedName,
        guardHides: secret,
        // The walk lists protected and secret files, the .env templates (isSecretFile drops them),
        // and the HEAD of every git directory it then looks into.
        ripgrepLists: protectedName || secret || /^\.env\./i.test(path.basename(file)) || path.basename(file) === 'HEAD',
        seatbeltProtects: protectedName,
        seatbeltHides: secret,
      });
    });

    itOnlyOn(PLAN_PLATFORMS, PLAN_MECHANISM)(`${file}: ${expected}, to bubblewrap as to the guard`, () => {
      const absolute = path.join(root, file);
      const { plan } = lease as SandboxLease;
      const bubblewrapProtects = [...plan.readOnly, ...plan.readOnlyMissing].some((entry) => isInsideOrSame(absolute, entry));
      const bubblewrapHides = plan.hiddenFiles.includes(absolute);
      assert.deepEqual({ bubblewrapProtects, bubblewrapHides }, { bubblewrapProtects: protectedName, bubblewrapHides: secret });
    });
  }

  it('keeps the walk out of git\'s object store and refs', () => {
    assert.equal(listed.some((file) => /\/(objects|refs)\//.test(file)), false, listed.join('\n'));
  });

  it('hides the home folder\'s credential files of common tools and its histories', () => {
    const hidden = sensitiveLocalPaths('/home/u');
    for (const entry of ['.ssh', '.git-credentials', '.config/gh', '.npmrc', '.kube', '.docker/config.json', '.pypirc', '.cargo/credentials.toml', '.bash_history', '.local/share/keyrings']) {
      assert.ok(hidden.includes(`/home/u/${entry}`), entry);
    }
  });

  it('protects a submodule\'s config whose name holds a newline, as Seatbelt\'s POSIX regex does (its . matches a newline)', () => {
    assert.equal(isWorkspaceExecutionConfig('/w/.git/modules/a\nb/config'), true);
    assert.equal(isGitDirectoryConfig('modules/a\nb/hooks/x'), true);
  });

    it('names every row in the sentence the tool description carries', () => {
    for (const name of ['.vscode/', '*.code-workspace', '.gitmodules', '.gitattributes', 'config', 'hooks/', 'commondir', 'worktrees/']) {
      assert.ok(describeProtected().includes(name), name);
    }
  });
});
