// Writes a reviewed plan as one WorkspaceEdit (one undo step), then saves what it touched. Unsaved
// editor text is the baseline, nothing is written unless every file is still what the user
// reviewed, and a failure puts back every path the write had changed. `write` is the whole path,
// one step a line; each step lives in the file named after it, in this order:
//   writeTargets.ts      each file's URI, open document or notebook, and mode, resolved once
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
import { resolveTargets } from './writeTargets';

export class WorkspaceEditApplier implements ChangeWriter {
  async write(plan: ChangePlan, token: CancellationSignal): Promise<AppliedChange> {
    const targets = await resolveTargets(plan);
    await verifyUnchanged(targets);
    throwIfCancelled(token);
    const before = await snapshot(targets);
    const errorsBefore = plan.reportDiagnostics ? errorKeys(targets) : new Map<string, Set<string>>();
    const planned = await planWrite(targets);
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
    const notes = plan.reportDiagnostics ? await newErrors(targets, errorsBefore) : [];
    return { notes };
  }
}
