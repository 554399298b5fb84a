// Reading workspace_run_command's results in tests, unit and integration alike.
import * as assert from 'assert';

/** The `id: bgN` line of a background command's result; fails the test when there is none. */
export function backgroundId(text: string): string {
  const id = /^id: (bg\d+)$/m.exec(text)?.[1];
  assert.ok(id, `no id in:\n${text}`);
  return id;
}

/** The stdout section of a result whose stderr section follows it. */
export function stdoutOf(text: string): string {
  return /--- stdout ---\n([\s\S]*?)\n\n--- stderr ---/.exec(text)?.[1] ?? '';
}
