// The contract between the command policy and what judges for it: the options a policy run takes,
// and the path judge the guard provides. Apart from policy.ts so the helpers below it (linePaths.ts,
// pathJudge.ts) take these types without importing the module that imports them.
import type { Judgement } from '../../decisions';
import type { Libraries } from '../../ports/libraries';
import type { TerminalAskRule } from '../../settings';
import type { RepositoryView } from './gitRepository';
import type { ListDirectory } from './globs';

/** How a path a command touches fares under the guard's rule table. */
export type PathJudge = (absolutePath: string, access: 'read' | 'write') => Promise<Judgement>;

export interface CommandPolicyOptions {
  /** The absolute folder the command starts in. */
  readonly cwd: string;
  /** The home folder, for `~`. */
  readonly home: string;
  /** workspaceAgentTools.runCommand.allow: prefixes or /regex/ of commands that run without asking. */
  readonly allow: readonly string[];
  /** workspaceAgentTools.runCommand.deny: prefixes or /regex/ of commands that are refused. */
  readonly deny: readonly string[];
  /** VS Code's own chat.tools.terminal.autoApprove entries that deny: a floor, they ask here whatever allow says. */
  readonly terminalAskRules: readonly TerminalAskRule[];
  /** The guard's verdict for a path (read for `<` and arguments of reading commands, write for `>`). */
  readonly judgePath: PathJudge;
  /**
   * True when a write to the absolute path lands inside a workspace folder, the path and where its
   * links lead both (a staged command's writes there are caught and shown for review). Absent: no
   * write is ever counted as one, so no line asks only because it writes in the workspace.
   */
  readonly workspaceWrite?: (absolutePath: string) => Promise<boolean>;
  /** The names in a folder (undefined when it is not a listable folder), to expand globs. */
  readonly listDirectory: ListDirectory;
  /** The disk as git's discovery sees it, to find the repository each git would use. */
  readonly repositories: RepositoryView;
  /** The bash parser that reads the line (Libraries.bashParser). */
  readonly bashParser: Libraries['bashParser'];
  /** Glob characters match names in any case (PowerShell's wildcards on Windows); absent: as bash, case matters. */
  readonly ignoreCaseInGlobs?: boolean;
  /** The PowerShell parser that reads a line for PowerShell (Libraries.powerShellParser). */
  readonly powerShellParser: Libraries['powerShellParser'];
}
