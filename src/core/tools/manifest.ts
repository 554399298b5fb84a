import type { JsonSchema, ToolDescription } from './toolSpec';

/** One entry of package.json's contributes.languageModelTools. */
export interface ManifestToolEntry {
  name: string;
  displayName: string;
  toolReferenceName: string;
  userDescription: string;
  modelDescription: string;
  icon: string;
  canBeReferencedInPrompt: boolean;
  tags: string[];
  when?: string;
  inputSchema: JsonSchema;
}

/** The manifest entry a spec must have; scripts/sync-manifest writes these, a unit test compares them. */
export function manifestEntry(spec: ToolDescription): ManifestToolEntry {
  return {
    name: spec.name,
    displayName: spec.displayName,
    toolReferenceName: spec.toolReferenceName,
    userDescription: spec.userDescription,
    modelDescription: spec.modelDescription,
    icon: spec.icon,
    canBeReferencedInPrompt: true,
    tags: ['workspace', spec.access === 'read' ? 'read' : spec.access === 'write' ? 'edit' : 'terminal'],
    ...(spec.when === undefined ? {} : { when: spec.when }),
    inputSchema: spec.inputSchema,
  };
}

/** The palette command of a tool (workspace_read_file: workspaceAgentTools.tool.readFile): it collects the input and runs the tool through invokeTool. */
export function toolCommandId(spec: ToolDescription): string {
  const short = spec.name.replace(/^workspace_/, '').replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return `workspaceAgentTools.tool.${short}`;
}

export interface ManifestCommand {
  command: string;
  title: string;
  category: string;
  icon: string;
}

export function manifestCommand(spec: ToolDescription): ManifestCommand {
  return { command: toolCommandId(spec), title: `${spec.displayName}...`, category: 'Workspace Agent Tools', icon: spec.icon };
}

/** Where a tool's palette command shows: writes need trust, commands also a real file system. */
export function paletteWhen(spec: ToolDescription): { command: string; when: string } {
  const when = spec.access === 'read' ? 'true' : spec.access === 'write' ? 'isWorkspaceTrusted' : 'isWorkspaceTrusted && !virtualWorkspace';
  return { command: toolCommandId(spec), when };
}
