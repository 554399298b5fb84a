import * as assert from 'node:assert/strict';
import { isAutoApproved as autoApproved } from '../../../../src/core/changes/autoApprove';
import { fileLocation } from '../../../../src/core/location';
import type { ChangePlan, PlannedFileChange } from '../../../../src/core/ports/changes';

const FOLDERS = [{ name: 'w', location: fileLocation('/w') }];

/** A plan whose files are where their shown paths say, in the one workspace folder /w (unless given). */
function plan(...files: Partial<PlannedFileChange>[]): ChangePlan {
  return {
    tool: { name: 'workspace_write_file', displayName: 'Write File' },
    summary: 's',
    files: files.map((file) => ({
      kind: 'modify',
      location: fileLocation(`/w/${file.shownPath ?? 'x'}`),
      moveTo: file.shownMoveTo === undefined ? undefined : fileLocation(`/w/${file.shownMoveTo}`),
      shownPath: 'x',
      ...file,
    })),
  };
}

const isAutoApproved = (changes: ChangePlan, globs: Readonly<Record<string, unknown>>): boolean => autoApproved(changes, globs, FOLDERS);

describe('changes/autoApprove', () => {
  it('asks for everything by default', () => {
    assert.equal(isAutoApproved(plan({ shownPath: 'src/a.ts' }), {}), false);
  });

  it('skips the review when a true glob matches and no false glob does', () => {
    assert.equal(isAutoApproved(plan({ shownPath: 'src/a.ts' }), { 'src/**': true }), true);
    assert.equal(isAutoApproved(plan({ shownPath: 'src/.env.ts' }), { 'src/**': true }), true);
  });

  it('asks when a false glob matches too', () => {
    assert.equal(isAutoApproved(plan({ shownPath: 'src/secret.ts' }), { 'src/**': true, '**/secret.ts': false }), false);
  });

  it('asks when any file of the change is not covered', () => {
    assert.equal(isAutoApproved(plan({ shownPath: 'src/a.ts' }, { shownPath: 'lib/b.ts' }), { 'src/**': true }), false);
  });

  it('asks when a move destination is not covered', () => {
    assert.equal(isAutoApproved(plan({ shownPath: 'src/a.ts', shownMoveTo: 'lib/a.ts' }), { 'src/**': true }), false);
  });

  it('always asks about a file a guard rule warned about', () => {
    assert.equal(isAutoApproved(plan({ shownPath: '.vscode/settings.json', alwaysAsk: 'file.execution_config_write: ...' }), { '**': true }), false);
  });

  it('never approves a file outside the workspace folders, whatever ** or an absolute glob matches', () => {
    const home = (shownPath: string): Partial<PlannedFileChange> => ({ shownPath, location: fileLocation(shownPath) });
    assert.equal(isAutoApproved(plan(home('/home/u/.config/git/config')), { '**': true }), false);
    assert.equal(isAutoApproved(plan(home('/home/u/.config/autostart/x.desktop')), { '/home/**': true, '**': true }), false);
    assert.equal(isAutoApproved(plan(home('/w2/a.ts')), { '**': true }), false);
  });

  it('never approves a move out of the workspace, nor a workspace path that a link leads outside', () => {
    assert.equal(isAutoApproved(plan({ shownPath: 'src/a.ts', shownMoveTo: '/tmp/a.ts', moveTo: fileLocation('/tmp/a.ts') }), { '**': true }), false);
    assert.equal(isAutoApproved(plan({ shownPath: 'src/link.ts', location: fileLocation('/home/u/.bashrc') }), { '**': true }), false);
  });

  it('checks the file really written as well as the path named: a link from src/ into docs/ is judged by docs/ too', () => {
    assert.equal(isAutoApproved(plan({ shownPath: 'src/link.md', location: fileLocation('/w/docs/real.md') }), { 'src/**': true }), false);
    assert.equal(isAutoApproved(plan({ shownPath: 'src/link.md', location: fileLocation('/w/docs/real.md') }), { 'src/**': true, 'docs/**': true }), true);
  });
});
