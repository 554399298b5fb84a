import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readFileTool } from '../../../src/core/tools/readFile';
import type { Tool } from '../../../src/core/tools/toolSpec';
import { RecordingChangeApplier } from './changeApplier';
import { resultText, testContext, type TestContextOptions } from './context';
import { invokeTool } from '../../../src/core/tools/invoke';
import { fixturePath } from './paths';

const FIXTURES = fixturePath('workspace/writing');

export interface WritingWorkspace {
  /** A fresh copy of test/fixtures/workspace/writing for each test. */
  readonly root: string;
  /** The change pipeline: accepts reviews unless told otherwise, and writes the planned bytes. */
  readonly applier: RecordingChangeApplier;
  readonly ctx: ReturnType<typeof testContext>;
  /** The absolute path of a workspace file. */
  file(name: string): string;
  /** The bytes of a workspace file on disk. */
  bytes(name: string): Buffer;
  /** A new context with these options, keeping the applier and what was read so far. */
  withOptions(options: Partial<TestContextOptions>): void;
  /** Calls a tool through invokeTool and returns the result's text. */
  run(tool: Tool, input: object): Promise<string>;
  /** Reads a file with workspace_read_file, which records it in the read ledger. */
  read(name: string): Promise<string>;
}

/**
 * The workspace the writing tools' suites share, made in a `beforeEach` hook of the calling
 * describe and removed in its `afterEach` hook.
 */
export function writingWorkspace(): WritingWorkspace {
  let root = '';
  let applier = new RecordingChangeApplier(true);
  let ctx: ReturnType<typeof testContext>;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-write-'));
    fs.cpSync(FIXTURES, root, { recursive: true });
    applier = new RecordingChangeApplier(true);
    ctx = testContext({ root, changes: applier });
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const file = (name: string): string => path.join(root, name);
  const run = async (tool: Tool, input: object): Promise<string> => resultText(await invokeTool(tool, input, ctx));
  return {
    get root() {
      return root;
    },
    get applier() {
      return applier;
    },
    get ctx() {
      return ctx;
    },
    file,
    bytes: (name) => fs.readFileSync(file(name)),
    withOptions: (options) => {
      ctx = testContext({ root, changes: applier, reads: ctx.session.reads, ...options });
    },
    run,
    read: (name) => run(readFileTool, { file_path: name }),
  };
}
