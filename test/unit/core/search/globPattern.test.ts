import * as assert from 'node:assert/strict';
import { compileGlob, estimateBraceAlternatives, globHints, splitGlobBase } from '../../../../src/core/search/globPattern';

describe('search/globPattern', () => {
  it('splits off the literal folders a pattern starts with', () => {
    assert.deepEqual(splitGlobBase('src/lib/**/*.ts'), { base: 'src/lib', rest: '**/*.ts' });
    assert.deepEqual(splitGlobBase('../**'), { base: '..', rest: '**' });
    assert.deepEqual(splitGlobBase('/etc/*'), { base: '/etc', rest: '*' });
    assert.deepEqual(splitGlobBase('src/index.ts'), { base: 'src', rest: 'index.ts' });
    assert.deepEqual(splitGlobBase('*.ts'), { base: '', rest: '*.ts' });
  });

  it('bounds brace expansion without expanding', () => {
    assert.equal(estimateBraceAlternatives('**/*.{ts,js}'), 2);
    assert.equal(estimateBraceAlternatives('{a,b}/{c,d,e}'), 6);
    assert.equal(estimateBraceAlternatives('{1..1000}'), 1000);
    assert.equal(estimateBraceAlternatives('\\{a,b\\}'), 1);
  });

  it('hints at the file name and depth only when every match must satisfy them', () => {
    assert.deepEqual(globHints('src/**/*.ts', false), { basename: '*.ts', maxDepth: undefined });
    assert.deepEqual(globHints('*/*.md', false), { basename: '*.md', maxDepth: 2 });
    assert.deepEqual(globHints('{src/a,lib/b}.ts', false), {});
    assert.deepEqual(globHints('!*.ts', true), {});
    assert.deepEqual(globHints('**/*', false), { basename: undefined, maxDepth: undefined });
  });

  it('matches the file name at any depth with matchBase when the glob has no slash', () => {
    const test = compileGlob('*.ts', { matchBase: true, dot: true });
    assert.equal(test('a/b/c.ts'), true);
    assert.equal(test('a/b/c.js'), false);
  });

  it('negates with a leading !', () => {
    const test = compileGlob('!*.min.js', { matchBase: true, dot: true });
    assert.equal(test('dist/app.min.js'), false);
    assert.equal(test('src/app.js'), true);
  });
});
