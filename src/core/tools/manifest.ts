import type { JsonSchema, ToolSpec } from './toolSpec';

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
export function manifestEntry(spec: ToolSpec<never>): ManifestToolEntry {
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
