import { applyPatchTool } from './applyPatch';
import { commandOutputTool } from './command/commandOutput';
import { editFileTool } from './editFile';
import { globTool } from './glob';
import { grepTool } from './grep';
import { diagnosticsTool } from './language/diagnostics';
import { findTool } from './language/find';
import { renameSymbolTool } from './language/renameSymbol';
import { symbolsTool } from './language/symbols';
import { listDirectoryTool } from './listDirectory';
import { readFileTool } from './readFile';
import { reviewStatusTool } from './reviewStatus';
import { runCommandTool } from './command/runCommand';
import { sendInputTool } from './command/sendInput';
import { stopCommandTool } from './command/stopCommand';
import type { Tool } from './toolSpec';
import { writeFileTool } from './writeFile';

/** Every tool, in the order the manifest lists them. Registration, the palette and the manifest all come from here. */
export const TOOLS: readonly Tool[] = [readFileTool, writeFileTool, editFileTool, listDirectoryTool, globTool, grepTool, runCommandTool, commandOutputTool, sendInputTool, stopCommandTool, applyPatchTool, reviewStatusTool, diagnosticsTool, symbolsTool, findTool, renameSymbolTool];

/** The tool of a name, or undefined. */
export function toolNamed(name: string): Tool | undefined {
  return TOOLS.find((tool) => tool.name === name);
}
