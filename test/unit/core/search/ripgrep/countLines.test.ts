import * as assert from 'node:assert/strict';
import { fileLocation } from '../../../../../src/core/location';
import type { GrepCollector, GrepFileResult, GrepRequest, SearchScope } from '../../../../../src/core/ports/search';
import { CountLineParser } from '../../../../../src/core/search/ripgrep/countLines';

const root = fileLocation('/ws');
const scope: SearchScope = {
  root,
  rootKind: 'directory',
  ignoreRoot: root,
  rootFromIgnoreRoot: '',
  parentRules: true,
  excludes: { names: [], paths: [], matchesEntry: () => false, isExcluded: () => false },
};

function request(include?: (relative: string) => boolean): GrepRequest {
  return { scope, regex: { pattern: 'x', caseInsensitive: false, fixedStrings: false }, mode: 'count', context: 0, include, hints: {} };
}

function collector(max = Infinity): GrepCollector & { files: GrepFileResult[] } {
  const files: GrepFileResult[] = [];
  return {
    files,
    wants: () => false,
    maxLinesPerFile: 0,
    add: (file) => files.push(file),
    get enough() {
      return files.length > max;
    },
  };
}

const toRelative = (printed: string) => printed.replace(/^\.\//, '');

describe('search/ripgrep/countLines', () => {
  it('reads path NUL count LF records, whatever the chunks they arrive in', () => {
    const files = collector();
    const parser = new CountLineParser(request(), files, toRelative, () => false);
    const stream = './a.c\u00003\n./dir/b.h\u000012\n';
    for (const piece of [stream.slice(0, 3), stream.slice(3, 6), stream.slice(6, 14), stream.slice(14)]) parser.write(piece, true);
    assert.deepEqual(files.files, [
      { path: 'a.c', matchingLines: 3, lines: [] },
      { path: 'dir/b.h', matchingLines: 12, lines: [] },
    ]);
    assert.equal(parser.found, 2);
  });

  it('keeps a line feed that is part of a file name (a record ends at the first line feed after its NUL)', () => {
    const files = collector();
    new CountLineParser(request(), files, toRelative, () => false).write('./odd\nname.txt\u00001\n./next\u00002\n', true);
    assert.deepEqual(files.files.map((file) => file.path), ['odd\nname.txt', 'next']);
  });

  it('drops files outside the include glob and files files.exclude hides', () => {
    const files = collector();
    const parser = new CountLineParser(request((relative) => relative.endsWith('.c')), files, toRelative, (relative) => relative.startsWith('gen/'));
    parser.write('./a.c\u00001\n./a.h\u00001\n./gen/b.c\u00001\n', true);
    assert.deepEqual(files.files.map((file) => file.path), ['a.c']);
  });

  it('says stop once the collector has enough, and only when asked to', () => {
    const files = collector(1);
    const parser = new CountLineParser(request(), files, toRelative, () => false);
    assert.equal(parser.write('./a\u00001\n./b\u00001\n./c\u00001\n', true), false);
    assert.deepEqual(files.files.map((file) => file.path), ['a', 'b']);
    const single = collector(1);
    assert.equal(new CountLineParser(request(), single, toRelative, () => false).write('./a\u00001\n./b\u00001\n', false), true);
    assert.equal(single.files.length, 2);
  });
});
