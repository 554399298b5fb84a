// workspace_run_command in the real bubblewrap sandbox, played by a hostile model whose commands
// the user approved: execution config at any depth, renaming protected folders away, credentials
// of common tools, the session's sockets, a command line the kernel refuses, and a program planted
// on PATH. Each case builds its workspace afresh.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { BackgroundCommandRegistry } from '../../../../../src/core/process/backgroundCommands';
import type { ToolSettings } from '../../../../../src/core/settings';
import { commandConfirmation } from '../../../../../src/core/tools/command/approve';
import { commandOutputTool } from '../../../../../src/core/tools/command/commandOutput';
import { runCommandTool } from '../../../../../src/core/tools/command/runCommand';
import { commandWorkspace, TEST_INPUT_TIMING } from '../../../support/commandWorkspace';
import { resultText } from '../../../support/context';
import { RIPGREP } from '../../../support/searchTree';
import { backgroundId } from '../../../../support/commandResults';
import { until } from '../../../../support/until';
import { invokeTool } from '../../../../../src/core/tools/invoke';
import { systemClock } from '../../../../../src/core/time';

describe('tools/runCommand in the sandbox, against a hostile approved command', () => {
  const workspace = commandWorkspace();
  let home = '';
  let root = '';
  /** Outside /tmp, which the sandbox replaces anyway: hiding them must be what keeps them unseen. */
  const outsideTmp = (prefix: string): string => fs.mkdtempSync(path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : os.homedir(), prefix));

  before(() => {
    home = outsideTmp('wat-home-');
  });
  after(() => fs.rmSync(home, { recursive: true, force: true }));

  /** Makes `file` (workspace-relative) with `text`, and its folders. */
  function write(file: string, text: string): void {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  function read(file: string): string | undefined {
    return fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), 'utf8') : undefined;
  }
  /** A repository the way git makes one: HEAD, objects, refs, config, hooks. */
  function repository(gitDirectory: string): void {
    write(`${gitDirectory}/HEAD`, 'ref: refs/heads/main\n');
    write(`${gitDirectory}/config`, '[core]\n\trepositoryformatversion = 0\n');
    fs.mkdirSync(path.join(root, gitDirectory, 'objects'), { recursive: true });
    fs.mkdirSync(path.join(root, gitDirectory, 'refs', 'heads'), { recursive: true });
    write(`${gitDirectory}/hooks/pre-commit.sample`, '#!/bin/sh\n');
  }

  beforeEach(() => {
    root = workspace.root;
    for (const entry of fs.readdirSync(root)) {
      fs.rmSync(path.join(root, entry), { recursive: true, force: true });
    }
    for (const entry of fs.readdirSync(home)) {
      fs.rmSync(path.join(home, entry), { recursive: true, force: true });
    }
    repository('.git');
  });

  /**
   * Runs `script` the way a hostile model would, hidden from the command policy in a script file
   * (`sh attack.sh` asks, as every interpreter does); the user approves, so the sandbox is all that
   * stands in the way. The result must show the script ran.
   */
  async function attack(script: string, options: { environment?: Record<string, string | undefined> } = {}) {
    write('attack.sh', `${script}\necho attack-ran\n`);
    const outcome = await run('sh attack.sh', options);
    assert.equal(outcome.approver.asked.length, 1, outcome.text);
    assert.match(outcome.text, /^Exit code: \d+[\s\S]*attack-ran/, outcome.text);
    return outcome;
  }

  /** Runs a call with the fake home as the guard's home, approving when asked unless told otherwise. */
  async function run(command: string, options: { approve?: boolean; settings?: Partial<ToolSettings>; environment?: Record<string, string | undefined>; background?: boolean } = {}) {
    const { ctx, approver } = workspace.setup({ approve: options.approve ?? true, settings: options.settings, environment: options.environment, background: options.background ? new BackgroundCommandRegistry({ clock: systemClock, inputTiming: TEST_INPUT_TIMING }) : undefined });
    const call = { ...ctx, workspace: { ...ctx.workspace, home } };
    const input = options.background ? { command, background: true, timeout: 60 } : { command };
    const text = await invokeTool(runCommandTool, input, call).then(resultText, (error: Error) => `ERROR ${error.message}`);
    return { text, approver };
  }

  describe('execution config at any depth', () => {
    it('keeps a nested repository\'s .git/config and hooks read-only', async () => {
      repository('libs/nested/.git');
      await attack('echo "[core] fsmonitor = evil" >> libs/nested/.git/config; echo evil > libs/nested/.git/hooks/post-checkout');
      assert.doesNotMatch(read('libs/nested/.git/config') ?? '', /evil/);
      assert.equal(read('libs/nested/.git/hooks/post-checkout'), undefined);
    });

    it('binds an empty hooks folder where a nested repository has none, and removes it after', async () => {
      repository('libs/nested/.git');
      fs.rmSync(path.join(root, 'libs/nested/.git/hooks'), { recursive: true });
      await attack('mkdir -p libs/nested/.git/hooks; echo evil > libs/nested/.git/hooks/pre-commit');
      assert.equal(fs.existsSync(path.join(root, 'libs/nested/.git/hooks')), false);
    });

    it('keeps a submodule\'s git directory (.git/modules/<name>) config and hooks read-only', async () => {
      repository('.git/modules/vendor/lib');
      await attack('echo "[core] pager = evil" >> .git/modules/vendor/lib/config; echo evil > .git/modules/vendor/lib/hooks/pre-commit');
      assert.doesNotMatch(read('.git/modules/vendor/lib/config') ?? '', /evil/);
      assert.equal(read('.git/modules/vendor/lib/hooks/pre-commit'), undefined);
    });

    it('keeps a repository one command created read-only to the next', async () => {
      const made = await attack('git init -q made');
      assert.match(made.text, /- created made\/\.git\/config: /);
      await attack('echo "[core] fsmonitor = evil" >> made/.git/config; echo evil > made/.git/hooks/pre-commit');
      assert.doesNotMatch(read('made/.git/config') ?? '', /evil/);
      assert.equal(read('made/.git/hooks/pre-commit'), undefined);
    });

    it('keeps .gitmodules and a subfolder\'s .gitattributes read-only', async () => {
      write('.gitmodules', '[submodule "a"]\n\tpath = a\n');
      write('src/deep/.gitattributes', '*.txt text\n');
      await attack('echo "\turl = ext::sh -c evil" >> .gitmodules; echo "* filter=evil" >> src/deep/.gitattributes');
      assert.doesNotMatch(read('.gitmodules') ?? '', /evil/);
      assert.equal(read('src/deep/.gitattributes'), '*.txt text\n');
    });

    it('finds a bare repository by what it holds, whatever its name, and keeps its config and hooks read-only', async () => {
      repository('mirrors/upstream');
      await attack('echo "[core] fsmonitor = evil" >> mirrors/upstream/config; echo evil > mirrors/upstream/hooks/post-update');
      assert.doesNotMatch(read('mirrors/upstream/config') ?? '', /evil/);
      assert.equal(read('mirrors/upstream/hooks/post-update'), undefined);
    });

    it('keeps what points git elsewhere read-only: a .git file, commondir, a linked worktree\'s folder, config.worktree, info/attributes', async () => {
      write('linked/.git', 'gitdir: ../.git/worktrees/linked\n');
      write('.git/worktrees/linked/commondir', '../..\n');
      write('.git/worktrees/linked/HEAD', 'ref: refs/heads/other\n');
      write('.git/config.worktree', '[core]\n');
      write('.git/info/attributes', '');
      await attack('echo "gitdir: /tmp/evil" > linked/.git; echo /tmp/evil > .git/worktrees/linked/commondir; echo evil >> .git/config.worktree; echo "* filter=evil" > .git/info/attributes');
      assert.equal(read('linked/.git'), 'gitdir: ../.git/worktrees/linked\n');
      assert.equal(read('.git/worktrees/linked/commondir'), '../..\n');
      assert.equal(read('.git/config.worktree'), '[core]\n');
      assert.equal(read('.git/info/attributes'), '');
    });

    it('keeps a subfolder\'s .vscode read-only', async () => {
      write('app/.vscode/tasks.json', '{}\n');
      await attack('echo evil > app/.vscode/tasks.json; echo {} > app/.vscode/settings.json');
      assert.equal(read('app/.vscode/tasks.json'), '{}\n');
      assert.equal(read('app/.vscode/settings.json'), undefined);
    });
  });

  describe('renaming protected folders away', () => {
    it('cannot move .git away and make a new one in its place', async () => {
      await attack('mv .git .git-orig && mkdir .git && echo "[core] fsmonitor = evil" > .git/config');
      assert.equal(fs.existsSync(path.join(root, '.git-orig')), false);
      assert.doesNotMatch(read('.git/config') ?? '', /evil/);
    });

    it('cannot rename the folder that holds a nested repository and make the repository again', async () => {
      repository('a/b/nested/.git');
      await attack('mv a a2; mv a/b a/b2; mv a/b/nested a/b/n2; mkdir -p a/b/nested/.git && echo "[core] fsmonitor = evil" > a/b/nested/.git/config');
      assert.deepEqual(fs.readdirSync(root).sort(), ['.git', 'a', 'attack.sh']);
      assert.doesNotMatch(read('a/b/nested/.git/config') ?? '', /evil/);
    });

    it('cannot remove a repository\'s config and hooks with rm -rf .git', async () => {
      await attack('rm -rf .git');
      assert.match(read('.git/config') ?? '', /repositoryformatversion/);
      assert.equal(read('.git/hooks/pre-commit.sample'), '#!/bin/sh\n');
    });

    it('cannot move .vscode away and make a new one', async () => {
      write('.vscode/settings.json', '{}\n');
      await attack('mv .vscode .vscode-x; rm -rf .vscode; mkdir -p .vscode; echo \'{"evil": 1}\' > .vscode/tasks.json');
      assert.equal(fs.existsSync(path.join(root, '.vscode-x')), false);
      assert.deepEqual(fs.readdirSync(path.join(root, '.vscode')), ['settings.json']);
    });

    it('cannot replace a *.code-workspace by moving another file onto it', async () => {
      write('team.code-workspace', '{}\n');
      const { text } = await attack('echo \'{"settings": {"evil": 1}}\' > x.json; mv x.json team.code-workspace; mv team.code-workspace y');
      assert.equal(read('team.code-workspace'), '{}\n');
      assert.match(text, /cannot move 'x\.json' to 'team\.code-workspace': Device or resource busy/);
    });
  });

  describe('what it cannot stop, it reports', () => {
    it('names a new *.code-workspace the command made, and why it matters', async () => {
      const { text } = await attack('echo "{}" > evil.code-workspace');
      assert.match(text, /Warning: the command created execution config[^\n]*\n- created evil\.code-workspace: a workspace's folders, settings and tasks/);
    });

    it('names the execution config a background command made, in its report once it has ended', async () => {
      const { ctx } = workspace.setup({ approve: true, background: new BackgroundCommandRegistry({ clock: systemClock, inputTiming: TEST_INPUT_TIMING }) });
      const call = { ...ctx, workspace: { ...ctx.workspace, home } };
      const started = resultText(await invokeTool(runCommandTool, { command: 'echo started; sleep 0.5; echo "{}" > evil.code-workspace', background: true, wait_for: 'started', timeout: 30 }, call));
      assert.doesNotMatch(started, /Warning/);
      const output = resultText(await invokeTool(commandOutputTool, { id: backgroundId(started), timeout: 30 }, call));
      assert.match(output, /^The command has ended \(exited 0\)/);
      assert.match(output, /Warning: the command created execution config[^\n]*\n- created evil\.code-workspace: a workspace's folders, settings and tasks/);
    });

    it('names a new repository the command made', async () => {
      const { text } = await attack('mkdir -p tool/.git/objects tool/.git/refs && echo "ref: refs/heads/main" > tool/.git/HEAD && echo "[core]" > tool/.git/config');
      assert.match(text, /- created tool\/\.git\/config: the repository's configuration/);
    });

    it('names a repository\'s config and hook a command outside the sandbox changed, and puts them on the call\'s record', async () => {
      repository('libs/nested/.git');
      repository('mirror');
      write('attack.sh', 'echo "[core] fsmonitor = evil" >> libs/nested/.git/config; echo evil > mirror/hooks/pre-commit.sample; echo attack-ran\n');
      const changes: unknown[] = [];
      const { ctx } = workspace.setup({ approve: true, settings: { runCommandSandbox: 'off' } });
      const call = { ...ctx, workspace: { ...ctx.workspace, home }, call: { ...ctx.call, observer: { onGuardVerdict: () => undefined, onChangePlanned: () => undefined, onExecutionConfigChanged: (entries: readonly unknown[]) => changes.push(...entries) } } };
      const text = resultText(await invokeTool(runCommandTool, { command: 'sh attack.sh' }, call));
      assert.match(text, /attack-ran/);
      assert.match(text, /Warning: the command changed execution config[^\n]*\n- changed libs\/nested\/\.git\/config: the repository's configuration[^\n]*\n- changed mirror\/hooks\/pre-commit\.sample: /);
      assert.deepEqual(changes, [{ path: 'libs/nested/.git/config', change: 'changed' }, { path: 'mirror/hooks/pre-commit.sample', change: 'changed' }]);
    });

    it('says nothing when the command made no execution config', async () => {
      const { text } = await run('echo made > made.txt');
      assert.doesNotMatch(text, /Warning/);
    });
  });

  describe('credentials of common tools', () => {
    const credentials = ['.git-credentials', '.config/git/credentials', '.config/gh/hosts.yml', '.npmrc', '.kube/config', '.docker/config.json', '.pypirc', '.cargo/credentials.toml', '.bash_history', '.local/share/keyrings/login.keyring'];

    for (const file of credentials) {
      it(`hides ~/${file} from an approved command`, async () => {
        fs.mkdirSync(path.dirname(path.join(home, file)), { recursive: true });
        fs.writeFileSync(path.join(home, file), 'TOKEN-IN-HOME\n');
        const { text } = await attack(`cat ${path.join(home, file)}`);
        assert.doesNotMatch(text, /TOKEN-IN-HOME/);
      });
    }

    it('hides .envrc, .npmrc, .pypirc and .git-credentials in the workspace, at any depth', async () => {
      for (const file of ['.envrc', 'web/.npmrc', 'py/.pypirc', 'ops/.git-credentials']) {
        write(file, 'TOKEN-IN-WORKSPACE\n');
      }
      const { text } = await attack('cat .envrc web/.npmrc py/.pypirc ops/.git-credentials');
      assert.doesNotMatch(text, /TOKEN-IN-WORKSPACE/);
    });

    it('does not run cat .envrc .npmrc without asking', async () => {
      write('.envrc', 'export TOKEN=x\n');
      write('.npmrc', '//registry.npmjs.org/:_authToken=x\n');
      const { text, approver } = await run('cat .envrc .npmrc', { approve: false });
      assert.equal(approver.asked.length, 0);
      assert.match(text, /^ERROR The command was refused by the command policy:[\s\S]*file\.sensitive_path_read/);
    });
  });

  describe('the session\'s sockets', () => {
    let outside = '';
    const servers: net.Server[] = [];
    let connections = 0;

    /** A listening unix socket outside /tmp (the sandbox replaces /tmp anyway). */
    async function listen(socketPath: string): Promise<void> {
      fs.mkdirSync(path.dirname(socketPath), { recursive: true });
      const server = net.createServer((socket) => {
        connections += 1;
        socket.end('SOCKET-REACHED\n');
      });
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    }
    const connect = (variable: string, suffix = ''): string =>
      `${process.execPath} -e "require('net').connect(process.env.${variable} + '${suffix}').on('data', (d) => process.stdout.write(String(d))).on('error', (e) => console.log('no connection: ' + e.code))"`;

    beforeEach(() => {
      outside = outsideTmp('wat-sockets-');
      connections = 0;
    });
    afterEach(async () => {
      await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
      fs.rmSync(outside, { recursive: true, force: true });
    });

    it('empties $XDG_RUNTIME_DIR, so the session bus cannot be reached', async () => {
      const runtime = path.join(outside, 'run-user');
      await listen(path.join(runtime, 'bus'));
      const { text } = await attack(connect('XDG_RUNTIME_DIR', '/bus'), { environment: { ...process.env, XDG_RUNTIME_DIR: runtime } });
      assert.match(text, /no connection: E/);
      assert.equal(connections, 0);
    });

    it('hides the ssh agent\'s socket at $SSH_AUTH_SOCK', async () => {
      const agent = path.join(outside, 'ssh-agent', 'agent.sock');
      await listen(agent);
      const { text } = await attack(connect('SSH_AUTH_SOCK'), { environment: { ...process.env, SSH_AUTH_SOCK: agent } });
      assert.match(text, /no connection: E/);
      assert.equal(connections, 0);
    });

    it('empties /run, where the system bus and every user\'s runtime folder live', async () => {
      const { text } = await attack('ls -A /run');
      assert.doesNotMatch(text, /^(dbus|user)$/m);
    });

    it('still resolves host names for an approved command where resolv.conf lies under /run', async () => {
      const { text } = await run(`${process.execPath} -e "require('dns').lookup('localhost', (e, a) => console.log(e ? 'failed ' + e.code : 'resolved ' + a))"`);
      assert.match(text, /resolved /);
    });
  });

  describe('a command line the kernel cannot take', () => {
    it('is refused before anyone is asked, with what to do instead', async () => {
      const { text, approver } = await run(`echo ${'a'.repeat(140_000)}`, { approve: false });
      assert.equal(approver.asked.length, 0);
      assert.match(text, /^ERROR The command line is 140005 bytes; the system starts no command line longer than 131071 bytes/);
      assert.match(text, /workspace_write_file/);
    });

    it('gets no chat confirmation either, since run refuses it before anything', async () => {
      const { ctx } = workspace.setup();
      assert.equal(await commandConfirmation({ command: `rm -f ${'a'.repeat(140_000)}` }, ctx), undefined);
    });

    it('leaves nothing behind: the next command finds no .vscode in a workspace that had none', async () => {
      await run(`echo ${'a'.repeat(140_000)}`);
      const { text } = await run('ls -A', { approve: false });
      assert.match(text, /^Exit code: 0/);
      assert.equal(fs.existsSync(path.join(root, '.vscode')), false);
    });
  });

  describe('mount points of a command', () => {
    it('are removed when a background command ends', async () => {
      const { text } = await run('echo started', { background: true });
      assert.match(text, /ended/);
      await until(() => !fs.existsSync(path.join(root, '.vscode')), 'the .vscode mount point to go');
    });
  });

  describe('programs found by name', () => {
    // ripgrep must be found by name on a PATH entry no command can write: the repository may be
    // cloned under /tmp (CI), whose entries are dropped from PATH and which the sandbox replaces,
    // so a copy lives in the home folder for these tests.
    let ripgrepFolder = '';
    before(() => {
      ripgrepFolder = fs.mkdtempSync(path.join(os.homedir(), '.wat-test-rg-'));
      fs.copyFileSync(RIPGREP, path.join(ripgrepFolder, 'rg'));
      fs.chmodSync(path.join(ripgrepFolder, 'rg'), 0o755);
    });
    after(() => fs.rmSync(ripgrepFolder, { recursive: true, force: true }));
    beforeEach(() => {
      write('bin/gzip', `#!/bin/sh\necho planted > ${path.join(root, 'PLANTED')}\necho PLANTED-GZIP-RAN\n`);
      fs.chmodSync(path.join(root, 'bin/gzip'), 0o755);
      fs.writeFileSync(path.join(root, 'notes.txt'), 'needle in the archive\n');
      execFileSync('gzip', [path.join(root, 'notes.txt')]);
    });
    const environment = (): Record<string, string | undefined> => ({ ...process.env, PATH: `${path.join(root, 'bin')}:${ripgrepFolder}:${process.env.PATH ?? ''}` });

    it('never come from a workspace folder on PATH: rg -z runs the system gzip, not a planted one', async () => {
      const { text, approver } = await run('rg -z needle notes.txt.gz', { approve: false, environment: environment() });
      assert.equal(approver.asked.length, 0, text);
      assert.match(text, /needle in the archive/);
      assert.doesNotMatch(text, /PLANTED-GZIP-RAN/);
      assert.equal(fs.existsSync(path.join(root, 'PLANTED')), false);
    });

    it('never come from a workspace folder on PATH outside the sandbox either', async () => {
      const { text } = await run('rg -z needle notes.txt.gz', { approve: false, environment: environment(), settings: { runCommandSandbox: 'off' } });
      assert.match(text, /needle in the archive/);
      assert.equal(fs.existsSync(path.join(root, 'PLANTED')), false);
    });
  });
});
