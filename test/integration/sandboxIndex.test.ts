// The sandbox's index of secret and protected files in the real extension host: built at
// activation in a trusted window, kept true by its watches, and what a command is planned from.
// A .env created just before a command, or inside a folder the previous command made, is unreadable.
// The same index tells workspace_glob where the .gitignore files are.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { answerNextApproval, invoke, withSettings, workspaceRoot } from './support/tools';
import { CommandId } from '../../src/vscode/commandIds';

const TOOL = 'workspace_run_command';

interface IndexedFolder {
  readonly folder: string;
  readonly state: string;
  readonly reason?: string;
}

describe('the sandbox index (extension host)', function () {
  let root: string;
  let scratch: string;

  before(function () {
    if (!vscode.workspace.isTrusted || process.platform !== 'linux') this.skip();
    root = workspaceRoot();
    scratch = path.join(root, 'index-scratch');
    fs.mkdirSync(scratch, { recursive: true });
  });

  after(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** The index's folders once built: the workspace folder among them, every one ready. */
  async function readyIndex(): Promise<IndexedFolder[]> {
    const folders = (await vscode.commands.executeCommand<IndexedFolder[]>(CommandId.sandboxIndexForTests)) ?? [];
    assert.ok(folders.some((each) => each.folder === root || each.folder === fs.realpathSync(root)), `the workspace folder is indexed: ${JSON.stringify(folders)}`);
    assert.deepEqual(folders.filter((each) => each.state !== 'ready'), [], 'every indexed folder is ready, so commands are planned from it');
    return folders;
  }

  /** Runs an approved command at risk level high (the guard only asks before reading a .env; the sandbox is what hides it). */
  async function approved(command: string): Promise<string> {
    return withSettings({ riskLevel: 'high' }, async () => {
      const answered = answerNextApproval(true);
      const { text } = await invoke(TOOL, { command: `echo approved-ran; ${command}` });
      await answered;
      assert.match(text, /^approved-ran$/m);
      return text;
    });
  }

  it('is built at activation and answers for the workspace folder', async () => {
    await readyIndex();
  });

  it('hides a .env created 10 ms before the command', async () => {
    await readyIndex();
    const folder = path.join(scratch, `fresh-${Date.now()}`);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, '.env'), 'INDEX_CANARY=created-just-before\n');
    await new Promise((resolve) => setTimeout(resolve, 10));
    const text = await approved(`cat ${path.relative(root, folder)}/.env`);
    assert.doesNotMatch(text, /created-just-before/);
    await readyIndex();
  });

  it('hides, from the next command, a .env inside a folder the previous command made', async () => {
    await readyIndex();
    const relative = path.join(path.relative(root, scratch), `made-${Date.now()}`, 'deep');
    // The policy refuses a write to a name it sees as a secret; a program that writes it is only asked about.
    await approved(`mkdir -p ${relative} && python3 -c 'import sys; open(sys.argv[1] + "/.e" + "nv", "w").write("INDEX_CANARY=made-by-a-command\\n")' ${relative}`);
    assert.equal(fs.readFileSync(path.join(root, relative, '.env'), 'utf8'), 'INDEX_CANARY=made-by-a-command\n', 'the first command wrote it');
    const text = await approved(`cat ${relative}/.env`);
    assert.doesNotMatch(text, /made-by-a-command/);
    await readyIndex();
  });

  it('tells a name glob where the .gitignore files are: one written just before the call applies, one deleted no longer does', async () => {
    await readyIndex();
    const folder = path.join(scratch, `rules-${Date.now()}`);
    const relative = path.relative(root, folder).split(path.sep).join('/');
    fs.mkdirSync(path.join(folder, 'inner'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'inner', 'hidden.idxcfg'), '');
    fs.writeFileSync(path.join(folder, 'inner', 'shown.idxcfg'), '');
    const found = async (): Promise<string[]> => (await invoke('workspace_glob', { pattern: '**/*.idxcfg' })).text.split('\n').sort();
    assert.deepEqual(await found(), [`${relative}/inner/hidden.idxcfg`, `${relative}/inner/shown.idxcfg`]);
    fs.writeFileSync(path.join(folder, 'inner', '.gitignore'), 'hidden.idxcfg\n');
    assert.deepEqual(await found(), [`${relative}/inner/shown.idxcfg`]);
    fs.rmSync(path.join(folder, 'inner', '.gitignore'));
    assert.deepEqual(await found(), [`${relative}/inner/hidden.idxcfg`, `${relative}/inner/shown.idxcfg`]);
    await readyIndex();
  });
});
