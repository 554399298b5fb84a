// Ports across the sandbox's network namespace (Linux), in both directions, carried over unix
// sockets by the relay (node/proxyRelay.ts) inside and the port forwards (node/portForwards.ts)
// outside; pure: the words, the limits, the relay's configuration and the lines the two exchange.
//
// In: a server a sandboxed background command starts listens in the command's own namespace. The
// relay reads the namespace's listening sockets (/proc/net/tcp and tcp6) and names them to the
// forwards, which listen on the same port on the machine's 127.0.0.1 while the command runs and
// ask the relay for one stream per connection. Out: an approved command's relay listens on the
// machine's loopback ports in its namespace and sends each connection through the proxy as
// CONNECT 127.0.0.1:<port>, where the gate asks (networkGate.ts).
import type { ForwardedPort } from '../ports/process';

/** At most this many of one command's listening ports are forwarded; the rest are named as not forwarded. */
export const MAX_FORWARDED_PORTS = 32;

/** At most this many of the machine's loopback ports are served inside one approved command's namespace. */
export const MAX_LOCAL_PORTS = 256;

/** Ports below this are privileged: the namespace's relay cannot listen on them, nor the machine's user. */
export const FIRST_UNPRIVILEGED_PORT = 1024;

/** The file name of the forwards' socket in the command's endpoint folder. */
export const PORTS_SOCKET = 'ports.sock';

/** What the relay does inside the namespace; its one argument before `--` is this, as JSON. */
export interface RelayConfig {
  /** The proxy: served on loopback ports in the namespace, for an approved command. */
  readonly http?: { readonly socket: string; readonly port: number };
  readonly socks?: { readonly socket: string; readonly port: number };
  /** The forwards' socket: the relay names the namespace's listening ports there and opens streams to them. */
  readonly ports?: string;
  /** The machine's loopback ports served in the namespace, each connection sent through `http` as CONNECT. */
  readonly local?: readonly number[];
}

/** One listening socket of a namespace, as /proc/net/tcp names it. */
export interface Listener {
  readonly address: string;
  readonly port: number;
}

/**
 * The listening sockets of /proc/net/tcp or /proc/net/tcp6 text (state 0A): each local address as
 * text (`127.0.0.1`, `0.0.0.0`, `::1`, `::`) and its port. Lines that do not parse are left out.
 */
export function parseListeners(text: string): Listener[] {
  const found: Listener[] = [];
  for (const line of text.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 4 || fields[3] !== '0A') {
      continue;
    }
    const match = /^([0-9A-F]{8}|[0-9A-F]{32}):([0-9A-F]{4})$/i.exec(fields[1]);
    if (match) {
      found.push({ address: procAddress(match[1]), port: parseInt(match[2], 16) });
    }
  }
  return found;
}

/** /proc's hex address (host byte order per 32-bit word, little-endian here) as text. */
function procAddress(hex: string): string {
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((word) => (word.match(/../g) ?? []).reverse().map((byte) => parseInt(byte, 16)));
  if (bytes.length === 4) {
    return bytes.join('.');
  }
  if (bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return bytes.slice(12).join('.');
  }
  const groups: string[] = [];
  for (let index = 0; index < 16; index += 2) {
    groups.push(((bytes[index] << 8) | bytes[index + 1]).toString(16));
  }
  return compressIpv6(groups);
}

function compressIpv6(groups: readonly string[]): string {
  let best = { start: -1, length: 0 };
  for (let start = 0; start < groups.length; start++) {
    let length = 0;
    while (start + length < groups.length && groups[start + length] === '0') {
      length++;
    }
    if (length > best.length && length > 1) {
      best = { start, length };
    }
  }
  if (best.start === -1) {
    return groups.join(':');
  }
  return `${groups.slice(0, best.start).join(':')}::${groups.slice(best.start + best.length).join(':')}`;
}

/** Whether a listener takes connections on loopback: bound to 127.x, ::1 or every address. */
export function onLoopback(listener: Listener): boolean {
  return listener.address.startsWith('127.') || listener.address === '::1' || listener.address === '0.0.0.0' || listener.address === '::';
}

/** Where a connection to a listener is dialled inside its namespace: its own loopback address. */
export function dialAddress(listener: Listener): string {
  return listener.address === '::' || listener.address === '::1' ? '::1' : listener.address === '0.0.0.0' ? '127.0.0.1' : listener.address;
}

/** The distinct ports of the loopback listeners from `minimum` up (by default those a user may listen on), lowest first. */
export function loopbackPorts(listeners: readonly Listener[], excluded: ReadonlySet<number> = new Set(), minimum = FIRST_UNPRIVILEGED_PORT): number[] {
  const ports = new Set(listeners.filter((listener) => onLoopback(listener) && listener.port >= minimum && !excluded.has(listener.port)).map((listener) => listener.port));
  return [...ports].sort((a, b) => a - b);
}

/** A line from the relay to the forwards, or back. */
export type PortsMessage =
  /** The relay's first line on its control connection: the namespace's listening ports now, and again each time they change or a `sync` asks (naming it). */
  | { readonly listening: readonly Listener[]; readonly sync?: number }
  /** From the forwards: read the listening ports now and answer with them, naming this id. */
  | { readonly sync: number }
  /** From the forwards: open a stream to this listener, and name it with this id. */
  | { readonly open: number; readonly address: string; readonly port: number }
  /** The relay's first line on a stream connection: the id it was asked to open. */
  | { readonly stream: number };

/** The longest line either side accepts; a longer one ends the connection. */
export const MAX_MESSAGE_BYTES = 64 * 1024;

/** One message as the line that carries it. */
export function formatMessage(message: PortsMessage): string {
  return `${JSON.stringify(message)}\n`;
}

/** A line as a message, or undefined when it is not one: the other side is the sandbox, and not trusted. */
export function parseMessage(line: string): PortsMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) {
    return undefined;
  }
  const record = value as Record<string, unknown>;
  if (Array.isArray(record.listening)) {
    const listening = record.listening.filter(isListener);
    return listening.length === record.listening.length ? { listening, ...(isPort(record.sync) ? { sync: record.sync } : {}) } : undefined;
  }
  if (isPort(record.sync)) {
    return { sync: record.sync };
  }
  if (isPort(record.open) && typeof record.address === 'string' && isPort(record.port)) {
    return { open: record.open, address: record.address, port: record.port };
  }
  if (isPort(record.stream)) {
    return { stream: record.stream };
  }
  return undefined;
}

function isListener(value: unknown): value is Listener {
  const record = value as Record<string, unknown>;
  return typeof value === 'object' && value !== null && typeof record.address === 'string' && record.address.length <= 45 && isPort(record.port);
}

function isPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffffffff;
}

/** `Listening: 127.0.0.1:8123 (forwarded to this machine); 5432 not reachable: ...`, or undefined when none. */
export function describeForwards(ports: readonly ForwardedPort[]): string | undefined {
  if (ports.length === 0) {
    return undefined;
  }
  const forwarded = ports.filter((entry) => entry.state === 'forwarded').map((entry) => `http://127.0.0.1:${entry.port}`);
  const why: Record<Exclude<ForwardedPort['state'], 'forwarded'>, string> = {
    taken: 'another program already listens on that port on this machine',
    over: `only the first ${MAX_FORWARDED_PORTS} ports of a command are forwarded`,
    privileged: `ports below ${FIRST_UNPRIVILEGED_PORT} are not forwarded; listen on a higher one`,
  };
  const parts: string[] = [];
  if (forwarded.length) {
    parts.push(`Listening, reachable on this machine while it runs: ${forwarded.join(', ')}`);
  }
  for (const state of ['taken', 'over', 'privileged'] as const) {
    const held = ports.filter((entry) => entry.state === state).map((entry) => entry.port);
    if (held.length) {
      parts.push(`listening on ${held.join(', ')}, not reachable outside the sandbox: ${why[state]}`);
    }
  }
  const sentence = parts.join('; ');
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}
