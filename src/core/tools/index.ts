import { applyPatchTool } from './applyPatch';
import { editFileTool } from './editFile';
import { globTool } from './glob';
import { grepTool } from './grep';
import { listDirectoryTool } from './listDirectory';
import { readFileTool } from './readFile';
import { runCommandTool } from './runCommand';
import type { ToolSpec } from './toolSpec';
import { writeFileTool } from './writeFile';

/** Every tool, in the order the manifest lists them. Registration and the manifest both come from here. */
export const TOOL_SPECS: readonly ToolSpec<never>[] = [
  readFileTool,
  writeFileTool,
  editFileTool,
  listDirectoryTool,
  globTool,
  grepTool,
  runCommandTool,
  applyPatchTool,
] as unknown as readonly ToolSpec<never>[];
