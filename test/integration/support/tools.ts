// Helpers for integration suites: invoke tools exactly as Copilot does, answer approvals through
// the extension's commands, and change settings for one test.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { joinTextParts } from '../../../src/core/output/budget';
import { SETTINGS_SECTION } from '../../../src/core/settings';
import type { ApprovalRequest } from '../../../src/core/ports/approval';
import { CommandId } from '../../../src/vscode/commandIds';

export { until } from '../../support/until';

export const REPO = path.resolve(__dirname, '../../../..');
export const FIXTURE_FILES = path.join(REPO, 'test/fixtures/files');

export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the integration host opened no workspace folder');
  return folder.uri.fsPath;
}

export interface InvokeOutcome {
  text: string;
  parts: unknown[];
}

function partText(part: unknown): string | undefined {
  return part && typeof part === 'object' && 'value' in part && typeof (part as { value: unknown }).value === 'string' ? (part as { value: string }).value : undefined;
}

/** Calls a tool through vscode.lm.invokeTool without a chat token, as an extension would. */
export async function invoke(name: string, input: object, token = new vscode.CancellationTokenSource().token, tokenBudget?: number): Promise<InvokeOutcome> {
  // A client that sizes results passes its budget and a token counter, as Copilot does.
  const tokenizationOptions = tokenBudget === undefined ? undefined : { tokenBudget, countTokens: async (text: string) => Math.ceil(text.length / 4) };
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined, tokenizationOptions }, token);
  const parts = result.content as unknown[];
  // A long text comes in several parts split after a line end; they join back as they were.
  const texts = parts.map(partText).filter((text): text is string => text !== undefined);
  return { text: joinTextParts(texts), parts };
}

/** The error message of a call that must fail. */
export async function invokeError(name: string, input: object): Promise<string> {
  try {
    const outcome = await invoke(name, input);
    throw new Error(`expected ${name} to fail, but it returned: ${outcome.text.slice(0, 300)}`);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith(`expected ${name} to fail`)) throw error;
    return error instanceof Error ? error.message : String(error);
  }
}

/** Answers the next approval question through the command, waiting until one is pending. */
export async function answerNextApproval(allow: boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await vscode.commands.executeCommand<boolean>(allow ? CommandId.approve : CommandId.reject)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no approval was requested');
}

/** Sets user settings of the extension for the duration of `body`, then restores them. */
export async function withSettings<T>(values: Record<string, unknown>, body: () => Promise<T>): Promise<T> {
  const config = () => vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const previous = Object.fromEntries(Object.keys(values).map((key) => [key, config().inspect(key)?.globalValue]));
  for (const [key, value] of Object.entries(values)) await config().update(key, value, vscode.ConfigurationTarget.Global);
  try {
    return await body();
  } finally {
    for (const [key, value] of Object.entries(previous)) await config().update(key, value, vscode.ConfigurationTarget.Global);
  }
}

/** Copies a file of test/fixtures/files into the workspace, byte for byte. */
export function copyFixture(name: string, relativeTarget: string): string {
  const target = path.join(workspaceRoot(), relativeTarget);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(path.join(FIXTURE_FILES, name), target);
  return target;
}

/**
 * Saves a screenshot of the workbench as test-output/screenshots/<name>.png: the test runner's
 * Chromium takes it on request. Does nothing where no runner listens (e.g. F5 test runs).
 */
export async function screenshot(name: string, timeoutMs = 15_000): Promise<void> {
  const dir = process.env.WAT_SCREENSHOT_DIR;
  if (!dir) return;
  const png = path.join(dir, `${name}.png`);
  fs.rmSync(png, { force: true });
  fs.writeFileSync(path.join(dir, `${name}.request`), '');
  const deadline = Date.now() + timeoutMs;
  while (!fs.existsSync(png)) {
    if (Date.now() > deadline) throw new Error(`no screenshot ${name} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function pendingApprovals(): Promise<readonly ApprovalRequest[]> {
  return (await vscode.commands.executeCommand<readonly ApprovalRequest[]>(CommandId.listPendingApprovals)) ?? [];
}

/**
 * Calls a tool as an unattended agent would, with a user who approves nothing: every question it
 * asks is recorded and answered no. Returns the questions and how the call ended.
 */
export async function unattended(name: string, input: object): Promise<{ questions: ApprovalRequest[]; text?: string; error?: string }> {
  const questions: ApprovalRequest[] = [];
  let done = false;
  const call = invoke(name, input).then(
    (outcome) => ({ text: outcome.text }),
    (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
  );
  void call.finally(() => {
    done = true;
  });
  while (!done) {
    const waiting = await pendingApprovals();
    if (waiting.length > 0) {
      questions.push(...waiting);
      await vscode.commands.executeCommand(CommandId.reject);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { questions, ...(await call) };
}
