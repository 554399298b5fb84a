import * as assert from 'node:assert/strict';
import { TOOLS, toolNamed } from '../../../../src/core/tools';
import { editFileTool } from '../../../../src/core/tools/editFile';
import { listDirectoryTool } from '../../../../src/core/tools/listDirectory';
import { readFileTool } from '../../../../src/core/tools/readFile';
import { runCommandTool } from '../../../../src/core/tools/command/runCommand';
import { writeFileTool } from '../../../../src/core/tools/writeFile';

describe('tools/index', () => {
  it('finds each tool by its name', () => {
    for (const tool of [readFileTool, writeFileTool, editFileTool, listDirectoryTool, runCommandTool]) {
      const found = toolNamed(tool.name);
      assert.ok(found);
      assert.equal(found, tool);
    }
  });

  it('finds every tool of the list by its name', () => {
    for (const tool of TOOLS) {
      assert.equal(toolNamed(tool.name), tool);
    }
  });

  it('answers undefined for an unknown name', () => {
    assert.equal(toolNamed('workspace_no_such_tool'), undefined);
  });

  it('keeps every description within the 2,048 characters an MCP client keeps (Claude Code cuts the rest), with the tool\'s purpose first', () => {
    for (const tool of TOOLS) {
      assert.ok(tool.modelDescription.length <= 2048, `${tool.name}: ${tool.modelDescription.length} characters`);
      assert.doesNotMatch(tool.modelDescription.split('\n')[0], /^(Result|Sandbox|Long-running)/, tool.name);
    }
  });
});
