// The workspace folder on a real volume that ignores letter case (exFAT through exfat-fuse, where .ci/run
// and the runner put the `case-insensitive` pass's workspace): `.GIT/hooks/pre-commit`, `.VSCODE/tasks.json`
// and `.ENV` are `.git/hooks/pre-commit`, `.vscode/tasks.json` and `.env` there, and every tool treats them so.
// Only that pass runs this file (test/integration/index.ts), and it runs only files named *.volume.test.ts.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { answerNextApproval, invoke, invokeError, unattended, workspaceRoot } from './support/tools';

describe('a workspace folder on a volume that ignores letter case (extension host)', function () {
  let root: string;

  before(function () {
    if (process.platform !== 'linux') this.skip();
    root = workspaceRoot();
    fs.writeFileSync(path.join(root, 'case-probe'), '');
    const insensitive = fs.existsSync(path.join(root, 'CASE-PROBE'));
    fs.rmSync(path.join(root, 'case-probe'));
    assert.ok(insensitive, `the case-insensitive pass's workspace ${root} is on a volume that keeps letter case apart`);
    fs.mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    fs.writeFileSync(path.join(root, '.env'), 'API_TOKEN=exfat-canary\n');
  });

  it('runs trusted, with the workspace folder as the tools see it', () => {
    assert.equal(vscode.workspace.isTrusted, true);
    assert.equal(vscode.workspace.workspaceFolders?.[0].uri.fsPath, root);
  });

  it('denies reading .ENV, which is the .env file, without leaking it', async () => {
    const message = await invokeError('workspace_read_file', { file_path: '.ENV' });
    assert.match(message, /^Denied by file\.sensitive_path_read: /);
    assert.ok(!message.includes('exfat-canary'), message);
  });

  it('refuses to write .GIT/hooks/pre-commit, which is the repository\'s hook', async () => {
    const outcome = await unattended('workspace_write_file', { file_path: '.GIT/hooks/pre-commit', content: '#!/bin/sh\ntouch /tmp/pwned\n' });
    assert.ok(outcome.error !== undefined || outcome.questions.length > 0, JSON.stringify(outcome));
    assert.match(`${outcome.error ?? ''} ${outcome.questions.map((question) => `${question.rule ?? ''} ${question.detail}`).join(' ')}`, /\.git folder|protected_file_overwrite|execution_config/);
    assert.equal(fs.existsSync(path.join(root, '.git', 'hooks', 'pre-commit')), false);
  });

  it('reviews .VSCODE/tasks.json as execution config, which .vscode/tasks.json is', async () => {
    const outcome = await unattended('workspace_write_file', { file_path: '.VSCODE/tasks.json', content: '{"version": "2.0.0", "tasks": []}\n' });
    assert.ok(outcome.questions.some((question) => `${question.rule ?? ''} ${question.detail}`.includes('file.execution_config_write')), JSON.stringify(outcome));
    assert.equal(fs.existsSync(path.join(root, '.vscode', 'tasks.json')), false);
  });

  it('runs no command unasked: `ls` asks the extension\'s own question, which names the volume and the spellings', async () => {
    const outcome = await unattended('workspace_run_command', { command: 'ls' });
    assert.equal(outcome.questions.length, 1, JSON.stringify(outcome));
    assert.match(outcome.questions[0].detail, /is on a volume that ignores letter case \(or gives names other spellings\), .*another spelling \(\.GIT\/hooks, \.ENV\) reaches them/);
    assert.match(outcome.error ?? '', /declined/);
  });

  it('runs an approved command with the Sandbox: line saying names are kept under one spelling', async () => {
    const run = invoke('workspace_run_command', { command: 'ls -a' });
    await answerNextApproval(true);
    const { text } = await run;
    assert.match(text, /^Sandbox: bubblewrap: .*; protected and secret names kept under one spelling only \(/m);
    assert.match(text, /^\.env$/m);
  });
});
