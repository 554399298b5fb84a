// The entry point (package.json "main"): activate() builds the host's services once
// (vscode/composition/services.ts), registers the test-only commands under tests (testHooks.ts),
// then the tools, commands, views and the MCP front (contributions.ts); deactivate() ends the
// commands still running.
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { ActivationTimings } from './vscode/activationTimings';
import { CommandId } from './vscode/commandIds';
import { registerContributions } from './vscode/composition/contributions';
import { buildServices, stopEveryCommand } from './vscode/composition/services';
import { registerTestHooks } from './vscode/composition/testHooks';

/** Every module of the bundle has been evaluated once this line runs (esbuild places the entry's own code last). */
const modulesEvaluated = performance.now();

export function activate(context: vscode.ExtensionContext): void {
  const timings = new ActivationTimings(modulesEvaluated);
  context.subscriptions.push(vscode.commands.registerCommand(CommandId.activationTimings, () => timings.report()));
  const built = buildServices(context, timings);
  if (context.extensionMode === vscode.ExtensionMode.Test) {
    registerTestHooks(context, built);
  }
  registerContributions(context, built, timings);
  timings.activated();
}

/** Commands still running must not outlive the extension host (deactivation, window reload or close). */
export function deactivate(): Promise<void> {
  return stopEveryCommand();
}
