// Every link in the README and the docs lands somewhere: a relative link on a file of the checkout
// (and its #anchor on a heading, by GitHub's slug rules), and an absolute link into this project's
// repository (package.json's "repository") on a file or heading of the checkout as well. The README
// is the Marketplace page, where relative links break, so it has none. The link reading is a
// careful regex (test/support/docs/markdownLinks.ts): no Markdown library is a dependency.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { markdownAnchors, markdownLinks } from '../../support/docs/markdownLinks';

const root = path.resolve(__dirname, '../../../..');
const repository = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { repository?: { url?: string } }).repository?.url ?? '';
const repositoryPath = /^https:\/\/github\.com\/([^/]+\/[^/]+?)(?:\.git)?\/?$/.exec(repository)?.[1] ?? '(package.json names no GitHub repository)';
const blobPrefix = `https://github.com/${repositoryPath}/`;
const rawPrefix = `https://raw.githubusercontent.com/${repositoryPath}/main/`;

const docsFolder = path.join(root, 'docs');
const docsFiles = fs.existsSync(docsFolder) ? fs.readdirSync(docsFolder).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`) : [];
const checkedFiles = ['README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', ...docsFiles];

/** A problem with the link, or undefined when it lands on a file (and heading) of the checkout. */
function problemWith(target: string, fromFile: string): string | undefined {
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
  let file: string;
  if (pathPart === '') {
    file = fromFile;
  } else if (target.startsWith(blobPrefix)) {
    const rest = /^(?:blob|tree)\/main\/(.+)$/.exec(pathPart.slice(blobPrefix.length));
    if (rest === null) {
      return `a link into ${repository} must name blob/main/<path> or tree/main/<path>`;
    }
    file = decodeURIComponent(rest[1]);
  } else if (target.startsWith(rawPrefix)) {
    file = decodeURIComponent(pathPart.slice(rawPrefix.length));
  } else if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    return undefined; // another site: not checked offline
  } else {
    file = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), decodeURIComponent(pathPart)));
  }
  const absolute = path.join(root, file);
  if (file.startsWith('..') || !fs.existsSync(absolute)) {
    return `${file} does not exist`;
  }
  if (anchor !== undefined) {
    if (!file.endsWith('.md')) {
      return `#${anchor} points into ${file}, which is not Markdown`;
    }
    if (!markdownAnchors(fs.readFileSync(absolute, 'utf8')).has(anchor)) {
      return `${file} has no heading whose anchor is #${anchor}`;
    }
  }
  return undefined;
}

describe('links in the README and the docs', () => {
  it('reads the repository from package.json', () => {
    assert.match(repository, /^https:\/\/github\.com\/[^/]+\/[^/]+$/);
  });

  it('has the docs pages, design.md among them', () => {
    assert.ok(docsFiles.includes('docs/design.md'), 'docs/design.md is missing: the code cites its sections');
  });

  for (const file of checkedFiles) {
    it(`${file}: every link lands on a file and heading of the checkout`, () => {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      const problems = markdownLinks(text)
        .map((link) => ({ link, problem: problemWith(link.target, file) }))
        .filter((checked) => checked.problem !== undefined)
        .map(({ link, problem }) => `${file}:${link.line}: ${link.target}: ${problem}`);
      assert.deepEqual(problems, []);
    });
  }

  it('README.md links absolutely, as the Marketplace breaks relative links', () => {
    const relative = markdownLinks(fs.readFileSync(path.join(root, 'README.md'), 'utf8'))
      .filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link.target))
      .map((link) => `README.md:${link.line}: ${link.target}`);
    assert.deepEqual(relative, []);
  });

  it('README.md lists every docs page under Documentation', () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const documentation = readme.slice(readme.indexOf('## Documentation'));
    const missing = docsFiles.filter((file) => !documentation.includes(`${blobPrefix}blob/main/${file})`));
    assert.deepEqual(missing, []);
  });

  it('keeps README.md within 20 KB and ARCHITECTURE.md within 15 KB', () => {
    assert.ok(fs.statSync(path.join(root, 'README.md')).size <= 20_000, 'README.md is over 20 KB: move detail to docs/');
    assert.ok(fs.statSync(path.join(root, 'ARCHITECTURE.md')).size <= 15_000, 'ARCHITECTURE.md is over 15 KB: move detail to CONTRIBUTING.md or docs/');
  });
});

describe('markdownLinks and markdownAnchors', () => {
  it('names only test files and folders that exist in the security page\'s promises, and every promise names one', () => {
    const text = fs.readFileSync(path.join(root, 'docs/security.md'), 'utf8');
    const section = text.slice(text.indexOf('## What it promises'), text.indexOf('\n## ', text.indexOf('## What it promises') + 1));
    const rows = section.split('\n').filter((line) => line.startsWith('| **'));
    assert.ok(rows.length > 5, 'the promises are a table of | **promise** | tests |');
    for (const row of rows) {
      const cited = [...(row.split('|')[2] ?? '').matchAll(/`(test\/[^`]+)`/g)].map((match) => match[1]);
      assert.ok(cited.length > 0, `a promise without a test: ${row.slice(0, 80)}`);
      for (const file of cited) {
        assert.ok(fs.existsSync(path.join(root, file)), `docs/security.md cites ${file}, which does not exist`);
      }
    }
  });

  it('finds inline links, images and reference definitions, and skips code', () => {
    const text = ['[a](x.md) ![b](y.png "t") `[c](z.md)`', '```', '[d](w.md)', '```', '[e]: v.md'].join('\n');
    assert.deepEqual(markdownLinks(text).map((link) => link.target), ['x.md', 'y.png', 'v.md']);
  });

  it('makes anchors by GitHub\'s rules', () => {
    const anchors = markdownAnchors(['# The guard', '## Secrets stay out of the model\'s context', '### `npm test`: what it runs', '## The guard', '## 3. Guard'].join('\n'));
    assert.deepEqual([...anchors], ['the-guard', 'secrets-stay-out-of-the-models-context', 'npm-test-what-it-runs', 'the-guard-1', '3-guard']);
  });
});
