import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { joinLines, splitLines } from '../../../src/core/text/lineEndings';
import { parsePatch } from '../../../src/core/edit/patchParser';
import { planPatch, type PatchFileState, type PlannedPatchOperation } from '../../../src/core/edit/patchPlanner';
import { applyPatchTool } from '../../../src/core/tools/applyPatch';
import { RecordingChangeApplier } from '../support/changeApplier';
import { callTool, testContext } from '../support/context';

const CORPUS = path.resolve(__dirname, '../../../../test/fixtures/apply-patch/scenarios.json');

interface Scenario {
  name: string;
  input: Record<string, string>;
  patch: string;
  expected: Record<string, string>;
  expectError: boolean;
}

function writeTree(root: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), content);
  }
}

function readTree(root: string, prefix = ''): Record<string, string> {
  const tree: Record<string, string> = {};
  for (const entry of fs.readdirSync(path.join(root, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      Object.assign(tree, readTree(root, relative));
    } else {
      tree[relative] = fs.readFileSync(path.join(root, relative), 'utf8');
    }
  }
  return tree;
}

function stateOf(root: string, name: string): PatchFileState {
  const full = path.join(root, name);
  if (!fs.existsSync(full)) {
    return { kind: 'missing' };
  }
  return fs.statSync(full).isDirectory() ? { kind: 'directory' } : { kind: 'file', lines: splitLines(fs.readFileSync(full, 'utf8')) };
}

/** Writes a plan to disk the simplest way: the planner is under test here, not the applier. */
function applyPlan(root: string, plan: readonly PlannedPatchOperation[]): void {
  for (const operation of plan) {
    const full = path.join(root, operation.path);
    if (operation.kind === 'delete') {
      fs.rmSync(full);
    } else {
      const target = operation.kind === 'update' && operation.moveTo ? path.join(root, operation.moveTo) : full;
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, operation.kind === 'add' ? operation.text : joinLines(operation.lines));
      if (target !== full) {
        fs.rmSync(full);
      }
    }
  }
}

/** Parses, plans against the tree and applies; planning throws before anything is written. */
export function runPatch(root: string, patch: string): void {
  const plan = planPatch(parsePatch(patch), { state: (name) => stateOf(root, name), key: (name) => path.resolve(root, name) });
  applyPlan(root, plan);
}

describe('apply_patch public scenarios (codex fixture corpus)', () => {
  const scenarios = JSON.parse(fs.readFileSync(CORPUS, 'utf8')) as Scenario[];
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-patch-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('has all 25 cases', () => assert.equal(scenarios.length, 25));

  for (const scenario of scenarios) {
    it(`${scenario.name}${scenario.expectError ? ' (fails, changes nothing)' : ''}`, () => {
      writeTree(root, scenario.input);
      if (scenario.expectError) {
        assert.throws(() => runPatch(root, scenario.patch), /./);
      } else {
        runPatch(root, scenario.patch);
      }
      assert.deepEqual(readTree(root), scenario.expected);
    });
  }
});

describe('apply_patch public scenarios through the workspace_apply_patch tool', () => {
  const scenarios = JSON.parse(fs.readFileSync(CORPUS, 'utf8')) as Scenario[];
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-patch-tool-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  for (const scenario of scenarios) {
    it(`${scenario.name}${scenario.expectError ? ' (fails, changes nothing)' : ''}`, async () => {
      writeTree(root, scenario.input);
      const applier = new RecordingChangeApplier(true);
      const outcome = callTool(applyPatchTool, { patch: scenario.patch }, testContext({ root, changes: applier }));
      if (scenario.expectError) {
        await assert.rejects(outcome, /./);
        assert.equal(applier.reviewed.length, 0);
      } else {
        await outcome;
      }
      assert.deepEqual(readTree(root), scenario.expected);
    });
  }
});
