// How background commands are told to the person: the words of a running command's row, the status
// bar's count and tooltip (which command waits for input, and on which prompt), and what the
// person's own Send Input... types. The vscode layer (vscode/ui/backgroundCommands.ts) shows them.
import type { BackgroundCommand, InputKey, WaitingForInput } from '../ports/process';
import { oneLine } from '../text/truncate';

/** How much of a prompt a row's description shows (the tooltip shows it all). */
const ROW_PROMPT_CHARS = 60;
/** How much of a prompt the status bar's tooltip shows per command. */
const TOOLTIP_PROMPT_CHARS = 100;

/** How long ago, in words a glance can read: 45 s, 3 min, 2 h 5 min. */
export function ageOf(startedAt: number, now: number): string {
  const seconds = Math.max(0, Math.floor((now - startedAt) / 1000));
  if (seconds < 60) {
    return `${seconds} s`;
  }
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** The description of a running command's row: `running · 3 min`, or `waiting for input · Continue? [y/N]`. */
export function runningDescription(command: Pick<BackgroundCommand, 'startedAt' | 'waitingForInput'>, now: number): string {
  const waiting = command.waitingForInput();
  return waiting ? `waiting for input · ${oneLine(waiting.prompt, ROW_PROMPT_CHARS)}` : `running · ${ageOf(command.startedAt, now)}`;
}

/** The sentence a tooltip shows about a command that waits: its prompt, who reads, since when. */
export function waitingSentence(waiting: WaitingForInput, now: number): string {
  const reader = waiting.reader ? `; ${waiting.reader} reads its input` : '';
  return `Waiting for input for ${ageOf(waiting.since, now)}${reader}.`;
}

/** What the status bar item shows for the running background commands. */
export interface BackgroundSummary {
  /** `$(terminal) 2 running` or `$(terminal) 2 running, 1 waiting for input`. */
  readonly text: string;
  /** One line per command (the waiting ones with their prompt), then what a click does; empty when none runs. */
  readonly tooltip: string;
  /** How many wait for input: the item then warns, and a click answers one. */
  readonly waiting: number;
}

/** The status bar's summary of the running commands (oldest first). */
export function summarizeRunning(running: readonly Pick<BackgroundCommand, 'id' | 'commandLine' | 'startedAt' | 'waitingForInput'>[], now: number): BackgroundSummary {
  const waiting = running.filter((command) => command.waitingForInput() !== undefined).length;
  const text = `$(terminal) ${running.length} running${waiting ? `, ${waiting} waiting for input` : ''}`;
  if (running.length === 0) {
    return { text, tooltip: '', waiting };
  }
  const lines = running.map((command) => {
    const prompt = command.waitingForInput()?.prompt;
    const state = prompt === undefined ? ageOf(command.startedAt, now) : `waiting for input: ${oneLine(prompt, TOOLTIP_PROMPT_CHARS)}`;
    return `${command.id}: ${oneLine(command.commandLine, 60)} (${state})`;
  });
  const click = waiting ? 'Click to send input to one that waits.' : 'Click to stop one.';
  return { text, tooltip: `Background commands of the agent:\n${lines.join('\n')}\n\n${click}`, waiting };
}

/** The running commands in the order a picker offers them: the ones waiting for input first, else oldest first. */
export function waitingFirst<T extends Pick<BackgroundCommand, 'waitingForInput'>>(running: readonly T[]): T[] {
  return [...running.filter((command) => command.waitingForInput()), ...running.filter((command) => !command.waitingForInput())];
}

/** A key the person may press instead of typing, as Send Input... offers it. */
export interface KeyChoice {
  readonly key: InputKey;
  readonly label: string;
  readonly detail: string;
}

/** The keys Send Input... offers besides typed text, in the order shown. */
export const KEY_CHOICES: readonly KeyChoice[] = [
  { key: 'ctrl-c', label: 'Ctrl+C', detail: 'interrupt it (SIGINT to its processes)' },
  { key: 'ctrl-d', label: 'Ctrl+D', detail: 'end its input (end of file: it can read nothing more)' },
  { key: 'escape', label: 'Escape', detail: 'the Escape key' },
  { key: 'up', label: 'Up', detail: 'the Up arrow (a menu\'s previous choice)' },
  { key: 'down', label: 'Down', detail: 'the Down arrow (a menu\'s next choice)' },
  { key: 'tab', label: 'Tab', detail: 'the Tab key' },
];

/** Prompts that ask for a secret: the person's answer is typed unseen. */
const SECRET_PROMPT = /\b(password|passphrase|passcode|pin|token|otp|secret)\b/i;

/** True when the prompt asks for a secret (the input box then hides what is typed). */
export function asksForSecret(waiting: WaitingForInput | undefined): boolean {
  return waiting !== undefined && SECRET_PROMPT.test(waiting.prompt);
}

/** What the person's Send Input... types: the text then Enter, or only a key; refused input says why. */
export type PersonInput = { readonly typed: string; readonly key?: InputKey } | { readonly error: string };

/**
 * The input of Send Input... from its arguments (another extension's or a test's, so checked):
 * `text` is typed and Enter pressed after it; `key`, one of KEY_CHOICES, is pressed after the text
 * (with no text, only the key).
 */
export function personInput(text: unknown, key?: unknown): PersonInput {
  if (text !== undefined && typeof text !== 'string') {
    return { error: 'The text to send must be a string.' };
  }
  if (key !== undefined && !KEY_CHOICES.some((choice) => choice.key === key)) {
    return { error: `The key must be one of ${KEY_CHOICES.map((choice) => choice.key).join(', ')}.` };
  }
  const words = text ?? '';
  if (words.includes('\0')) {
    return { error: 'The text contains a NUL character, which a program cannot read as text.' };
  }
  const pressed = key as InputKey | undefined;
  return { typed: pressed !== undefined && words === '' ? '' : `${words}\n`, key: pressed };
}
