// "Always Allow" for a command's or a domain's question: the runCommand.allow entries or the
// allowedDomains that would stop it are shown to the person in a modal dialog, and saved to user
// settings only when they say so.
import * as vscode from 'vscode';
import { SETTING_KEYS, SETTINGS_SECTION } from '../../core/settings';

const SAVE = 'Save to User Settings';

/**
 * Shows the entries and what they allow, then adds them to workspaceAgentTools.runCommand.allow in
 * user settings. `shown` is true when the caller already showed these exact entries (a test, a
 * keybinding that names them); otherwise the dialog is the only way to say yes. Resolves to true
 * when they are saved.
 */
export async function saveAllowRules(rules: readonly string[], shown = false): Promise<boolean> {
  const detail =
    `These entries will be added to workspaceAgentTools.runCommand.allow in your user settings:\n\n${listed(rules)}\n\n` +
    'Commands they match will run without asking, in every workspace, inside the sandbox and without the network. ' +
    'A plain entry is a prefix of whole words; /^...$/ allows exactly that command. You can edit or remove them in Settings.';
  return appendToUserSetting(SETTING_KEYS.runCommandAllow, rules, shown ? undefined : { title: 'Always allow these commands?', detail });
}

function listed(entries: readonly string[]): string {
  return entries.map((entry) => `  ${entry}`).join('\n');
}

/**
 * Adds entries to a list setting of the user's (never a workspace's), after a modal dialog that
 * shows them, unless `dialog` is undefined (the caller already showed these exact entries).
 * Resolves to true when they are saved.
 */
async function appendToUserSetting<T extends string | number>(key: string, entries: readonly T[], dialog: { readonly title: string; readonly detail: string } | undefined): Promise<boolean> {
  if (entries.length === 0) {
    return false;
  }
  if (dialog && (await vscode.window.showWarningMessage(dialog.title, { modal: true, detail: dialog.detail }, SAVE)) !== SAVE) {
    return false;
  }
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const existing = config.inspect<unknown>(key)?.globalValue;
  const current = Array.isArray(existing) ? existing.filter((entry): entry is T => typeof entry === typeof entries[0]) : [];
  await config.update(key, [...current, ...entries.filter((entry) => !current.includes(entry))], vscode.ConfigurationTarget.Global);
  return true;
}

/** The command behind the link in chat's confirmation (argument: the entries): shows them, and saves them on yes. */
export function registerAllowRulesCommand(id: string): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (rules?: unknown) => {
    const entries = Array.isArray(rules) ? rules.filter((rule): rule is string => typeof rule === 'string' && rule.trim() !== '') : [];
    if (entries.length === 0) {
      void vscode.window.showInformationMessage('Workspace Agent Tools: no command rule to save.');
      return false;
    }
    const saved = await saveAllowRules(entries);
    if (saved) {
      void vscode.window.setStatusBarMessage('Workspace Agent Tools: saved to runCommand.allow. Allow this run in chat to run it now.', 5000);
    }
    return saved;
  });
}

/**
 * "Always Allow" for a domain's question: the domains are shown in a modal dialog and added to
 * workspaceAgentTools.runCommand.allowedDomains in user settings only when the person says so
 * (`shown`: the caller already showed these exact domains). Resolves to true when they are saved.
 */
export async function saveAllowedDomains(domains: readonly string[], shown = false): Promise<boolean> {
  const detail =
    `These domains will be added to workspaceAgentTools.runCommand.allowedDomains in your user settings:\n\n${listed(domains)}\n\n` +
    'Every command you approve, in every workspace, will reach them through the sandbox\'s proxy without asking, even where they resolve to a private address. You can edit or remove them in Settings.';
  return appendToUserSetting(SETTING_KEYS.runCommandAllowedDomains, domains, shown ? undefined : { title: 'Always allow these domains?', detail });
}

/**
 * "Always Allow" for a question about a port on this machine: the ports are shown in a modal dialog
 * and added to workspaceAgentTools.runCommand.allowedLocalPorts in user settings only when the
 * person says so (`shown`: the caller already showed these exact ports).
 */
export async function saveAllowedLocalPorts(ports: readonly number[], shown = false): Promise<boolean> {
  const detail =
    `These ports will be added to workspaceAgentTools.runCommand.allowedLocalPorts in your user settings:\n\n${listed(ports.map(String))}\n\n` +
    'Every command you approve, in every workspace, will connect to them on this machine without asking. What listens there runs outside the sandbox, with your rights. You can edit or remove them in Settings.';
  return appendToUserSetting(SETTING_KEYS.runCommandAllowedLocalPorts, ports, shown ? undefined : { title: 'Always allow these ports on this machine?', detail });
}
