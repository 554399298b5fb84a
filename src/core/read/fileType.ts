// Recognises the binary formats read_file returns in a form other than text, by their magic bytes.

export type SniffedType =
  | { readonly kind: 'image'; readonly mimeType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' }
  | { readonly kind: 'pdf' }
  | { readonly kind: 'unknown' };

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return bytes.length >= at + signature.length && signature.every((byte, index) => bytes[at + index] === byte);
}

const ascii = (text: string): number[] => [...text].map((char) => char.charCodeAt(0));

/** The type of a file from the first bytes of its content. */
export function sniffFileType(head: Uint8Array): SniffedType {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return { kind: 'image', mimeType: 'image/png' };
  }
  if (startsWith(head, [0xff, 0xd8, 0xff])) {
    return { kind: 'image', mimeType: 'image/jpeg' };
  }
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) {
    return { kind: 'image', mimeType: 'image/gif' };
  }
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) {
    return { kind: 'image', mimeType: 'image/webp' };
  }
  if (startsWith(head, ascii('%PDF-'))) {
    return { kind: 'pdf' };
  }
  return { kind: 'unknown' };
}
