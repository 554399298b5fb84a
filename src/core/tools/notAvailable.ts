import { ToolError } from './toolSpec';

/** The error of a tool that is registered (so the model sees its schema) but not built yet. */
export function notAvailableYet(tool: string, alternative: string): never {
  throw new ToolError(`${tool} is not available yet in this version of Workspace Agent Tools. ${alternative}`);
}
