// Everything a tool's run function may use, grouped by how long it lives: the host's services (as
// long as the extension), the session's (the read ledger, the approval queue, the change pipeline),
// this call's (cancellation, chat's confirmation, the observer), and the settings and workspace as
// they were when the call started.
import type { CancellationSignal } from './errors';
import type { Approver } from './ports/approval';
import type { ChangeReviewer, ChangeWriter } from './ports/changes';
import type { CallCheckpoint } from './ports/checkpoints';
import type { Clock } from './ports/clock';
import type { EditorBuffers } from './ports/editor';
import type { FileSystem } from './ports/fileSystem';
import type { HeldCalls } from './ports/heldCalls';
import type { LanguageFeatures } from './ports/language';
import type { Libraries } from './ports/libraries';
import type { CallObserver } from './ports/observer';
import type { CommandHost } from './ports/process';
import type { ReadLedger } from './ports/readLedger';
import type { SearchEngines } from './ports/search';
import type { WorkspaceInfo } from './ports/workspace';
import type { ToolSettings } from './settings';

/** What the machine and the editor offer. */
export interface HostServices {
  readonly fs: FileSystem;
  readonly buffers: EditorBuffers;
  readonly clock: Clock;
  readonly search: SearchEngines;
  /** Present where commands can run (a workspace on a disk); absent on virtual workspaces. */
  readonly commands?: CommandHost;
  /** The editor's language services (problems, symbols, references, renames); absent outside VS Code. */
  readonly language?: LanguageFeatures;
  /** The libraries loaded from files beside the extension: the shell parser, pdf.js. */
  readonly libraries: Libraries;
}

/** Reviews and writes file changes. */
export interface ChangePipeline {
  readonly reviewer: ChangeReviewer;
  readonly writer: ChangeWriter;
}

/** What outlives one call. */
export interface SessionServices {
  readonly reads: ReadLedger;
  readonly approver: Approver;
  /** Absent where the host cannot write (the write tools then refuse). */
  readonly changes?: ChangePipeline;
  /** Calls a client stopped waiting for (MCP); absent where no call is ever held. */
  readonly heldCalls?: HeldCalls;
}

/** This call. */
export interface CallInfo {
  readonly token: CancellationSignal;
  /**
   * The confirmation VS Code's chat showed for this call and the user accepted (its message, as the
   * tool's `confirmation` wrote it); absent when chat showed none. A tool skips its own question
   * only when the question it would ask now is this one (calls/chatConfirmations.ts).
   */
  readonly chatConfirmation?: string;
  /** Listens for the activity log. */
  readonly observer?: CallObserver;
  /** The tokens the client has room for in this result (VS Code's tokenizationOptions.tokenBudget), if it said. */
  readonly tokenBudget?: number;
  /** The call's checkpoints: a tool that changes files calls beforeChange right before it does. Absent when checkpoints are off. */
  readonly checkpoint?: CallCheckpoint;
  /**
   * When the caller needs an answer by (`ctx.host.clock` ms), for clients that cut a call after a
   * time limit (MCP): a foreground command still running then moves to the background and the
   * call returns with its id; a wait returns what it has. Ask again when waking: the time moves
   * later when someone waits on the call again (workspace_review_status). Absent: no limit.
   */
  readonly returnBy?: () => number | undefined;
}

export interface ToolContext {
  readonly host: HostServices;
  readonly session: SessionServices;
  readonly call: CallInfo;
  readonly settings: ToolSettings;
  readonly workspace: WorkspaceInfo;
}
