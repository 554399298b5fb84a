// PDF text extraction with Mozilla's pdf.js, page by page, from the loader the caller passes in (the
// extension's is node/pdfJs.ts: Libraries.pdfJs).

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

/** The text of each page, in order. `maxPages` bounds the work on huge documents. */
export async function extractPdfPages(data: Uint8Array, maxPages: number, pdfJs: () => Promise<unknown>): Promise<{ pages: string[]; numPages: number }> {
  const pdfjs = (await pdfJs()) as PdfJsModule;
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
