// Writes a reviewed plan as one WorkspaceEdit (one undo step), then saves what it touched. Unsaved
// editor text is the baseline, nothing is written unless every file is still what the user
// reviewed, and a failure puts back every path the write had changed. `write` is the whole path,
// one step a line; each step lives in the file named after it, in this order:
//   verifyUnchanged.ts   the files are still what the user reviewed
//   restoreOnFailure.ts  snapshot: what every path holds now, for a restore
//   newDiagnostics.ts    errorKeys: the errors the language services report now
//   planWrite.ts         the WorkspaceEdit, and which files are saved, written as bytes, given modes back
//   applyEdit.ts         parent folders, the edit, the created files checked
//   saveFiles.ts         documents saved with the approved bytes, byte writes, modes
//   restoreOnFailure.ts  on any failure: restore, remove the folders made, say what happened
//   newDiagnostics.ts    newErrors: errors that appeared, for the model
import { throwIfCancelled, type CancellationSignal } from '../../core/errors';
import type { AppliedChange, ChangePlan, ChangeWriter } from '../../core/ports/changes';
import { applyEdit, createParentFolders, verifyCreated, verifyNoTypingSincePlanned } from './applyEdit';
import { errorKeys, newErrors } from './newDiagnostics';
import { planWrite } from './planWrite';
import { restoreOnFailure, snapshot, type WriteProgress } from './restoreOnFailure';
import { putModesBack, saveDocuments, writeBytes } from './saveFiles';
import { verifyUnchanged } from './verifyUnchanged';

export class WorkspaceEditApplier implements ChangeWriter {
  async write(plan: ChangePlan, token: CancellationSignal): Promise<AppliedChange> {
    await verifyUnchanged(plan);
    throwIfCancelled(token);
    const before = await snapshot(plan);
    const errorsBefore = plan.reportDiagnostics ? errorKeys(plan) : new Map<string, Set<string>>();
    const planned = await planWrite(plan);
    const progress: WriteProgress = { createdFolders: [], writing: false };
    try {
      await createParentFolders(planned, progress.createdFolders);
      verifyNoTypingSincePlanned(planned);
      progress.writing = true;
      await applyEdit(planned);
      await verifyCreated(planned);
      await saveDocuments(planned);
      await writeBytes(planned);
      await putModesBack(planned);
    } catch (error) {
      throw await restoreOnFailure(error, progress, before);
    }
    const notes = plan.reportDiagnostics ? await newErrors(plan, errorsBefore) : [];
    return { notes };
  }
}
