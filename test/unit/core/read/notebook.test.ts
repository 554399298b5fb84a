import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cellSource, renderNotebook, replaceCellSource } from '../../../../src/core/read/notebook';

const FIXTURE = fs.readFileSync(path.resolve(__dirname, '../../../../../test/fixtures/files/cells.ipynb'), 'utf8');

describe('read/notebook', () => {
  it('renders cells with index, kind, language, numbered source and outputs as text', () => {
    assert.equal(
      renderNotebook(FIXTURE, 'nb.ipynb'),
      [
        'nb.ipynb: a notebook of 2 cells (python). Edit a cell with workspace_edit_file and cell=<index>; pass offset to read the raw JSON.',
        '',
        '[cell 0] markdown markdown',
        '     1\t# Title',
        '     2\tSome text',
        '',
        '[cell 1] code python',
        '     1\tvalue = 42',
        '     2\tprint(f"hello {value}")',
        '  output:',
        '    hello 42',
        '    <Figure size 640x480 with 1 Axes>',
      ].join('\n'),
    );
  });

  it('leaves text that is not a notebook alone', () => {
    assert.equal(renderNotebook('{"a": 1}', 'x.ipynb'), undefined);
    assert.equal(renderNotebook('not json', 'x.ipynb'), undefined);
  });

  it("replaces one cell's source in Jupyter's style and keeps every other byte", () => {
    const after = replaceCellSource(FIXTURE, 1, 'value = 43\nprint(value)\n', 'nb.ipynb');
    const expected = FIXTURE.replace('    "value = 42\\n",\n    "print(f\\"hello {value}\\")"\n', '    "value = 43\\n",\n    "print(value)\\n"\n');
    assert.notEqual(expected, FIXTURE);
    assert.equal(after, expected);
    assert.equal(cellSource(after, 1, 'nb.ipynb'), 'value = 43\nprint(value)\n');
  });

  it('refuses a cell index past the last cell, naming the range', () => {
    assert.throws(() => cellSource(FIXTURE, 5, 'nb.ipynb'), /cell 5 does not exist: nb\.ipynb has 2 cells \(0 to 1\)/);
  });
});
