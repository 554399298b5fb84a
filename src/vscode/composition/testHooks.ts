// Commands registered only when the extension runs under tests (ExtensionMode.Test): none is in the
// palette or the manifest, and none exists in a user's window.
import * as vscode from 'vscode';
import { TOOLS } from '../../core/tools';
import { CommandId } from '../commandIds';
import { registerCoreInvokeForTests } from '../tools/registration';
import { recoverHeldChanges, registerHeldQuestionsForTests } from '../ui/heldChanges';
import type { WindowServices } from './services';

/** Registers the test-only commands (the caller checks the extension mode). */
export function registerTestHooks(context: vscode.ExtensionContext, { sandbox, services, activity }: WindowServices): void {
  context.subscriptions.push(
    // Tests stand local servers in for hosts: names resolve to 127.0.0.x in the proxy only.
    vscode.commands.registerCommand(CommandId.mapNetworkNamesForTests, (names?: unknown) => {
      const entries = names !== null && typeof names === 'object' ? Object.entries(names).filter((entry): entry is [string, string] => typeof entry[1] === 'string') : [];
      sandbox.network?.mapNames(Object.fromEntries(entries));
      return sandbox.network !== undefined;
    }),
    vscode.commands.registerCommand(CommandId.sandboxIndexForTests, async () => {
      await sandbox.scanIndex?.settled();
      return sandbox.scanIndex?.status() ?? [];
    }),
    // The host bench and its test compare core's invokeTool with vscode.lm.invokeTool in this process.
    registerCoreInvokeForTests(TOOLS, services),
    // Modal dialogs cannot show in tests: the held changes' questions are answered here.
    registerHeldQuestionsForTests(),
    vscode.commands.registerCommand(CommandId.recoverHeldChangesForTests, () => recoverHeldChanges(activity, sandbox.staging?.root)),
  );
}
