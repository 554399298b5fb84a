// @ts-check
// The floors of src/core as a lint rule. Every relative import is resolved to the folder (or
// top-level file) it lands in, and that node must be one the importing node may use: lower floors
// only, and on a floor only the siblings listed. A cycle between folders needs an upward edge, so
// the table forbids cycles too. ARCHITECTURE.md draws the same table.
import fs from 'node:fs';
import path from 'node:path';

/**
 * Floor by floor, each node of src/core and the nodes it may import. A new folder must be added
 * here (the rule reports files of unknown nodes), which is where its floor is decided.
 * @type {readonly { readonly floor: string; readonly nodes: Readonly<Record<string, readonly string[]>> }[]}
 */
export const FLOORS = [
  {
    floor: '1 vocabulary',
    nodes: { secrets: [], text: [], output: [], location: [], decisions: [], errors: ['secrets'] },
  },
  {
    floor: '2 contracts',
    nodes: { ports: [], settings: [], context: ['ports', 'settings'] },
  },
  {
    floor: '3 domains',
    nodes: { edit: [], read: [], activity: [], process: [], fs: [], search: [] },
  },
  { floor: '4 guard', nodes: { guard: [] } },
  { floor: '5 change pipeline', nodes: { changes: [] } },
  { floor: '6 tools', nodes: { tools: [] } },
];

/** What each node may import: every node of the floors below, plus the siblings its entry lists. */
export function allowedImports() {
  /** @type {Map<string, Set<string>>} */
  const allowed = new Map();
  /** @type {string[]} */
  const below = [];
  for (const { nodes } of FLOORS) {
    for (const [node, siblings] of Object.entries(nodes)) {
      allowed.set(node, new Set([...below, ...siblings]));
    }
    below.push(...Object.keys(nodes));
  }
  return allowed;
}

/**
 * The node of a file under `root`: its first folder, or its own name for a top-level file.
 * @param {string} root @param {string} file
 */
export function nodeOf(root, file) {
  const parts = path.relative(root, file).split(path.sep);
  return parts.length === 1 ? parts[0].replace(/\.ts$/, '') : parts[0];
}

/** @param {string} node */
function floorOf(node) {
  return FLOORS.find((entry) => node in entry.nodes)?.floor ?? 'no floor';
}

/** @param {string} from @param {string} specifier */
function resolveImport(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, 'index.ts'), base].find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile());
}

/** @type {import('eslint').Rule.RuleModule} */
const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports in src/core never run up a floor (ARCHITECTURE.md).' },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, additionalProperties: false }],
    messages: {
      upward: 'Bad layering: src/core/{{from}} (floor {{fromFloor}}) may not import src/core/{{to}} (floor {{toFloor}}). {{from}} may import: {{allowed}}. See ARCHITECTURE.md.',
      unplaced: 'src/core/{{from}} has no floor: add it to FLOORS in eslint/layering.mjs and to ARCHITECTURE.md.',
    },
  },
  create(context) {
    const root = path.resolve(context.cwd, context.options[0]?.root ?? 'src/core');
    const file = context.filename;
    if (!file.startsWith(root + path.sep)) {
      return {};
    }
    const allowed = allowedImports();
    const from = nodeOf(root, file);
    /** @param {import('estree').Node} node @param {unknown} source */
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) {
        return;
      }
      const target = resolveImport(file, source);
      if (!target || !target.startsWith(root + path.sep)) {
        return;
      }
      const to = nodeOf(root, target);
      if (to === from) {
        return;
      }
      const mayUse = allowed.get(from);
      if (!mayUse) {
        context.report({ node, messageId: 'unplaced', data: { from } });
      } else if (!mayUse.has(to)) {
        context.report({ node, messageId: 'upward', data: { from, to, fromFloor: floorOf(from), toFloor: floorOf(to), allowed: [...mayUse].join(', ') || 'nothing in src/core' } });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => check(node, node.source?.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source.value : undefined),
    };
  },
};

export const layeringPlugin = { rules: { layers: layersRule } };
