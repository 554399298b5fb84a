// Bytes compared and hashed the same way everywhere.
import { createHash } from 'node:crypto';

/** True when both hold the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}

/** The SHA-256 of bytes, or of a string's UTF-8, as hex. */
export function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}
