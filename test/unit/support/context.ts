import type { LanguageFeatures } from '../../../src/core/ports/language';
import * as os from 'node:os';
import * as v8 from 'node:v8';
import type { ChangePipeline, ToolContext } from '../../../src/core/context';
import type { CancellationSignal } from '../../../src/core/errors';
import { fileLocation, locationKey, type Location } from '../../../src/core/location';
import { joinTextParts } from '../../../src/core/output/budget';
import type { ApprovalAnswer, ApprovalRequest, Approver, ChoiceRequest } from '../../../src/core/ports/approval';
import type { EditorBuffers } from '../../../src/core/ports/editor';
import type { FileSystem } from '../../../src/core/ports/fileSystem';
import type { CommandHost } from '../../../src/core/ports/process';
import type { ReadLedger } from '../../../src/core/ports/readLedger';
import type { IgnoreFileIndex } from '../../../src/core/ports/search';
import type { WorkspaceInfo } from '../../../src/core/ports/workspace';
import { MemoryReadLedger } from '../../../src/core/changes/readLedger';
import { NodeFileSystem } from '../../../src/core/fs/node/nodeFileSystem';
import { LocalFirstSearchEngines } from '../../../src/core/search/engines';
import { RipgrepSearchEngine } from '../../../src/core/search/ripgrep/node/ripgrepEngine';
import { loadBashParser, loadPowerShellParser } from '../../../src/core/guard/command/shell/node/wasmGrammar';
import { importPdfJs } from '../../../src/core/read/node/pdfJs';
import { DEFAULT_SETTINGS, type ToolSettings } from '../../../src/core/settings';
import { systemClock } from '../../../src/core/time';

// V8 first runs WebAssembly on its baseline compiler (Liftoff) and recompiles hot functions with
// TurboFan on a background thread. tree-sitter-powershell's lexer is one giant function that
// TurboFan takes 15-20 s of CPU to compile (1-2 s for bash), and the test process waits for that
// compile at its end: in the unit tier it was the CPU of the whole PowerShell policy suite, whose
// parses take 2 s. The tests keep the baseline code; what a parse returns does not depend on it.
// Set before the grammars load (they load only through this file's libraries).
v8.setFlagsFromString('--liftoff-only');

export const neverCancelled: CancellationSignal = {
  isCancellationRequested: false,
  onCancellationRequested: () => ({ dispose: () => undefined }),
};

/** A cancellation token the test cancels by hand. */
export class ManualCancellation implements CancellationSignal {
  isCancellationRequested = false;
  private readonly listeners: (() => void)[] = [];
  onCancellationRequested(listener: () => void): { dispose(): void } {
    this.listeners.push(listener);
    return { dispose: () => undefined };
  }
  cancel(): void {
    this.isCancellationRequested = true;
    this.listeners.forEach((listener) => listener());
  }
}

/** An approver that answers from a script and remembers what it was asked. */
export class ScriptedApprover implements Approver {
  readonly asked: ApprovalRequest[] = [];
  /** The answer to questions with a third choice; by default yes or no as `answer` says. */
  choice: ApprovalAnswer | undefined;
  constructor(public answer: boolean) {}
  async confirm(request: ApprovalRequest): Promise<boolean> {
    this.asked.push(request);
    return this.answer;
  }
  async choose(request: ChoiceRequest): Promise<ApprovalAnswer> {
    this.asked.push(request);
    return this.choice ?? (this.answer ? 'accept' : 'reject');
  }
}

export interface TestContextOptions {
  root: string;
  settings?: Partial<ToolSettings>;
  workspace?: Partial<WorkspaceInfo>;
  approver?: ScriptedApprover;
  dirty?: Map<string, string>;
  /** Notebooks open with unsaved changes: path to the editor's cell texts. */
  dirtyNotebooks?: Map<string, readonly string[]>;
  fs?: FileSystem;
  token?: CancellationSignal;
  changes?: ChangePipeline;
  commands?: CommandHost;
  /** The confirmation chat showed for this call and the user accepted (CallInfo.chatConfirmation). */
  chatConfirmation?: string;
  /** A ripgrep binary for the search tools; without it they walk the file system port. */
  ripgrepPath?: string;
  /** Where the .gitignore files are, kept by watches (the extension's is the sandbox's index). */
  ignoreIndex?: IgnoreFileIndex;
  /** The ledger of an earlier context, so what was read stays known. */
  reads?: ReadLedger;
  /** The client's token budget for the result (VS Code's tokenizationOptions.tokenBudget). */
  tokenBudget?: number;
  /** The editor's language services (test/unit/support/language.ts). */
  language?: LanguageFeatures;
}

/** A ToolContext over the real local disk, as the extension builds it, minus VS Code. */
export function testContext(options: TestContextOptions): ToolContext & { session: { approver: ScriptedApprover } } {
  const dirty = options.dirty ?? new Map<string, string>();
  const dirtyNotebooks = options.dirtyNotebooks ?? new Map<string, readonly string[]>();
  // The maps are keyed by the host's path (`C:\\x` on Windows): each key is found as the extension finds a path, through fileLocation.
  const buffer = <T>(map: ReadonlyMap<string, T>, location: Location): T | undefined => [...map].find(([key]) => locationKey(fileLocation(key)) === locationKey(location))?.[1];
  const buffers: EditorBuffers = { dirtyText: (location: Location) => buffer(dirty, location), dirtyNotebookCells: (location: Location) => buffer(dirtyNotebooks, location) };
  const fs = options.fs ?? new NodeFileSystem();
  return {
    host: { fs, buffers, clock: systemClock, search: new LocalFirstSearchEngines(fs, options.ripgrepPath === undefined ? undefined : new RipgrepSearchEngine(options.ripgrepPath, fs, options.ignoreIndex)), commands: options.commands, language: options.language, libraries: { bashParser: loadBashParser, powerShellParser: loadPowerShellParser, pdfJs: importPdfJs } },
    session: { approver: options.approver ?? new ScriptedApprover(false), reads: options.reads ?? new MemoryReadLedger(), changes: options.changes },
    call: { token: options.token ?? neverCancelled, ...(options.chatConfirmation !== undefined ? { chatConfirmation: options.chatConfirmation } : {}), tokenBudget: options.tokenBudget },
    settings: { ...DEFAULT_SETTINGS, ...options.settings },
    workspace: { folders: [{ name: 'ws', location: fileLocation(options.root) }], trusted: true, home: os.homedir(), platform: process.platform, ...options.workspace },
  };
}

/** The text of a result's text parts. */
export function resultText(result: { parts: readonly { kind: string; text?: string }[] }): string {
  // A long text comes in several parts split after a line end; they join back as they were.
  const texts = result.parts.map((part) => (part.kind === 'text' ? (part.text ?? '') : `<${part.kind}>`));
  return joinTextParts(texts);
}
