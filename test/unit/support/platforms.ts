// The one way a unit test is skipped on a platform, always with its reason: a Linux-only mechanism
// (bubblewrap, /proc, POSIX modes) or a Windows program that wine lacks (PowerShell, Git for
// Windows). Mocha's reporters show such a test as pending, never as passed, and the wine pass
// (scripts/test-host/wine-unit.mjs) prints each reason with its count; a skip without a reason
// fails that pass.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Context, Suite, Test } from 'mocha';

type Platform = NodeJS.Platform;
/** A test or suite, where the wine reporter looks for the reason. */
type Skippable = (Test | Suite) & { skipReason?: string };

/** The reason a test needing `mechanism` cannot run on this platform, or undefined when it can. */
function platformReason(platforms: Platform | readonly Platform[], mechanism: string): string | undefined {
  const list: readonly Platform[] = typeof platforms === 'string' ? [platforms] : platforms;
  return list.includes(process.platform) ? undefined : `${mechanism} (${list.join(', ')} only)`;
}

/** `describe` whose tests run on `platforms` only; elsewhere each is skipped naming `mechanism`. */
export function describeOnlyOn(platforms: Platform | readonly Platform[], mechanism: string): (title: string, body: (this: Suite) => void) => Suite {
  const reason = platformReason(platforms, mechanism);
  return (title, body) => {
    if (reason === undefined) {
      return describe(title, body);
    }
    const suite: Skippable = describe.skip(title, body) as Suite;
    suite.skipReason = reason;
    return suite as Suite;
  };
}

/** `it` that runs on `platforms` only; elsewhere the test is skipped naming `mechanism`. */
export function itOnlyOn(platforms: Platform | readonly Platform[], mechanism: string): (title: string, body: (this: Context) => unknown) => Test {
  const reason = platformReason(platforms, mechanism);
  return (title, body) => {
    if (reason === undefined) {
      return it(title, body as never);
    }
    const test: Skippable = it.skip(title, body as never);
    test.skipReason = reason;
    return test as Test;
  };
}

/** Inside a test or hook: skips it (a `before` hook: its whole suite) with the reason. */
function skipWith(context: Context, reason: string): never {
  const runnable = context.test as (Test & { type?: string }) | undefined;
  // In a hook, mocha gives the hook as the test; its suite is what the skip covers.
  const target: Skippable | undefined = (runnable?.type as string | undefined) === 'hook' ? runnable?.parent : runnable;
  if (target) {
    target.skipReason = reason;
  }
  context.skip();
}

/** Inside a test or hook: skips it unless this is one of `platforms`, naming `mechanism`. */
export function skipUnlessOn(context: Context, platforms: Platform | readonly Platform[], mechanism: string): void {
  const reason = platformReason(platforms, mechanism);
  if (reason !== undefined) {
    skipWith(context, reason);
  }
}

/**
 * True in the unit pass under wine (scripts/test-host/wine-unit.mjs sets WAT_WINE_PASS=1), where
 * Windows programs that wine does not have (PowerShell, Git for Windows) cannot be installed.
 */
export const underWine = process.platform === 'win32' && process.env.WAT_WINE_PASS === '1';

/**
 * Inside a test or hook on Windows under wine: skips it, naming the Windows program it needs that
 * wine lacks (`pwsh`, `git`). Elsewhere it does nothing, and the test fails naming the program when
 * it is missing (support/programs.ts), as every test that needs a program does.
 */
export function needsWindowsProgram(context: Context, program: 'pwsh' | 'powershell' | 'git'): void {
  if (underWine) {
    const names = { pwsh: 'PowerShell (pwsh.exe)', powershell: 'Windows PowerShell (powershell.exe)', git: 'Git for Windows (git.exe)' };
    skipWith(context, `needs ${names[program]}, which wine lacks`);
  }
}

/**
 * Inside a test or hook under wine only: skips it, naming what wine does not do that Windows does
 * (measured, with the symptom), so the test still runs and counts on a real Windows.
 */
export function wineLacks(context: Context, what: string): void {
  if (underWine) {
    skipWith(context, `wine 8 lacks ${what}`);
  }
}

/** Whether a symbolic link made here can be seen afterwards, measured once (under wine only). */
let symlinksWork: boolean | undefined;

function canMakeSymlinks(): boolean {
  if (symlinksWork === undefined) {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-symlink-probe-'));
    try {
      fs.writeFileSync(path.join(folder, 'target'), '');
      fs.symlinkSync('target', path.join(folder, 'link'));
      symlinksWork = fs.lstatSync(path.join(folder, 'link')).isSymbolicLink();
    } catch {
      symlinksWork = false;
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  }
  return symlinksWork;
}

/**
 * Inside a test or hook that makes symbolic links, under wine: skips it when a link made there does
 * not exist afterwards (wine 8's CreateSymbolicLinkW reports success and makes nothing, so a test
 * would judge a plain missing file). Measured, so a wine that makes links runs the test.
 */
export function needsSymlinks(context: Context): void {
  if (underWine && !canMakeSymlinks()) {
    wineLacks(context, 'symbolic links (fs.symlinkSync returns, and no link is there: lstat gives ENOENT)');
  }
}
