import * as assert from 'node:assert/strict';
import ignore from 'ignore';
import { fileNameRules, IgnoredNames } from '../../../../src/core/search/ignoredNames';

/** What the exact matcher (the one IgnoreRules uses) says about a file path under these rules. */
const exactlyIgnored = (rules: string, relative: string) => ignore({ allowRelativePaths: true }).add(rules).ignores(relative);

describe('search/ignoredNames', () => {
  describe('fileNameRules', () => {
    it('has no test for text without rules that can hide a file', () => {
      assert.equal(fileNameRules('# comment\n\n!keep.log\nbuild/\n/out/\n'), undefined);
    });

    it('never clears a name the exact matcher hides, for every kind of rule', () => {
      const rules = ['*.o', '/vmlinux', 'modules.order', '*.asn1.[ch]', '*.c.[012]*.*', '\\#*#', 'x[!a]y', 'docs/*.md', 'a?c', 'sub/**', '*.log ', 'CamelCase'];
      const names = ['main.o', 'vmlinux', 'modules.order', 'x.asn1.c', 'x.asn1.h', 'a.c.0r.x', '#tmp#', 'xby', 'readme.md', 'abc', 'deep', 'debug.log', 'camelcase', 'main.c', 'Makefile', 'x.asn1.o', 'xay'];
      for (const rule of rules) {
        const test = fileNameRules(rule);
        for (const name of names) {
          for (const relative of [name, `docs/${name}`, `sub/${name}`]) {
            if (exactlyIgnored(rule, relative)) {
              assert.ok(test?.test(name), `${JSON.stringify(rule)} hides ${relative}, but ${name} was cleared`);
            }
          }
        }
      }
    });

    it('clears names no rule can match', () => {
      const test = fileNameRules('*.o\n*.asn1.[ch]\n/vmlinux\n');
      assert.ok(test);
      assert.equal(test.test('Makefile'), false);
      assert.equal(test.test('main.c'), false);
      assert.equal(test.test('x.asn1.c'), true);
    });

    it('reads a rule it cannot read exactly as matching every name', () => {
      assert.equal(fileNameRules('foo/**')?.test('anything'), true);
      assert.equal(fileNameRules('[[:digit:]]x')?.test('anything'), true);
    });
  });

  describe('IgnoredNames', () => {
    const texts: Record<string, string> = { '': '*.o\n', 'drivers': '*.tmp\n', 'drivers/net': 'Makefile.bak\n' };
    const names = () => new IgnoredNames((folder) => folder in texts, (folder) => texts[folder]);

    it('clears a file whose name no rule above it matches', () => {
      assert.equal(names().mayHide('drivers/net/Makefile'), false);
    });

    it('flags a file a rule of any folder above it could hide', () => {
      assert.equal(names().mayHide('drivers/net/main.o'), true);
      assert.equal(names().mayHide('drivers/x.tmp'), true);
      assert.equal(names().mayHide('drivers/net/Makefile.bak'), true);
    });

    it('does not apply a folder\'s rules outside it', () => {
      assert.equal(names().mayHide('fs/x.tmp'), false);
    });

    it('reads each folder\'s rules once', () => {
      const reads: string[] = [];
      const counted = new IgnoredNames(
        (folder) => folder in texts,
        (folder) => {
          reads.push(folder);
          return texts[folder];
        },
      );
      counted.mayHide('drivers/net/a.c');
      counted.mayHide('drivers/net/b.c');
      assert.deepEqual(reads, ['', 'drivers', 'drivers/net']);
    });
  });
});
