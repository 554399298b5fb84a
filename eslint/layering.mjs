// @ts-check
// The floors of src/core and src/vscode as a lint rule. Every relative import is resolved to the
// folder (or top-level file) it lands in, and that node must be one the importing node may use:
// lower floors only, and on a floor only the siblings listed. A cycle between folders needs an
// upward edge, so the tables forbid cycles too. ARCHITECTURE.md draws the same tables.
import fs from 'node:fs';
import path from 'node:path';

/**
 * Floor by floor, the nodes of a source root and the siblings each may import besides every node
 * of the floors below. A new folder must be added here (the rule reports files of unknown nodes),
 * which is where its floor is decided.
 * @typedef {readonly { readonly floor: string; readonly nodes: Readonly<Record<string, readonly string[]>> }[]} Floors
 */

/** @type {Floors} */
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
    nodes: { edit: [], read: [], activity: [], process: [], fs: [], search: [], checkpoints: [] },
  },
  { floor: '4 guard', nodes: { guard: [], sandbox: ['guard'] } },
  { floor: '5 change pipeline', nodes: { changes: [] } },
  { floor: '6 tools', nodes: { tools: [] } },
];

/** The vscode layer: host adapters, then the UI, then change application, then tool registration. @type {Floors} */
export const VSCODE_FLOORS = [
  { floor: '1 ids', nodes: { commandIds: [] } },
  { floor: '2 host adapters', nodes: { host: [] } },
  { floor: '3 ui', nodes: { ui: [] } },
  { floor: '4 change application', nodes: { changes: [] } },
  { floor: '5 tool registration', nodes: { tools: [] } },
  { floor: '6 MCP front', nodes: { mcp: [] } },
];

/** The floors of each source root, by its path from the repository. @type {Readonly<Record<string, Floors>>} */
export const LAYERS = { 'src/core': FLOORS, 'src/vscode': VSCODE_FLOORS };

/**
 * What each node may import: every node of the floors below, plus the siblings its entry lists.
 * @param {Floors} floors
 */
export function allowedImports(floors) {
  /** @type {Map<string, Set<string>>} */
  const allowed = new Map();
  /** @type {string[]} */
  const below = [];
  for (const { nodes } of floors) {
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

/** @param {Floors} floors @param {string} node */
function floorOf(floors, node) {
  return floors.find((entry) => node in entry.nodes)?.floor ?? 'no floor';
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
    docs: { description: 'Imports in src/core and src/vscode never run up a floor (ARCHITECTURE.md).' },
    schema: [{ type: 'object', properties: { root: { enum: Object.keys(LAYERS) } }, required: ['root'], additionalProperties: false }],
    messages: {
      upward: 'Bad layering: {{root}}/{{from}} (floor {{fromFloor}}) may not import {{root}}/{{to}} (floor {{toFloor}}). {{from}} may import: {{allowed}}. See ARCHITECTURE.md.',
      unplaced: '{{root}}/{{from}} has no floor: add it to LAYERS in eslint/layering.mjs and to ARCHITECTURE.md.',
    },
  },
  create(context) {
    /** @type {keyof typeof LAYERS} */
    const rootName = context.options[0].root;
    const floors = LAYERS[rootName];
    const root = path.resolve(context.cwd, rootName);
    const file = context.filename;
    if (!file.startsWith(root + path.sep)) {
      return {};
    }
    const allowed = allowedImports(floors);
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
        context.report({ node, messageId: 'unplaced', data: { root: rootName, from } });
      } else if (!mayUse.has(to)) {
        const data = { root: rootName, from, to, fromFloor: floorOf(floors, from), toFloor: floorOf(floors, to), allowed: [...mayUse].join(', ') || `nothing in ${rootName}` };
        context.report({ node, messageId: 'upward', data });
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
