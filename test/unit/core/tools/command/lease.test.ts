// The sandbox lease of workspace_run_command is let go of exactly once on every path: a foreground
// run, a spawn that throws, a background start that throws, and a background command (started so,
// or a foreground command that moved there at its timeout) only when it ends, not when the call returns.
import * as assert from 'node:assert/strict';
import type { CommandHost, MountPointLease } from '../../../../../src/core/ports/process';
import { BackgroundCommandRegistry } from '../../../../../src/core/process/backgroundCommands';
import { runCommandTool } from '../../../../../src/core/tools/command/runCommand';
import { backgroundId } from '../../../../support/commandResults';
import { commandWorkspace, TEST_INPUT_TIMING } from '../../../support/commandWorkspace';
import { resultText } from '../../../support/context';
import { invokeTool } from '../../../../../src/core/tools/invoke';
import { systemClock } from '../../../../../src/core/time';

describe('tools/command/lease: one acquire, one release', () => {
  const workspace = commandWorkspace();
  let acquired = 0;
  let released = 0;

  beforeEach(() => {
    acquired = 0;
    released = 0;
  });

  /** The workspace's host with a sandbox that counts its mount point leases, and the runner's parts replaced. */
  function counting(processes: Partial<CommandHost['processes']> = {}, background = new BackgroundCommandRegistry({ clock: systemClock, inputTiming: TEST_INPUT_TIMING })) {
    return workspace.setup({
      background,
      approve: true,
      wrapHost: (host) => ({
        ...host,
        processes: { ...host.processes, ...processes },
        sandbox: {
          availability: (path) => host.sandbox.availability(path),
          listFiles: (folders, globs, token) => host.sandbox.listFiles(folders, globs, token),
          tempDirectory: host.sandbox.tempDirectory,
          privateFolders: host.sandbox.privateFolders,
          emptyDirectory: host.sandbox.emptyDirectory,
          cacheDirectory: host.sandbox.cacheDirectory,
          makeFolders: (folders) => host.sandbox.makeFolders(folders),
          acquireMountPoints: (folders): MountPointLease => {
            acquired += 1;
            const inner = host.sandbox.acquireMountPoints(folders);
            return {
              missing: inner.missing,
              release: () => {
                released += 1;
                return inner.release();
              },
            };
          },
        },
      }),
    });
  }

  it('releases once after a foreground run', async () => {
    const { ctx } = counting();
    const text = resultText(await invokeTool(runCommandTool, { command: 'echo hi' }, ctx));
    assert.match(text, /Exit code: 0/);
    assert.deepEqual([acquired, released], [1, 1]);
  });

  it('releases once when the foreground spawn throws', async () => {
    const { ctx } = counting({ start: () => { throw new Error('spawn E2BIG'); } });
    await assert.rejects(invokeTool(runCommandTool, { command: 'echo hi' }, ctx), /could not be run: spawn E2BIG\. Nothing was started/);
    assert.deepEqual([acquired, released], [1, 1]);
  });

  it('releases once when a background start throws', async () => {
    const { ctx } = counting({ start: () => { throw new Error('spawn EMFILE'); } });
    await assert.rejects(invokeTool(runCommandTool, { command: 'echo hi', background: true, timeout: 1 }, ctx), /EMFILE/);
    assert.deepEqual([acquired, released], [1, 1]);
  });

  it('keeps the lease while a background command runs and releases it once when it ends', async () => {
    const registry = new BackgroundCommandRegistry({ clock: systemClock, inputTiming: TEST_INPUT_TIMING });
    const { ctx } = counting({}, registry);
    const id = backgroundId(resultText(await invokeTool(runCommandTool, { command: 'echo up; exec sleep 300', background: true, wait_for: '^up$' }, ctx)));
    assert.deepEqual([acquired, released], [1, 0]);
    const command = registry.get(id);
    assert.ok(command);
    await command.stop();
    // The release follows the end in the same chain of callbacks; a few turns of the loop are enough.
    for (let turn = 0; turn < 50 && released === 0; turn++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.deepEqual([acquired, released], [1, 1]);
  });

  it('keeps the lease while a foreground command that moved to the background runs, and releases it once when it ends', async () => {
    const registry = new BackgroundCommandRegistry({ clock: systemClock, inputTiming: TEST_INPUT_TIMING });
    const { ctx } = counting({}, registry);
    const text = resultText(await invokeTool(runCommandTool, { command: 'exec sleep 300', timeout: 1 }, ctx));
    assert.match(text, /^Still running after 1 s: moved to the background/);
    assert.deepEqual([acquired, released], [1, 0]);
    const command = registry.get(backgroundId(text));
    assert.ok(command);
    await command.stop();
    for (let turn = 0; turn < 50 && released === 0; turn++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.deepEqual([acquired, released], [1, 1]);
  });

  it('releases once when a foreground command could not move to the full background and was stopped', async () => {
    const registry = new BackgroundCommandRegistry({ clock: systemClock, inputTiming: TEST_INPUT_TIMING });
    const { ctx } = counting({}, registry);
    const limited = { ...ctx, settings: { ...ctx.settings, runCommandMaxBackground: 1 } };
    backgroundId(resultText(await invokeTool(runCommandTool, { command: 'echo up; exec sleep 300', background: true, wait_for: '^up$' }, limited)));
    const text = resultText(await invokeTool(runCommandTool, { command: 'exec sleep 300', timeout: 1 }, limited));
    assert.match(text, /could not move to the background/);
    assert.deepEqual([acquired, released], [2, 1], 'the foreground lease is released; the background one is held');
    await registry.stopAll();
  });
});
