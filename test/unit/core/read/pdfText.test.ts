import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { extractPdfPages } from '../../../../src/core/read/pdfText';
import { importPdfJs } from '../../../../src/core/read/node/pdfJs';
import { REPO_ROOT } from '../../support/paths';

describe('read/pdfText', () => {
  const pdf = (): Uint8Array => fs.readFileSync(path.join(REPO_ROOT, 'test/fixtures/files/two-pages.pdf'));

  // First in the file: pdf.js's Node setup runs once, when the module is first imported.
  it("reads where the host's navigator is a getter without a setter (VS Code 1.139's extension host), and puts that getter back", async () => {
    const original = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
    const getter = (): undefined => undefined;
    Object.defineProperty(globalThis, 'navigator', { get: getter, configurable: true });
    try {
      assert.equal((await extractPdfPages(pdf(), 10, importPdfJs)).numPages, 2);
      assert.equal(Object.getOwnPropertyDescriptor(globalThis, 'navigator')?.get, getter);
    } finally {
      if (original) {
        Object.defineProperty(globalThis, 'navigator', original);
      } else {
        delete (globalThis as { navigator?: unknown }).navigator;
      }
    }
  });
  it('reads every page', async () => {
    const { pages, numPages } = await extractPdfPages(pdf(), 10, importPdfJs);
    assert.equal(numPages, 2);
    assert.equal(pages.length, 2);
  });

});
