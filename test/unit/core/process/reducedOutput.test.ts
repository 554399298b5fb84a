import * as assert from 'node:assert/strict';
import { OutputCursor } from '../../../../src/core/process/outputCursor';
import { ReducedOutput } from '../../../../src/core/process/reducedOutput';

const passing = (count: number): string => Array.from({ length: count }, (_, index) => `  ✔ test number ${index}\n`).join('');

describe('process/reducedOutput: one stream reduced, then cut', () => {
  it('leaves output that fits the budget whole, only with its redraws resolved', () => {
    const kept = new ReducedOutput(1000, 1000, 'mocha');
    kept.append(`${passing(3)}10%\r100%\n`);
    const taken = kept.take();
    assert.equal(taken.text, `${passing(3)}100%\n`);
    assert.equal(taken.omittedChars, 0);
    assert.deepEqual(taken.reduction, { summary: '1 carriage-return redraw resolved to the last', keptChars: taken.text.length });
  });

  it('reduces output that would be cut, names what it left out, and cuts what is left', () => {
    const kept = new ReducedOutput(100, 100, 'mocha');
    const text = `${passing(500)}  1) fails\n  500 passing\n  1 failing\n`;
    kept.append(text);
    const taken = kept.take();
    assert.equal(taken.text, '  1) fails\n  500 passing\n  1 failing\n');
    assert.equal(taken.totalChars, text.length);
    assert.equal(taken.omittedChars, 0);
    assert.deepEqual(taken.reduction, { summary: '500 passing test lines dropped', keptChars: taken.text.length });
  });

  it('takes what arrived since the last take, the unfinished line included', () => {
    const kept = new ReducedOutput(20, 20);
    kept.append(`${'x'.repeat(50)}\nPassword: `);
    assert.match(kept.take().text, /Password: \n$/);
    kept.append('ok\n');
    const next = kept.take();
    assert.deepEqual([next.text, next.totalChars, next.reduction], ['ok\n', 3, undefined]);
  });
});

describe('process/outputCursor with the reduction', () => {
  it('reduces what a read shows, while wait_for still sees every raw line', () => {
    const cursor = new OutputCursor(50, 50, 'npm test');
    const lines = cursor.append(passing(100), 'stdout');
    assert.equal(lines.length, 100);
    assert.equal(lines[42], '  ✔ test number 42');
    assert.equal(cursor.untakenLines().at(-1), '  ✔ test number 99');
    const taken = cursor.take().stdout;
    assert.equal(taken.text, '');
    assert.equal(taken.reduction?.summary, '100 passing test lines dropped');
  });
});
