// @ts-check
// The floor check of src, from outside the lint: prints the folder-level import graph of src/core
// (each folder, its floor, the folders it imports) and the folders that import each other in a
// circle, which must be none. With --inject it also checks that the lint holds the floors: on a
// temporary copy of the project (never the project itself), it plants one upward import for every
// pair of floors of src/core and src/vscode, one for every pair of roots of src, and one between two
// siblings of a floor that the table does not list, then lints the planted files with the project's
// own ESLint config (without type information, which no layering rule reads) and expects each to
// be refused by layering/layers.
//
// usage: node scripts/floors.mjs [project folder, default .] [--inject]
// Exit status 1 when there is a cycle or the lint accepts a plant.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const inject = args.includes('--inject');
const project = path.resolve(args.find((arg) => !arg.startsWith('--')) ?? '.');

/** @typedef {import('../eslint/layering.mjs').Floors} Floors */
/** @type {typeof import('../eslint/layering.mjs')} */
const layering = await import(pathToFileURL(path.join(project, 'eslint/layering.mjs')).href);
const { LAYERS, ROOTS, SOURCE, nodeOf, resolveImport } = layering;

/** Every .ts file under `folder`, sorted. @param {string} folder @returns {string[]} */
function tsFiles(folder) {
  /** @type {string[]} */
  const files = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      files.push(...tsFiles(full));
    } else if (entry.name.endsWith('.ts')) {
      files.push(full);
    }
  }
  return files.sort();
}

/** Relative specifiers of a file's imports, export-froms and import()s. @param {string} file */
function specifiers(file) {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.[^'"]*)['"]/g)].map((match) => match[1]);
}

/**
 * The folder-level graph of a source root: node -> the nodes it imports, with one example each.
 * @param {string} root
 */
function importGraph(root) {
  /** @type {Map<string, Map<string, string>>} */
  const edges = new Map();
  for (const file of tsFiles(root)) {
    const from = nodeOf(root, file);
    const targets = edges.get(from) ?? new Map();
    edges.set(from, targets);
    for (const specifier of specifiers(file)) {
      const target = resolveImport(file, specifier);
      if (!target || !target.startsWith(root + path.sep)) {
        continue;
      }
      const to = nodeOf(root, target);
      if (to !== from && !targets.has(to)) {
        targets.set(to, `${path.relative(project, file)} imports ${specifier}`);
      }
    }
  }
  return edges;
}

/**
 * The strongly connected components with more than one node (Tarjan).
 * @param {Map<string, Map<string, string>>} edges
 */
function cycles(edges) {
  let counter = 0;
  /** @type {Map<string, number>} */ const index = new Map();
  /** @type {Map<string, number>} */ const low = new Map();
  /** @type {string[]} */ const stack = [];
  const onStack = new Set();
  /** @type {string[][]} */ const found = [];
  /** @param {string} node */
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(/** @type {number} */ (low.get(node)), /** @type {number} */ (low.get(next))));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(/** @type {number} */ (low.get(node)), /** @type {number} */ (index.get(next))));
      }
    }
    if (low.get(node) === index.get(node)) {
      /** @type {string[]} */
      const component = [];
      let member;
      do {
        member = /** @type {string} */ (stack.pop());
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) {
        found.push(component);
      }
    }
  };
  for (const node of edges.keys()) {
    if (!index.has(node)) {
      visit(node);
    }
  }
  return found;
}

/** @param {Floors} floors @param {string} node */
const floorOf = (floors, node) => floors.find((entry) => node in entry.nodes)?.floor ?? 'no floor';

const coreRoot = path.join(project, SOURCE, 'core');
const coreFloors = LAYERS[`${SOURCE}/core`];
const graph = importGraph(coreRoot);
console.log(`The folders of ${SOURCE}/core, by floor, and the folders each imports:`);
for (const { floor, nodes } of coreFloors) {
  for (const node of Object.keys(nodes)) {
    const targets = [...(graph.get(node)?.keys() ?? [])].sort();
    console.log(`  ${floor.padEnd(20)} ${node.padEnd(12)} -> ${targets.join(', ') || '(nothing)'}`);
  }
}
const unplaced = [...graph.keys()].filter((node) => floorOf(coreFloors, node) === 'no floor');
for (const node of unplaced) {
  console.log(`  no floor             ${node} (add it to LAYERS in eslint/layering.mjs)`);
}
const circles = cycles(graph);
for (const circle of circles) {
  const inside = circle.flatMap((from) => circle.map((to) => graph.get(from)?.get(to)).filter((example) => example !== undefined));
  console.log(`cycle: ${circle.join(' <-> ')} (${inside.slice(0, 4).join('; ')})`);
}

/**
 * One planted import: `file` (relative to the project) gets `import '<specifier>';` on top.
 * @typedef {{ what: string; file: string; specifier: string }} Plant
 */

/**
 * The plants for one set of floors: one upward import per pair of floors (a file of the first node
 * of the lower floor imports a file of the first node of the upper one), and per floor with two or
 * more nodes, one import between siblings that the table does not list.
 * @param {string} root the source root's path from the project @param {Floors} floors
 * @returns {Plant[]}
 */
function plantsFor(root, floors) {
  /** @param {string} node */
  const fileOf = (node) => {
    const folder = path.join(project, root, node);
    const file = fs.existsSync(folder) && fs.statSync(folder).isDirectory() ? tsFiles(folder)[0] : `${folder}.ts`;
    return file && fs.existsSync(file) ? path.relative(project, file) : undefined;
  };
  /** @param {string} from @param {string} to @param {string} what @returns {Plant[]} */
  const plant = (from, to, what) => {
    const [file, target] = [fileOf(from), fileOf(to)];
    if (!file || !target) {
      return [];
    }
    const specifier = path.relative(path.dirname(file), target).replace(/\.ts$/, '').split(path.sep).join('/');
    return [{ what, file, specifier: specifier.startsWith('.') ? specifier : `./${specifier}` }];
  };
  /** @type {Plant[]} */
  const plants = [];
  floors.forEach((lower, i) => {
    const from = Object.keys(lower.nodes)[0];
    for (const upper of floors.slice(i + 1)) {
      const to = Object.keys(upper.nodes)[0];
      plants.push(...plant(from, to, `${root}: ${from} (floor ${lower.floor}) -> ${to} (floor ${upper.floor})`));
    }
    const nodes = Object.keys(lower.nodes);
    const pair = nodes.flatMap((a) => nodes.filter((b) => b !== a && !lower.nodes[a].includes(b)).map((b) => [a, b]))[0];
    if (pair) {
      plants.push(...plant(pair[0], pair[1], `${root}: ${pair[0]} -> ${pair[1]} (siblings on floor ${lower.floor}, not listed)`));
    }
  });
  return plants;
}

/** Lints every plant on a copy of the project; returns the plants the lint accepted. @param {Plant[]} plants */
async function tryPlants(plants) {
  // On Windows a link to node_modules needs a privilege (and wine 8 makes none, junctions neither):
  // there the copy lies in the project's .cache, and Node finds node_modules by walking up to it.
  const windows = process.platform === 'win32';
  const base = windows ? path.join(project, '.cache') : os.tmpdir();
  fs.mkdirSync(base, { recursive: true });
  const copy = fs.realpathSync(fs.mkdtempSync(path.join(base, 'floors-')));
  try {
    for (const entry of [SOURCE, 'eslint', 'eslint.config.mjs', 'tsconfig.json', 'package.json']) {
      fs.cpSync(path.join(project, entry), path.join(copy, entry), { recursive: true });
    }
    if (!windows) {
      fs.symlinkSync(path.join(project, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    }
    /** @type {Map<string, Plant[]>} the plants of each file, in the order of their lines on top of it */
    const targets = new Map();
    for (const plant of plants) {
      const file = path.join(copy, plant.file);
      targets.set(file, [...(targets.get(file) ?? []), plant]);
    }
    for (const [file, planted] of targets) {
      const lines = planted.map((plant) => `import '${plant.specifier}';\n`).join('');
      fs.writeFileSync(file, lines + fs.readFileSync(file, 'utf8'));
    }
    const { ESLint } = await import('eslint');
    // Without type information: layering/layers reads only the syntax, and building TypeScript's
    // program for the copy took most of the run.
    const eslint = new ESLint({ cwd: copy, overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } }, rules: { '@typescript-eslint/no-floating-promises': 'off' } } });
    const results = new Map((await eslint.lintFiles([...targets.keys()])).map((result) => [result.filePath, result.messages]));
    /** @type {Plant[]} */
    const accepted = [];
    for (const [file, planted] of targets) {
      for (const [line, plant] of planted.entries()) {
        const refusal = results.get(file)?.find((message) => message.ruleId === 'layering/layers' && message.line === line + 1);
        console.log(`${refusal ? 'refused ' : 'ACCEPTED'} ${plant.what}${refusal ? '' : `: ${plant.file} imports ${plant.specifier}`}`);
        if (!refusal) {
          accepted.push(plant);
        }
      }
    }
    return accepted;
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
}

let injected = 'not tried (--inject)';
let accepted = 0;
if (inject) {
  const plants = [...Object.entries(LAYERS).flatMap(([root, floors]) => plantsFor(root, floors)), ...plantsFor(SOURCE, ROOTS)];
  accepted = (await tryPlants(plants)).length;
  injected = `${plants.length - accepted} of ${plants.length} refused`;
}
console.log(`floors: ${circles.length} folder cycles and ${unplaced.length} folders without a floor in ${SOURCE}/core; planted imports ${injected}`);
process.exit(circles.length === 0 && unplaced.length === 0 && accepted === 0 ? 0 : 1);
