// Loading Mozilla's pdf.js: from next to the bundle (dist/pdfjs, what the .vsix ships), else from
// node_modules (unit tests): the extension's Libraries.pdfJs. The text extraction itself is ../pdfText.ts.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

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
export async function importPdfJs(): Promise<unknown> {
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
