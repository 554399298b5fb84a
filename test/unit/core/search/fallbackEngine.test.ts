import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findFiles } from '../../../../src/core/tools/glob';
import { grepTool, searchText } from '../../../../src/core/tools/grep';
import { resultText, testContext } from '../../support/context';
import { invokeTool } from '../../../../src/core/tools/invoke';
import { makeSearchTree, type SearchTree } from '../../support/searchTree';

// The walk over the FileSystem port with re2js, which the tools use when no ripgrep binary is given.
// The budget cases call the tools' searchText/findFiles only to pass a time budget of 0.
describe('search/fallbackEngine', () => {
  let tree: SearchTree;
  before(() => {
    tree = makeSearchTree();
  });
  after(() => tree.remove());

  it('matches a catastrophic-backtracking pattern against a long line in linear time', async () => {
    fs.writeFileSync(path.join(tree.root, 'redos.txt'), `${'a'.repeat(50_000)}!\n`);
    try {
      const text = resultText(await invokeTool(grepTool, { pattern: '(a+)+$', path: 'redos.txt' }, testContext({ root: tree.root })));
      assert.equal(text, 'No matches for "(a+)+$" in redos.txt.');
    } finally {
      fs.rmSync(path.join(tree.root, 'redos.txt'));
    }
  });

  it('answers an invalid regex with re2js words in the engine message', async () => {
    await assert.rejects(invokeTool(grepTool, { pattern: 'foo(' }, testContext({ root: tree.root })), /Invalid regular expression "foo\(":\nregex parse error: missing closing \)/);
  });

  it('grep returns with a note when the time budget is already spent', async () => {
    const text = resultText(await searchText({ pattern: 'TODO' }, testContext({ root: tree.root }), 0));
    assert.match(text, /\[The search stopped after 0 s, so these are partial results\. Pass a narrower path or glob\.\]$/);
  });

  it('glob returns with a note when the time budget is already spent', async () => {
    const text = resultText(await findFiles({ pattern: '**/*' }, testContext({ root: tree.root }), 0));
    assert.match(text, /\[The search stopped after 0 s, so these are partial results\. Pass a narrower path or pattern\.\]$/);
  });
});
