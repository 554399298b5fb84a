// The checkpoint store's background build in the host: started a few seconds after activation in
// a trusted workspace, or when the workspace becomes trusted; built again when the folders,
// checkpoints.* or files.exclude change; stopped when checkpoints are turned off or the window
// closes. Its state is shown in the extension's status bar item (core/checkpoints/storeWarmUp.ts
// decides the rest).
import * as vscode from 'vscode';
import { checkpointFolders, checkpointLimits } from '../../core/checkpoints/callCheckpoint';
import { StoreWarmUp, type WarmUpTarget } from '../../core/checkpoints/storeWarmUp';
import type { CheckpointStore } from '../../core/ports/checkpoints';
import { SETTINGS_SECTION } from '../../core/settings';
import { CommandId } from '../commandIds';
import { readToolSettings, readWorkspaceInfo } from '../host/settings';
import type { GuardStatusBar } from './guardControls';

/** What the store should record now: nothing while checkpoints are off or the workspace is not trusted. */
function currentTarget(): WarmUpTarget | undefined {
  const settings = readToolSettings();
  const workspace = readWorkspaceInfo();
  if (!settings.checkpointsEnabled || !workspace.trusted) {
    return undefined;
  }
  return { folders: checkpointFolders(workspace), limits: checkpointLimits(settings) };
}

/** Starts the warm-up (deferred: nothing runs on the activation path but a timer) and keeps it in step with the workspace. */
export function registerCheckpointWarmUp(store: CheckpointStore, statusBar: GuardStatusBar, testMode: boolean): vscode.Disposable[] {
  const schedule = (delayMs: number, run: () => void) => {
    const timer = setTimeout(run, delayMs);
    return { cancel: () => clearTimeout(timer) };
  };
  const warmUp = new StoreWarmUp(store, currentTarget, schedule, (state) => statusBar.showCheckpoints(state));
  warmUp.refresh();
  const disposables: vscode.Disposable[] = [
    { dispose: () => warmUp.dispose() },
    vscode.workspace.onDidGrantWorkspaceTrust(() => warmUp.refresh()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => warmUp.refresh()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(SETTINGS_SECTION) || event.affectsConfiguration('files.exclude')) {
        warmUp.refresh();
      }
    }),
  ];
  if (testMode) {
    disposables.push(registerBuildForTests(store, statusBar, warmUp));
  }
  return disposables;
}

/** A build the tests hold open, to send a call into it (see CommandId.checkpointBuildForTests). */
function registerBuildForTests(store: CheckpointStore, statusBar: GuardStatusBar, warmUp: StoreWarmUp): vscode.Disposable {
  let release: (() => void) | undefined;
  let state: unknown = { phase: 'idle' };
  return vscode.commands.registerCommand(CommandId.checkpointBuildForTests, async (request?: { action?: string }) => {
    if (request?.action === 'startHeld') {
      const target = currentTarget();
      if (!target || !store.build) {
        return false;
      }
      const hold = new Promise<void>((resolve) => {
        release = resolve;
      });
      const onState = (building: { fraction: number; waiting: number }) => {
        state = { phase: 'building', ...building };
        statusBar.showCheckpoints({ phase: 'building', ...building });
      };
      void store.build(target.folders, target.limits, { hold, onState }).then(
        (notes) => {
          state = { phase: 'ready', notes };
          statusBar.showCheckpoints({ phase: 'ready', notes });
        },
        (error: unknown) => {
          state = { phase: 'failed', message: String(error) };
        },
      );
      return true;
    }
    if (request?.action === 'release') {
      release?.();
      release = undefined;
      return true;
    }
    return { state, warmUp: warmUp.now, statusText: statusBar.text };
  });
}
