// The workspace port: the open folders and the state that decides what tools may do there.
import type { WorkspaceFolder } from '../location';

/** What the tools need to know about the open workspace. */
export interface WorkspaceInfo {
  readonly folders: readonly WorkspaceFolder[];
  /** False in Restricted Mode: only read tools may work. */
  readonly trusted: boolean;
  /** The user's home directory on the machine the extension host runs on, for `~` and sensitive paths. */
  readonly home: string;
  /**
   * The operating system the extension host runs on (Node's process.platform). On `win32` a tool's
   * path may use backslashes, drive letters and UNC shares, and Windows' device names are refused.
   */
  readonly platform?: string;
}
