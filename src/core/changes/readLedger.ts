import type { FileFingerprint, ReadLedger } from '../ports/readLedger';
import type { Location } from '../location';
import { locationKey } from '../location';

/** The ReadLedger of one extension session, in memory. */
export class MemoryReadLedger implements ReadLedger {
  private readonly entries = new Map<string, FileFingerprint>();

  record(location: Location, fingerprint: FileFingerprint): void {
    this.entries.set(locationKey(location), fingerprint);
  }

  lookup(location: Location): FileFingerprint | undefined {
    return this.entries.get(locationKey(location));
  }
}
