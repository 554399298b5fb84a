// @ts-check
// The floors of src as lint rules. Every relative import in src is resolved to the file it lands in
// (a `.js` or `.mjs` specifier names the `.ts` or `.mts` file tsc compiles it from), and an import
// that lands on no file is an error. Then the root it lands in (core, mcp, vscode, extension) must
// be one the importing root may use, and inside a root with floors the folder (or top-level file)
// it lands in must be one the importing node may use: lower floors only, and on a floor only the
// siblings listed. A cycle between folders needs an upward edge, so the tables forbid cycles too.
// ARCHITECTURE.md draws the same tables. A second rule bans modules by name (vscode, Node's I/O in
// core), for static imports and import() alike. A third fences the node/ folders: pure core takes
// only types from them. A fourth refuses a circle of imports between files, `import type` included,
// which the floors cannot see inside one folder.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

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
    nodes: { secrets: [], text: [], output: [], location: [], decisions: [], errors: ['secrets'], result: ['secrets'] },
  },
  {
    floor: '2 contracts',
    nodes: { ports: [], settings: [], settingLayers: ['settings'], context: ['ports', 'settings'], time: ['ports'] },
  },
  {
    floor: '3 domains',
    nodes: { edit: [], read: [], activity: [], process: [], fs: [], search: [], checkpoints: [], language: [] },
  },
  { floor: '4 guard', nodes: { guard: [], sandbox: ['guard'] } },
  { floor: '5 change pipeline', nodes: { changes: [] } },
  { floor: '6 tools', nodes: { tools: [] } },
  { floor: '7 calls', nodes: { calls: [] } },
];

/** The vscode layer: host adapters, then the UI, then change application, then tool registration, the MCP front, and what activation builds. @type {Floors} */
export const VSCODE_FLOORS = [
  { floor: '1 ids', nodes: { commandIds: [], activationTimings: [] } },
  { floor: '2 host adapters', nodes: { host: [] } },
  { floor: '3 ui', nodes: { ui: [] } },
  { floor: '4 change application', nodes: { changes: [] } },
  { floor: '5 tool registration', nodes: { tools: [] } },
  { floor: '6 MCP front', nodes: { mcp: [] } },
  { floor: '7 composition', nodes: { composition: [] } },
];

/** The floors of each source root that has them, by its path from the repository. @type {Readonly<Record<string, Floors>>} */
export const LAYERS = { 'src/core': FLOORS, 'src/vscode': VSCODE_FLOORS };

/**
 * The roots of src, in floors: core and mcp run in a plain Node and know nothing of each other, the
 * vscode layer adapts both to VS Code, and extension.ts builds everything at activation.
 * @type {Floors}
 */
export const ROOTS = [
  { floor: '1 plain Node', nodes: { core: [], mcp: [] } },
  { floor: '2 VS Code adapters', nodes: { vscode: [] } },
  { floor: '3 activation', nodes: { extension: [] } },
];

/** The folder all the roots live in. */
export const SOURCE = 'src';

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

/** What tsc compiles a `.js`-style specifier from, as tsc's own resolution does. */
const SOURCE_EXTENSIONS = /** @type {const} */ ({ '.js': ['.ts', '.tsx', '.d.ts'], '.mjs': ['.mts', '.ts', '.d.mts'], '.cjs': ['.cts', '.d.cts'] });

/**
 * The file a relative specifier lands on, or undefined when it lands on none.
 * @param {string} from @param {string} specifier
 */
export function resolveImport(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  const extension = path.extname(base);
  const stem = base.slice(0, base.length - extension.length);
  const compiledFrom = extension in SOURCE_EXTENSIONS ? SOURCE_EXTENSIONS[/** @type {keyof typeof SOURCE_EXTENSIONS} */ (extension)].map((source) => stem + source) : [];
  const candidates = [...compiledFrom, `${base}.ts`, `${base}.d.ts`, path.join(base, 'index.ts'), base];
  return candidates.find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile());
}

/** @param {string} child @param {string} parent */
const isInside = (child, parent) => child.startsWith(parent + path.sep);

/** The source of an import, export-from, import() or `import x = require()`, when it is written out. @param {any} node */
function sourceOf(node) {
  const source = node.type === 'TSImportEqualsDeclaration' ? node.moduleReference?.expression : node.source;
  if (source?.type === 'Literal') {
    return typeof source.value === 'string' ? source.value : undefined;
  }
  if (source?.type === 'TemplateLiteral' && source.expressions.length === 0) {
    return source.quasis[0].value.cooked ?? undefined;
  }
  return undefined;
}

/**
 * Calls `check` with every module specifier of the file, static or dynamic.
 * @param {(node: import('estree').Node, source: string) => void} check
 * @returns {import('eslint').Rule.RuleListener}
 */
function eachImport(check) {
  /** @param {any} node */
  const visit = (node) => {
    const source = sourceOf(node);
    if (source !== undefined) {
      check(node, source);
    }
  };
  return {
    ImportDeclaration: visit,
    ExportNamedDeclaration: visit,
    ExportAllDeclaration: visit,
    ImportExpression: visit,
    // typescript-eslint's `import x = require('...')`.
    TSImportEqualsDeclaration: visit,
  };
}

/** @type {import('eslint').Rule.RuleModule} */
const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports in src never run up a floor, between roots or inside one (ARCHITECTURE.md).' },
    schema: [],
    messages: {
      upward: 'Bad layering: {{root}}/{{from}} (floor {{fromFloor}}) may not import {{root}}/{{to}} (floor {{toFloor}}). {{from}} may import: {{allowed}}. See ARCHITECTURE.md.',
      crossRoot: 'Bad layering: {{fromPath}} (in {{fromRoot}}, floor {{fromFloor}} of src) may not import {{toPath}} (in {{toRoot}}, floor {{toFloor}} of src). {{fromRoot}} may import: {{allowed}}. See ARCHITECTURE.md.',
      unplaced: '{{root}}/{{from}} has no floor: add it to {{table}} in eslint/layering.mjs and to ARCHITECTURE.md.',
      unresolved: "'{{specifier}}' lands on no file, so its floor cannot be checked: import a .ts file (a .js specifier is fine) or a folder with index.ts.",
    },
  },
  create(context) {
    const source = path.resolve(context.cwd, SOURCE);
    const file = context.filename;
    if (!isInside(file, source)) {
      return {};
    }
    const rootAllowed = allowedImports(ROOTS);
    const fromRoot = nodeOf(source, file);
    const rootFloors = LAYERS[`${SOURCE}/${fromRoot}`];
    const root = path.join(source, fromRoot);
    const allowed = rootFloors && allowedImports(rootFloors);
    const from = rootFloors && nodeOf(root, file);
    /** @param {string} target */
    const shown = (target) => path.relative(context.cwd, target).split(path.sep).join('/').replace(/\.ts$/, '');
    return eachImport((node, specifier) => {
      if (!specifier.startsWith('.')) {
        return;
      }
      const target = resolveImport(file, specifier);
      if (!target) {
        if (isInside(path.resolve(path.dirname(file), specifier), source)) {
          context.report({ node, messageId: 'unresolved', data: { specifier } });
        }
        return;
      }
      if (!isInside(target, source)) {
        return;
      }
      const toRoot = nodeOf(source, target);
      if (toRoot !== fromRoot) {
        const mayUse = rootAllowed.get(fromRoot);
        if (!mayUse) {
          context.report({ node, messageId: 'unplaced', data: { root: SOURCE, from: fromRoot, table: 'ROOTS' } });
        } else if (!mayUse.has(toRoot)) {
          const data = {
            fromPath: shown(file), fromRoot: `${SOURCE}/${fromRoot}`, fromFloor: floorOf(ROOTS, fromRoot),
            toPath: shown(target), toRoot: `${SOURCE}/${toRoot}`, toFloor: floorOf(ROOTS, toRoot),
            allowed: [...mayUse].map((name) => `${SOURCE}/${name}`).join(', ') || `nothing outside ${SOURCE}/${fromRoot}`,
          };
          context.report({ node, messageId: 'crossRoot', data });
        }
        return;
      }
      if (!rootFloors || !allowed || !from) {
        return;
      }
      const to = nodeOf(root, target);
      if (to === from) {
        return;
      }
      const rootName = `${SOURCE}/${fromRoot}`;
      const mayUse = allowed.get(from);
      if (!mayUse) {
        context.report({ node, messageId: 'unplaced', data: { root: rootName, from, table: 'LAYERS' } });
      } else if (!mayUse.has(to)) {
        const data = { root: rootName, from, to, fromFloor: floorOf(rootFloors, from), toFloor: floorOf(rootFloors, to), allowed: [...mayUse].join(', ') || `nothing in ${rootName}` };
        context.report({ node, messageId: 'upward', data });
      }
    });
  },
};

/**
 * Modules a part of src may not load, by name, whether with import, export-from or import(): the
 * options are no-restricted-imports' `paths` (name and message), so one list serves both kinds.
 * @type {import('eslint').Rule.RuleModule}
 */
const modulesRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Named modules are loaded neither statically nor with import() (ARCHITECTURE.md).' },
    schema: [
      {
        type: 'object',
        properties: { paths: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, message: { type: 'string' } }, required: ['name', 'message'], additionalProperties: false } } },
        required: ['paths'],
        additionalProperties: false,
      },
    ],
    messages: {
      banned: "'{{name}}' may not be loaded here ({{how}}): {{message}}",
    },
  },
  create(context) {
    /** @type {{ name: string; message: string }[]} */
    const paths = context.options[0].paths;
    const banned = new Map(paths.map((entry) => [entry.name, entry.message]));
    return eachImport((node, name) => {
      const message = banned.get(name);
      if (message !== undefined) {
        const how = node.type === 'ImportExpression' ? 'import()' : node.type === 'ImportDeclaration' ? 'import' : node.type.startsWith('Export') ? 'export from' : 'import = require()';
        context.report({ node, messageId: 'banned', data: { name, how, message } });
      }
    });
  },
};

/** Whether the file is in a node/ folder (at any depth), where Node I/O lives. @param {string} file */
export const inNodeFolder = (file) => file.split(path.sep).includes('node');

/** Whether an import, export-from or `import = require()` brings types only, erased by tsc. @param {any} node */
const typesOnly = (node) => node.importKind === 'type' || node.exportKind === 'type';

/**
 * The node/ fence: a file outside node/ folders may take types from a node/ file (`import type`,
 * `export type ... from`) but not load it, so pure code runs without Node I/O and gets it through a
 * port or a parameter. Configured for the pure files of src/core (eslint.config.mjs).
 * @type {import('eslint').Rule.RuleModule}
 */
const nodeZoneRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Pure core code loads no node/ file; it may import types from one (ARCHITECTURE.md).' },
    schema: [],
    messages: {
      loadsNode: "{{from}} is pure code and may not load the node/ file {{to}}: import only its types (`import type`), and have the Node side passed in through a port in src/core/ports or a parameter, or move this file into a node/ folder. See ARCHITECTURE.md.",
    },
  },
  create(context) {
    const file = context.filename;
    if (inNodeFolder(path.relative(context.cwd, file))) {
      return {};
    }
    /** @param {string} target */
    const shown = (target) => path.relative(context.cwd, target).split(path.sep).join('/');
    return eachImport((node, specifier) => {
      if (!specifier.startsWith('.') || typesOnly(node)) {
        return;
      }
      const target = resolveImport(file, specifier);
      if (target && inNodeFolder(path.relative(context.cwd, target))) {
        context.report({ node, messageId: 'loadsNode', data: { from: shown(file), to: shown(target) } });
      }
    });
  },
};

/**
 * The files of src each file imports, `import type`, export-from, import() and `typeof import()`
 * included, kept while the file's size and time of change stay the same (one lint run reads each once).
 * @type {Map<string, { readonly stamp: string; readonly targets: readonly string[] }>}
 */
const importsOnDisk = new Map();

/** @param {string} file @param {string} source @returns {readonly string[]} */
function importsOf(file, source) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return [];
  }
  const stamp = `${stat.mtimeMs}:${stat.size}`;
  const known = importsOnDisk.get(file);
  if (known?.stamp === stamp) {
    return known.targets;
  }
  const text = fs.readFileSync(file, 'utf8');
  const targets = ts.preProcessFile(text, true, true).importedFiles
    .map((entry) => (entry.fileName.startsWith('.') ? resolveImport(file, entry.fileName) : undefined))
    .filter(/** @returns {target is string} */ (target) => target !== undefined && isInside(target, source));
  importsOnDisk.set(file, { stamp, targets });
  return targets;
}

/**
 * No circle of imports between the files of src. Between folders the floors already forbid one; this
 * sees the circles inside a folder, and counts `import type`, which tsc erases but which still ties
 * the files' designs together. The file being linted is read from the editor's text, the others from disk.
 * @type {import('eslint').Rule.RuleModule}
 */
const cyclesRule = {
  meta: {
    type: 'problem',
    docs: { description: 'No file of src imports itself through others, types included (ARCHITECTURE.md).' },
    schema: [],
    messages: {
      cycle: 'Import cycle: {{path}}. Type imports count too: move what the files share into a file both import (as guard/command/policyOptions.ts holds the policy\'s options for policy.ts and its helpers).',
    },
  },
  create(context) {
    const source = path.resolve(context.cwd, SOURCE);
    const file = context.filename;
    if (!isInside(file, source)) {
      return {};
    }
    /** @param {string} target */
    const shown = (target) => path.relative(context.cwd, target).split(path.sep).join('/');
    /** Files from which no way leads back to this file (found by earlier walks). @type {Set<string>} */
    const deadEnds = new Set();
    /**
     * The way back from `start` to this file, or undefined when there is none.
     * @param {string} start @returns {string[] | undefined}
     */
    const wayBack = (start) => {
      if (deadEnds.has(start)) {
        return undefined;
      }
      /** @type {Map<string, string | undefined>} */
      const cameFrom = new Map([[start, undefined]]);
      const stack = [start];
      while (stack.length > 0) {
        const at = /** @type {string} */ (stack.pop());
        if (at === file) {
          /** @type {string[]} */
          const way = [];
          for (let step = /** @type {string | undefined} */ (at); step !== undefined; step = cameFrom.get(step)) {
            way.unshift(step);
          }
          return way;
        }
        for (const next of importsOf(at, source)) {
          if (!cameFrom.has(next) && !deadEnds.has(next)) {
            cameFrom.set(next, at);
            stack.push(next);
          }
        }
      }
      for (const seen of cameFrom.keys()) {
        deadEnds.add(seen);
      }
      return undefined;
    };
    return eachImport((node, specifier) => {
      if (!specifier.startsWith('.')) {
        return;
      }
      const target = resolveImport(file, specifier);
      if (!target || !isInside(target, source)) {
        return;
      }
      const way = target === file ? [file] : wayBack(target);
      if (way) {
        context.report({ node, messageId: 'cycle', data: { path: [file, ...way].map(shown).join(' → ') } });
      }
    });
  },
};

export const layeringPlugin = { rules: { layers: layersRule, modules: modulesRule, 'node-zone': nodeZoneRule, cycles: cyclesRule } };
