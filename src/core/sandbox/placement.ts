// Where one command runs and who must say yes first, from the sandbox setting, what the machine
// offers, the policy's decision and what the call asked for. The rules of docs/design.md section 5:
// a command that ran without asking has no network; one the user approved has it; leaving the
// sandbox, or the network for a command that did not ask, is asked in the extension's own
// question every time (never taken from a chat confirmation); `required` never leaves the sandbox.
import type { SandboxAvailability } from '../ports/process';
import type { SandboxMode } from '../settings';

/** What a call may ask for beyond the default: the network, or no sandbox at all. */
export type ExtraPermission = 'network' | 'unsandboxed';

/**
 * Who must approve: nobody; the policy's question (a chat confirmation counts); or this
 * extension's own question, which no chat confirmation and no setting can answer.
 */
export type Approval = 'none' | 'policy' | 'own';

export type Placement =
  | {
      readonly where: 'sandbox';
      readonly sandbox: Exclude<SandboxAvailability, { kind: 'none' }>;
      readonly network: boolean;
      readonly approval: Approval;
      readonly why?: string;
      readonly canLeave: boolean;
      /** Workspace folders on volumes that ignore letter case, where bubblewrap keeps protected and secret names under one spelling only. */
      readonly oneSpelling?: readonly string[];
    }
  | {
      readonly where: 'host';
      readonly approval: Approval;
      readonly why: string;
      /** Why the machine has no sandbox and what fixes it (e.g. "bubblewrap cannot start here: ...; fix"), when that is why it runs here. */
      readonly unavailable?: string;
      /** Windows, which has no OS sandbox for this extension: the `Sandbox:` line says so. */
      readonly windows?: boolean;
    }
  | { readonly where: 'refused'; readonly why: string };

/**
 * `readOnly`: the policy let the line through and it can change no file (CommandVerdict.readOnly).
 * On Windows, with no sandbox at all, only such a line runs without asking; elsewhere a machine
 * without its sandbox asks for every command, since the sandbox was expected and is missing.
 */
export function placeCommand(mode: SandboxMode, availability: SandboxAvailability, decision: 'allow' | 'ask', extra: ExtraPermission | undefined, readOnly = false): Placement {
  const policyApproval: Approval = decision === 'ask' ? 'policy' : 'none';
  if (mode === 'off') {
    return { where: 'host', approval: policyApproval, why: 'workspaceAgentTools.runCommand.sandbox is off' };
  }
  if (availability.kind === 'none') {
    const unavailable = describeUnavailable(availability);
    if (mode === 'required') {
      return { where: 'refused', why: `workspaceAgentTools.runCommand.sandbox is "required" and there is no sandbox: ${unavailable}` };
    }
    const windows = availability.windows ? { windows: true } : {};
    return decision === 'allow' && readOnly && extra === undefined && availability.windows
      ? { where: 'host', approval: 'none', why: 'the command policy found it read-only', unavailable, ...windows }
      : { where: 'host', approval: 'own', why: `there is no sandbox on this machine: ${unavailable}`, unavailable, ...windows };
  }
  if (extra === 'unsandboxed') {
    return mode === 'required'
      ? { where: 'refused', why: 'workspaceAgentTools.runCommand.sandbox is "required": commands never run outside the sandbox' }
      : { where: 'host', approval: 'own', why: 'the call asked to run outside the sandbox' };
  }
  const canLeave = mode === 'auto';
  if (extra === 'network' && decision === 'allow') {
    return { where: 'sandbox', sandbox: availability, network: true, approval: 'own', why: 'the call asked for the network', canLeave };
  }
  return { where: 'sandbox', sandbox: availability, network: decision === 'ask', approval: policyApproval, canLeave };
}

/**
 * bubblewrap keeps a protected or secret entry read-only or hidden by mounting over it, and a mount
 * covers the one spelling it was made on. On a volume that ignores letter case through FUSE or 9p
 * (exfat-fuse, ntfs-3g's ignore_case, WSL's /mnt/c) each spelling is its own entry to the kernel, so
 * `.GIT/hooks` and `.ENV` reach what `.git/hooks` and `.env` keep. Where a workspace folder is on such
 * a volume, no command runs unasked: the question is the extension's own and says why. (Seatbelt
 * matches names by pattern in any case, so this is bubblewrap's alone.)
 */
export function withCaseInsensitiveFolders<P extends Placement>(placement: P, folders: readonly string[]): P {
  if (placement.where !== 'sandbox' || placement.sandbox.kind !== 'bubblewrap' || folders.length === 0) {
    return placement;
  }
  const why = `${folders.join(', ')} ${folders.length === 1 ? 'is on a volume' : 'are on volumes'} that ignore${folders.length === 1 ? 's' : ''} letter case (or give${folders.length === 1 ? 's' : ''} names other spellings), where the sandbox keeps .git, .vscode and secret files read-only and hidden under the one spelling they have on disk: another spelling (.GIT/hooks, .ENV) reaches them`;
  return { ...placement, approval: 'own', why: placement.why ? `${placement.why}, and ${why}` : why, oneSpelling: folders };
}

/** Why there is no sandbox, and the fix when there is one: "bubblewrap cannot start here: <cause>; <fix>". */
export function describeUnavailable(availability: Extract<SandboxAvailability, { kind: 'none' }>): string {
  return availability.fix ? `${availability.reason}; ${availability.fix}` : availability.reason;
}

/** What the status bar says when commands run without a sandbox because the machine has none; undefined when there is one or the user turned it off. */
export function unavailableWarning(mode: SandboxMode, availability: SandboxAvailability): { readonly reason: string; readonly fix?: string; readonly consequence: string } | undefined {
  if (mode === 'off' || availability.kind !== 'none') {
    return undefined;
  }
  const consequence = mode === 'required'
    ? 'every command is refused (workspaceAgentTools.runCommand.sandbox is "required")'
    : availability.windows
      ? 'every command that is not provably read-only asks before it runs, with all your rights'
      : 'every command asks before it runs, outside the sandbox with all your rights';
  return { reason: availability.reason, ...(availability.fix ? { fix: availability.fix } : {}), consequence };
}
