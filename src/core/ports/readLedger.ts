// The read ledger port: what the agent has seen, so a write can refuse to overwrite what it has not.
import type { Location } from '../location';

/** Identifies a version of a file: a content hash when the whole file was read, else size and mtime. */
export interface FileFingerprint {
  /** Size in bytes (of the text's UTF-16 length for editor text). */
  readonly size: number;
  /** Modification time in milliseconds since the epoch (0 for editor text). */
  readonly mtime: number;
  /** SHA-256 of the file's bytes, when the whole file was read. */
  readonly sha256?: string;
  /** SHA-256 of the UTF-8 of an editor's unsaved text, when the agent read that instead of the file. */
  readonly textSha256?: string;
  /**
   * SHA-256 of the text with its line endings made LF, when the whole file was read as text: a file
   * whose bytes differ only in line endings (git's autocrlf rewrote it) is the text the agent saw.
   */
  readonly lfTextSha256?: string;
}

/** Remembers what the tools have read during the session. */
export interface ReadLedger {
  /** Records that the agent saw this file with this fingerprint. */
  record(location: Location, fingerprint: FileFingerprint): void;
  /** The fingerprint recorded at the last read, if any. */
  lookup(location: Location): FileFingerprint | undefined;
}
