import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixturePath } from './paths';

/** One case of the public apply_patch corpus (test/fixtures/apply-patch/scenarios.json, from codex). */
export interface PatchScenario {
  name: string;
  input: Record<string, string>;
  patch: string;
  expected: Record<string, string>;
  expectError: boolean;
}

export function loadPatchScenarios(): PatchScenario[] {
  return JSON.parse(fs.readFileSync(fixturePath('apply-patch/scenarios.json'), 'utf8')) as PatchScenario[];
}

/** The title of a scenario's test. */
export function scenarioTitle(scenario: PatchScenario): string {
  return `${scenario.name}${scenario.expectError ? ' (fails, changes nothing)' : ''}`;
}

export function writeTree(root: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), content);
  }
}

export function readTree(root: string, prefix = ''): Record<string, string> {
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
