// The one line a client sends before anything of MCP: the window's nonce, optionally followed by a
// space and the connection's origin (`vscode-definition`: a relay VS Code started from this
// window's MCP server definition). The endpoint compares the nonce in constant time and hands the
// socket to an MCP server only when it matches; otherwise it answers one refusal line and closes,
// so no part of the protocol is reachable without the nonce.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as net from 'node:net';

/** What the endpoint answers a correct nonce with, and the start of its refusal. */
export const HANDSHAKE_OK = 'ok';
export const HANDSHAKE_REFUSED = 'refused';
/** The origin a relay started from the window's own MCP server definition names (relay.ts). */
export const DEFINITION_ORIGIN = 'vscode-definition';
/** Where a connection says it comes from: a terminal agent's relay (no word), or VS Code's definition. */
export type ConnectionOrigin = 'agent' | typeof DEFINITION_ORIGIN;
/** Longest handshake line accepted (a nonce is 64 hex characters). */
const MAX_LINE_BYTES = 128;

/** A fresh nonce: 32 random bytes as hex. */
export function newNonce(): string {
  return randomBytes(32).toString('hex');
}

/** Compares two secrets in constant time for their length. */
export function secretsMatch(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  // timingSafeEqual needs equal lengths; compare a with itself to spend the same time, then refuse.
  return a.length === b.length ? timingSafeEqual(a, b) : !timingSafeEqual(a, a);
}

/** Reads one line (without its newline) and what came after it; rejects on timeout, overlong line or close. */
export function readLine(socket: net.Socket, timeoutMs: number): Promise<{ line: string; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => done(new Error(`no handshake line within ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\n');
      if (end !== -1 && end <= MAX_LINE_BYTES) {
        done(undefined, { line: received.subarray(0, end).toString('utf8').replace(/\r$/, ''), rest: received.subarray(end + 1) });
      } else if (end > MAX_LINE_BYTES || (end === -1 && received.length > MAX_LINE_BYTES)) {
        done(new Error('handshake line too long'));
      }
    };
    const onClose = (): void => done(new Error('the connection closed during the handshake'));
    const onError = (error: Error): void => done(error);
    const done = (error?: Error, value?: { line: string; rest: Buffer }): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onError);
      socket.pause();
      if (error) {
        reject(error);
      } else {
        resolve(value!);
      }
    };
    socket.on('data', onData);
    socket.on('close', onClose);
    socket.on('error', onError);
    socket.resume();
  });
}

/** The handshake line's parts: the nonce, and the origin when the line names a known one (anything else: 'agent'). */
export function parseHandshakeLine(line: string): { nonce: string; origin: ConnectionOrigin } {
  const space = line.indexOf(' ');
  if (space === -1) {
    return { nonce: line, origin: 'agent' };
  }
  return { nonce: line.slice(0, space), origin: line.slice(space + 1) === DEFINITION_ORIGIN ? DEFINITION_ORIGIN : 'agent' };
}

/**
 * The endpoint's side: reads the nonce line; on a match answers `ok` and returns the bytes that
 * followed it and the origin the line named, otherwise answers `refused` and destroys the socket
 * (and returns undefined).
 */
export async function acceptHandshake(socket: net.Socket, nonce: string, timeoutMs = 5000): Promise<{ rest: Buffer; origin: ConnectionOrigin } | undefined> {
  try {
    const { line, rest } = await readLine(socket, timeoutMs);
    const given = parseHandshakeLine(line);
    if (secretsMatch(nonce, given.nonce)) {
      socket.write(`${HANDSHAKE_OK}\n`);
      return { rest, origin: given.origin };
    }
    socket.end(`${HANDSHAKE_REFUSED}: wrong nonce\n`);
  } catch (error) {
    socket.end(`${HANDSHAKE_REFUSED}: ${(error as Error).message}\n`);
  }
  setTimeout(() => socket.destroy(), 100).unref();
  return undefined;
}

/** The client's side: connects, sends the nonce (and the origin, if not a plain agent's) and waits for `ok`. Rejects with the endpoint's refusal. */
export async function connectWithNonce(endpoint: string, nonce: string, timeoutMs = 5000, origin: ConnectionOrigin = 'agent'): Promise<{ socket: net.Socket; rest: Buffer }> {
  const socket = net.createConnection(endpoint);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(origin === 'agent' ? `${nonce}\n` : `${nonce} ${origin}\n`);
  try {
    const { line, rest } = await readLine(socket, timeoutMs);
    if (line !== HANDSHAKE_OK) {
      throw new Error(`the endpoint refused the connection (${line || 'no answer'})`);
    }
    return { socket, rest };
  } catch (error) {
    socket.destroy();
    throw error;
  }
}
