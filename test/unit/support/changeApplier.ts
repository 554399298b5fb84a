import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChangePipeline } from '../../../src/core/context';
import { hostPath, type Location } from '../../../src/core/location';
import type { AppliedChange, ChangePlan, ChangeReviewer, ChangeWriter } from '../../../src/core/ports/changes';

/** Where a planned file is on this disk (`C:/x` for the location `/C:/x` on Windows), as the extension's writer finds it. */
function diskPath(location: Location): string {
  return hostPath(location, process.platform);
}

/**
 * The change pipeline over the local disk for unit tests: answers reviews from a script, remembers the
 * plans it was shown, and writes exactly the planned bytes (refusing when the disk changed since planning).
 */
export class RecordingChangeApplier implements ChangeReviewer, ChangeWriter, ChangePipeline {
  readonly reviewed: ChangePlan[] = [];
  readonly applied: ChangePlan[] = [];
  readonly reviewer: ChangeReviewer = this;
  readonly writer: ChangeWriter = this;
  constructor(public accept = true) {}

  async review(plan: ChangePlan): Promise<boolean> {
    this.reviewed.push(plan);
    return this.accept;
  }

  async write(plan: ChangePlan): Promise<AppliedChange> {
    for (const file of plan.files) {
      if (file.before && !file.before.fromEditor && !fs.readFileSync(diskPath(file.location)).equals(Buffer.from(file.before.bytes))) {
        throw new Error(`${file.shownPath} changed on disk during review`);
      }
    }
    for (const file of plan.files) {
      if (file.kind === 'delete') {
        fs.rmSync(diskPath(file.location));
        continue;
      }
      const after = file.after;
      if (!after) {
        throw new Error('a create or modify without content');
      }
      const destination = diskPath(file.moveTo ?? file.location);
      fs.mkdirSync(path.dirname(destination), { recursive: true });
      fs.writeFileSync(destination, after.bytes);
      if (file.moveTo) {
        fs.rmSync(diskPath(file.location));
      }
    }
    this.applied.push(plan);
    return { notes: [] };
  }
}
