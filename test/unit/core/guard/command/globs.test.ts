import * as assert from 'node:assert/strict';
import { componentRegex, expandPathWord, type GlobExpansion, type ListDirectory } from '../../../../../src/core/guard/command/globs';

/** A file system of folders given as path -> names. */
function lister(tree: Record<string, string[]>): ListDirectory {
  return async (folder) => tree[folder];
}

const TREE: Record<string, string[]> = {
  '/': ['ws', 'etc'],
  '/ws': ['a.md', 'b.ts', '.env', '.git', 'src', '-rf'],
  '/ws/src': ['x.ts', 'y.js'],
  '/ws/.git': ['config', 'HEAD'],
};

function words(expansion: GlobExpansion): string[] {
  assert.ok(expansion.ok, expansion.ok ? '' : expansion.reason);
  return expansion.matches.map((match) => match.word).sort();
}

describe('guard/command/globs', () => {
  it('matches * against any name, dotfiles included, and keeps the literal pattern', async () => {
    assert.deepEqual(words(await expandPathWord('*.md', '/ws', '/home', lister(TREE))), ['*.md', 'a.md']);
    assert.deepEqual(words(await expandPathWord('.e*', '/ws', '/home', lister(TREE))), ['.e*', '.env']);
  });

  it('treats ? and [...] as any one character, a superset of every class', async () => {
    assert.deepEqual(words(await expandPathWord('.en?', '/ws', '/home', lister(TREE))), ['.en?', '.env']);
    assert.deepEqual(words(await expandPathWord('.gi[!x]/config', '/ws', '/home', lister(TREE))), ['.gi[!x]/config', '.git/config']);
    assert.ok(componentRegex('[a-c]').test('z'));
  });

  it('offers . and .. to a component that can match a leading dot', async () => {
    const expansion = await expandPathWord('.*/x', '/ws', '/home', lister(TREE));
    assert.ok(expansion.ok);
    assert.ok(expansion.matches.some((match) => match.word === '../x' && match.absolute === '/ws/../x'));
    assert.ok(!words(await expandPathWord('*', '/ws', '/home', lister(TREE))).includes('..'));
  });

  it('expands braces and then globs, across folders', async () => {
    assert.deepEqual(words(await expandPathWord('{src/*.ts,b.ts}', '/ws', '/home', lister(TREE))), ['b.ts', 'src/*.ts', 'src/x.ts', '{src/*.ts,b.ts}']);
  });

  it('reports names that start with a dash, so the policy can refuse them as options', async () => {
    assert.ok(words(await expandPathWord('*', '/ws', '/home', lister(TREE))).includes('-rf'));
  });

  it('expands absolute patterns and ~', async () => {
    const expansion = await expandPathWord('/*/src', '/elsewhere', '/home', lister(TREE));
    assert.ok(expansion.ok);
    assert.ok(expansion.matches.some((match) => match.word === '/ws/src' && match.absolute === '/ws/src'));
    const home = await expandPathWord('~/*', '/ws', '/ws', lister(TREE));
    assert.ok(home.ok && home.matches.some((match) => match.word === '~/a.md' && match.absolute === '/ws/a.md'));
  });

  it('gives up past the cap of matches', async () => {
    const many = { '/big': Array.from({ length: 50 }, (_unused, index) => `f${index}`) };
    const expansion = await expandPathWord('*', '/big', '/home', lister(many), 10);
    assert.ok(!expansion.ok);
    assert.match(expansion.reason, /too many files/);
  });
});
