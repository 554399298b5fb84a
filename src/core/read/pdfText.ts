// PDF text extraction with Mozilla's pdf.js, page by page.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

interface TextItemLike {
  readonly str?: string;
  readonly hasEOL?: boolean;
}

interface PdfJsModule {
  getDocument(params: { data: Uint8Array; useSystemFonts: boolean; isEvalSupported: boolean; disableFontFace: boolean; verbosity: number }): {
    promise: Promise<{
      numPages: number;
      getPage(n: number): Promise<{ getTextContent(): Promise<{ items: TextItemLike[] }>; cleanup(): void }>;
      destroy(): Promise<void>;
    }>;
  };
}

// A real dynamic import, which esbuild and tsc would otherwise turn into require() of an ES module.
const importModule = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

/** pdf.js next to the bundle (dist/pdfjs, what the .vsix ships), else from node_modules (unit tests). */
function pdfJsSpecifier(): string {
  const bundled = path.join(__dirname, 'pdfjs', 'pdf.mjs');
  return existsSync(bundled) ? pathToFileURL(bundled).href : 'pdfjs-dist/legacy/build/pdf.mjs';
}

/**
 * Loads pdf.js. Its Node polyfill assigns globalThis.navigator when navigator?.language is unset;
 * VS Code 1.139's extension host makes navigator a getter without setter (unless
 * extensions.supportNodeGlobalNavigator), so that assignment throws. The property is a plain
 * writable one while pdf.js loads, then the host's getter is put back.
 */
async function importPdfJs(): Promise<unknown> {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  const getterOnly = descriptor !== undefined && descriptor.get !== undefined && descriptor.set === undefined && descriptor.configurable === true;
  if (!getterOnly) return importModule(pdfJsSpecifier());
  Object.defineProperty(globalThis, 'navigator', { value: undefined, writable: true, configurable: true });
  try {
    return await importModule(pdfJsSpecifier());
  } finally {
    Object.defineProperty(globalThis, 'navigator', descriptor);
  }
}

/** The text of each page, in order. `maxPages` bounds the work on huge documents. */
export async function extractPdfPages(data: Uint8Array, maxPages: number): Promise<{ pages: string[]; numPages: number }> {
  const pdfjs = (await importPdfJs()) as PdfJsModule;
  // pdf.js detaches the buffer it is given, so hand it a copy.
  const loading = pdfjs.getDocument({ data: new Uint8Array(data), useSystemFonts: false, isEvalSupported: false, disableFontFace: true, verbosity: 0 });
  const document = await loading.promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= Math.min(document.numPages, maxPages); n += 1) {
      const page = await document.getPage(n);
      const content = await page.getTextContent();
      pages.push(content.items.map((item) => (item.str ?? '') + (item.hasEOL ? '\n' : '')).join('').trim());
      page.cleanup();
    }
    return { pages, numPages: document.numPages };
  } finally {
    await document.destroy();
  }
}
