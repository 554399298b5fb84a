// @ts-check
// How the unit tier is cut into mocha processes (scripts/test-host/unit.mjs runs them, as many at a
// time as there are cores): one mocha for the whole tier used one core and grew to 430 MB; small
// processes two at a time use both. Each process costs about 0.6 s of CPU to start (mocha and the
// modules its files load), so the light files share a few groups and only the slow part of the
// tier is cut finely, and started first so that the longest group does not start last.

/**
 * The slow part of the tier: each entry is a group of its own (a file alone, or the files directly
 * in a folder), started before the rest, in this order (the longest single file first). CPU seconds
 * measured per file in November 2026 (children included, at load 9 on 2 cores):
 * the git checkpoint store 30 (1,077 git runs), the command tools 33 (real processes in bubblewrap),
 * the store build 18, the search engines' parity 15, ESLint's plants 10, the other tools 10, the
 * touched paths 9, the MCP endpoint 7. A folder with a count is dealt in turn into that many groups.
 * @type {readonly (string | readonly [folder: string, groups: number])[]}
 */
export const SLOW_FIRST = [
  'core/checkpoints/node/git/gitCheckpointStore.test.js',
  ['core/tools/command', 2],
  'core/checkpoints/node/git/storeBuild.test.js',
  'core/search/engines.test.js',
  'eslint',
  'core/tools',
  'core/checkpoints/node/git/touchedPaths.test.js',
  'mcp',
];

/** The rest of the tier (light files, about a fifth of its CPU), in path order, in at most this many groups of about equal count, */
export const REST_GROUPS = 4;
/** and of at least this many files each. */
export const REST_GROUP_FILES = 8;

/**
 * Cuts the test files into groups, in the order they should start.
 * @param {readonly string[]} files paths relative to out/test/unit, with `/`
 * @returns {{ name: string, files: string[] }[]} every file exactly once
 */
export function unitGroups(files) {
  const left = [...files].sort();
  /** @type {{ name: string, files: string[] }[]} */
  const groups = [];
  /** @param {(file: string) => boolean} belongs */
  const take = (belongs) => {
    const taken = left.filter(belongs);
    for (const file of taken) left.splice(left.indexOf(file), 1);
    return taken;
  };
  for (const entry of SLOW_FIRST) {
    const [folder, count] = typeof entry === 'string' ? [entry, 1] : entry;
    const taken = folder.endsWith('.js') ? take((file) => file === folder) : take((file) => file.startsWith(`${folder}/`) && !file.slice(folder.length + 1).includes('/'));
    for (let index = 0; index < count; index += 1) {
      const dealt = taken.filter((_, position) => position % count === index);
      if (dealt.length > 0) groups.push({ name: count === 1 ? folder : `${folder} (${index + 1}/${count})`, files: dealt });
    }
  }
  const size = Math.max(REST_GROUP_FILES, Math.ceil(left.length / REST_GROUPS));
  for (let start = 0; start < left.length; start += size) {
    const chunk = left.slice(start, start + size);
    const folders = chunk.map((file) => file.split('/').slice(0, -1).join('/') || '.');
    groups.push({ name: folders[0] === folders.at(-1) ? folders[0] : `${folders[0]} … ${folders.at(-1)}`, files: chunk });
  }
  return groups;
}
