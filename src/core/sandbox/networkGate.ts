// Who decides whether one approved command may reach a domain: the rules (network.ts) first, then
// one question per new domain through the Approver (allow for this command, for this session, or
// always, which saves it to runCommand.allowedDomains), asked once however many connections wait
// on it. The proxy (node/networkProxy.ts) asks `admit` for each connection and reports what it
// reached or refused, which the result's `Sandbox:` line counts.
import type { CancellationSignal } from '../errors';
import type { Approver } from '../ports/approval';
import type { NetworkGate } from '../ports/process';
import { oneLine } from '../text/truncate';
import { isNamed, judgeDomain, type DomainRules, type NetworkTally } from './network';

/** The most domain questions one command may ask: a command that tries many names is refused the rest without asking. */
export const MAX_QUESTIONS_PER_COMMAND = 10;

/** The answer that allows a domain for the rest of the session (the question's third answer). */
export const ALLOW_FOR_SESSION = 'Allow for This Session';

/** One window's network state: the domains allowed for the session, and the rules as they are now. */
export class NetworkSession {
  /**
   * `rules` is read for every connection; `sessionAllowed` holds the domains allowed for the
   * session (SandboxNetwork.sessionDomains: it outlives each command's session object).
   */
  constructor(
    private readonly rules: () => DomainRules,
    private readonly sessionAllowed: Set<string> = new Set(),
  ) {}

  /** The gate of one command: `command` is its line as the question names it. */
  forCommand(command: string, approver: Approver, token: CancellationSignal): CommandNetwork {
    return new CommandNetwork(this, command, approver, token);
  }

  /** @internal */
  currentRules(): DomainRules {
    const rules = this.rules();
    return { ...rules, defaults: [...rules.defaults, ...this.sessionAllowed] };
  }

  /** @internal */
  allowForSession(host: string): void {
    this.sessionAllowed.add(host);
  }
}

/** The proxy's answer for one connection: dial (`named`: a private address is allowed), or refuse with why. */
export type Admission = { readonly allowed: true; readonly named: boolean } | { readonly allowed: false; readonly why: string };

export class CommandNetwork implements NetworkGate {
  private readonly allowed = new Set<string>();
  private readonly declined = new Set<string>();
  private readonly questions = new Map<string, Promise<boolean>>();
  private readonly reached = new Set<string>();
  private readonly refused = new Set<string>();

  constructor(
    private readonly session: NetworkSession,
    private readonly command: string,
    private readonly approver: Approver,
    private readonly token: CancellationSignal,
  ) {}

  /** Whether a connection to host:port may be dialled; asks the user the first time a domain needs it. */
  async admit(host: string, port: number): Promise<Admission> {
    const rules = this.session.currentRules();
    const named = isNamed(host, rules);
    const judged = judgeDomain(host, rules);
    if (judged.decision === 'deny') {
      return { allowed: false, why: judged.why };
    }
    if (judged.decision === 'local') {
      return this.admitLocal(host, port, judged.kind, rules);
    }
    if (judged.decision === 'allow' || this.allowed.has(host)) {
      return { allowed: true, named };
    }
    if (this.declined.has(host) || this.token.isCancellationRequested) {
      return { allowed: false, why: `the user did not allow ${host} for this command` };
    }
    let question = this.questions.get(host);
    if (!question && this.questions.size >= MAX_QUESTIONS_PER_COMMAND) {
      return { allowed: false, why: `${host} is not in the allowed domains, and this command already asked about ${MAX_QUESTIONS_PER_COMMAND} domains; add it to workspaceAgentTools.runCommand.allowedDomains to reach it` };
    }
    if (!question) {
      question = this.ask(host, port);
      this.questions.set(host, question);
    }
    const yes = await question;
    // "Always" saved the domain to allowedDomains: it is named from now on.
    return yes ? { allowed: true, named: isNamed(host, this.session.currentRules()) } : { allowed: false, why: `the user did not allow ${host} for this command` };
  }

  /**
   * A loopback or private address written out, or `localhost`: asked about by address and port,
   * since what listens there runs outside the sandbox with the user's rights. A loopback port in
   * runCommand.allowedLocalPorts, or one this window's commands serve, is reached without a question.
   */
  private async admitLocal(host: string, port: number, kind: 'loopback' | 'private', rules: DomainRules): Promise<Admission> {
    const key = kind === 'loopback' ? `loopback:${port}` : `${host}:${port}`;
    const shown = `${host}:${port}`;
    if ((kind === 'loopback' && rules.localPorts?.includes(port)) || this.allowed.has(key) || rules.defaults.includes(key)) {
      return { allowed: true, named: true };
    }
    if (this.declined.has(key) || this.token.isCancellationRequested) {
      return { allowed: false, why: `the user did not allow ${shown} for this command` };
    }
    let question = this.questions.get(key);
    if (!question && this.questions.size >= MAX_QUESTIONS_PER_COMMAND) {
      return { allowed: false, why: `${shown} was not allowed, and this command already asked ${MAX_QUESTIONS_PER_COMMAND} questions; ${kind === 'loopback' ? `add ${port} to workspaceAgentTools.runCommand.allowedLocalPorts` : `add ${host} to workspaceAgentTools.runCommand.allowedDomains`} to reach it` };
    }
    if (!question) {
      question = this.askLocal(host, port, kind, key);
      this.questions.set(key, question);
    }
    return (await question) ? { allowed: true, named: true } : { allowed: false, why: `the user did not allow ${shown} for this command` };
  }

  private async askLocal(host: string, port: number, kind: 'loopback' | 'private', key: string): Promise<boolean> {
    const where = kind === 'loopback' ? `port ${port} on this machine (${host})` : `${host} port ${port} on your local network`;
    const saved = kind === 'loopback' ? 'workspaceAgentTools.runCommand.allowedLocalPorts' : 'workspaceAgentTools.runCommand.allowedDomains';
    const answer = await this.approver.choose(
      {
        kind: 'network',
        title: `let \`${oneLine(this.command, 60)}\` connect to ${kind === 'loopback' ? `port ${port} on this machine` : `${host}:${port}`}`,
        detail: `The command \`${oneLine(this.command, 120)}\`, running in the sandbox, wants to connect to ${where}. What listens there runs outside the sandbox, with your rights: allow it only for a service you know, such as your dev server or a database. Allow for This Command, ${ALLOW_FOR_SESSION}, or Always Allow (saved to ${saved})?`,
        alternative: ALLOW_FOR_SESSION,
        ...(kind === 'loopback' ? { allowLocalPorts: [port] } : { allowDomains: [host] }),
      },
      this.token,
    );
    if (answer === 'alternative') {
      this.session.allowForSession(key);
    }
    if (answer === 'reject') {
      this.declined.add(key);
      return false;
    }
    this.allowed.add(key);
    return true;
  }

  private async ask(host: string, port: number): Promise<boolean> {
    const answer = await this.approver.choose(
      {
        kind: 'network',
        title: `let \`${oneLine(this.command, 60)}\` reach ${host}`,
        detail: `The command \`${oneLine(this.command, 120)}\`, running in the sandbox, wants to connect to ${host} (port ${port}), which is not in the allowed domains. Allow for This Command, ${ALLOW_FOR_SESSION}, or Always Allow (saved to workspaceAgentTools.runCommand.allowedDomains)?`,
        alternative: ALLOW_FOR_SESSION,
        allowDomains: [host],
      },
      this.token,
    );
    if (answer === 'alternative') {
      this.session.allowForSession(host);
    }
    if (answer === 'reject') {
      this.declined.add(host);
      return false;
    }
    this.allowed.add(host);
    return true;
  }

  /** The proxy reached the domain (a connection was opened). */
  noteReached(host: string): void {
    this.reached.add(host);
  }

  /** The proxy refused the domain, or could not connect to it. */
  noteRefused(host: string): void {
    this.refused.add(host);
  }

  tally(): NetworkTally {
    return { reached: new Set(this.reached), refused: new Set([...this.refused].filter((host) => !this.reached.has(host))) };
  }
}
