import * as assert from 'node:assert/strict';
import { isAutoApproved } from '../../../../src/core/changes/autoApprove';
import { fileLocation } from '../../../../src/core/location';
import type { ChangePlan, PlannedFileChange } from '../../../../src/core/ports/changes';

function plan(...files: Partial<PlannedFileChange>[]): ChangePlan {
  return {
    tool: { name: 'workspace_write_file', displayName: 'Write File' },
    summary: 's',
    files: files.map((file) => ({ kind: 'modify', location: fileLocation('/w/x'), shownPath: 'x', ...file })),
  };
}

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
});
