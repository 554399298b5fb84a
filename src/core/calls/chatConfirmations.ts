// Which confirmation chat showed for a call. VS Code asks a tool for its confirmation
// (prepareInvocation), shows it, and invokes the tool once the person accepted; the invocation
// itself carries no word of what was shown. So the host notes each confirmation it handed out, by
// tool and input, and the invocation takes it: a call whose question was never shown (the line
// was judged allowed when chat asked, asks by the time it runs) or whose question changed since
// (the same line now asks for another reason) is not confirmed, and the tool asks its own question.
/** The most confirmations kept waiting for their invocation (those chat declined are never taken). */
const KEPT = 64;

export class ShownConfirmations {
  private readonly shown = new Map<string, string[]>();
  private count = 0;

  /** Chat is about to show `message` for a call of `tool` with `input`. */
  add(tool: string, input: unknown, message: string): void {
    const key = keyOf(tool, input);
    this.shown.set(key, [...(this.shown.get(key) ?? []), message]);
    this.count += 1;
    while (this.count > KEPT) {
      this.dropOldest();
    }
  }

  /** The message chat showed for this call (the earliest not yet taken), or undefined when it showed none. */
  take(tool: string, input: unknown): string | undefined {
    return this.takeKey(keyOf(tool, input));
  }

  private takeKey(key: string): string | undefined {
    const messages = this.shown.get(key);
    if (!messages?.length) {
      return undefined;
    }
    const [first, ...rest] = messages;
    if (rest.length) {
      this.shown.set(key, rest);
    } else {
      this.shown.delete(key);
    }
    this.count -= 1;
    return first;
  }

  private dropOldest(): void {
    const [key] = this.shown.keys();
    this.takeKey(key);
  }
}

function keyOf(tool: string, input: unknown): string {
  return `${tool}\0${JSON.stringify(input) ?? 'undefined'}`;
}
