// Text encodings the tools read and write without loss: UTF-8, UTF-8 with BOM, UTF-16 LE/BE with BOM.
import { TextDecoder } from 'node:util';

export type TextEncodingName = 'utf8' | 'utf8bom' | 'utf16le' | 'utf16be';

export interface DetectedEncoding {
  readonly encoding: TextEncodingName;
  /** Bytes of byte-order mark at the start of the file. */
  readonly bomLength: number;
}

/** Looks at the byte-order mark; no mark means UTF-8. */
export function detectEncoding(bytes: Uint8Array): DetectedEncoding {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { encoding: 'utf8bom', bomLength: 3 };
  }
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { encoding: 'utf16le', bomLength: 2 };
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { encoding: 'utf16be', bomLength: 2 };
  }
  return { encoding: 'utf8', bomLength: 0 };
}

/** The WHATWG decoder label for an encoding. */
export function decoderLabel(encoding: TextEncodingName): string {
  return encoding === 'utf16le' ? 'utf-16le' : encoding === 'utf16be' ? 'utf-16be' : 'utf-8';
}

/** A streaming decoder that skips the BOM itself (the caller passes bytes after it). */
export function createDecoder(encoding: TextEncodingName): TextDecoder {
  return new TextDecoder(decoderLabel(encoding), { ignoreBOM: true });
}

/** Decodes a whole file, returning the text without its BOM and the encoding to write it back with. */
export function decodeText(bytes: Uint8Array): { text: string; encoding: TextEncodingName } {
  const { encoding, bomLength } = detectEncoding(bytes);
  return { text: createDecoder(encoding).decode(bytes.subarray(bomLength)), encoding };
}

/** Encodes text back into the bytes of the given encoding, BOM included. */
export function encodeText(text: string, encoding: TextEncodingName): Uint8Array {
  if (encoding === 'utf8' || encoding === 'utf8bom') {
    const body = new TextEncoder().encode(text);
    if (encoding === 'utf8') {
      return body;
    }
    const out = new Uint8Array(body.length + 3);
    out.set([0xef, 0xbb, 0xbf]);
    out.set(body, 3);
    return out;
  }
  const out = new Uint8Array(2 + text.length * 2);
  const view = new DataView(out.buffer);
  const littleEndian = encoding === 'utf16le';
  view.setUint16(0, 0xfeff, littleEndian);
  for (let i = 0; i < text.length; i += 1) {
    view.setUint16(2 + i * 2, text.charCodeAt(i), littleEndian);
  }
  return out;
}

/**
 * True when a sample of a file's start looks binary: a NUL byte in UTF-8 text, as git and ripgrep
 * decide. UTF-16 text is full of NULs, so it is judged by its BOM instead.
 */
export function looksBinary(sample: Uint8Array): boolean {
  const { encoding } = detectEncoding(sample);
  if (encoding === 'utf16le' || encoding === 'utf16be') {
    return false;
  }
  return sample.indexOf(0) !== -1;
}
