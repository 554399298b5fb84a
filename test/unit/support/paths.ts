import * as path from 'node:path';

/** The repository root (this file runs from out/test/unit/support). */
export const REPO_ROOT = path.resolve(__dirname, '../../../..');

/** A path under test/fixtures, where the committed fixture files live. */
export function fixturePath(...segments: string[]): string {
  return path.join(REPO_ROOT, 'test/fixtures', ...segments);
}
