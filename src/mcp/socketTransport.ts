// An MCP transport over a connected socket, framed exactly like the SDK's stdio transports: the
// SDK's ReadBuffer splits the stream into JSON-RPC messages (validated by the SDK's schema) and
// serializeMessage writes them. A line that is not a JSON-RPC message is skipped; a stream with no
// line end within the largest message closes the connection.
import type * as net from 'node:net';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The largest message either side accepts, as the SDK's stdio default. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export class SocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });
  private started = false;
  private closed = false;

  /** `pending`: bytes that arrived after the handshake line, before this transport existed. */
  constructor(
    private readonly socket: net.Socket,
    private readonly pending: Buffer = Buffer.alloc(0),
  ) {}

  async start(): Promise<void> {
    if (this.started) {
      throw new Error('SocketTransport already started');
    }
    this.started = true;
    this.socket.on('data', (chunk: Buffer) => this.receive(chunk));
    this.socket.on('error', (error) => this.onerror?.(error));
    this.socket.on('close', () => this.finish());
    if (this.pending.length) {
      this.receive(this.pending);
    }
    this.socket.resume();
  }

  private receive(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (error) {
      // More than a message may hold without a line end: this peer is not speaking MCP; drop it.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      this.socket.destroy();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        // A line that is not a JSON-RPC message is reported and skipped, as the SDK's stdio server does.
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (message === null) {
        return;
      }
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed || this.socket.destroyed) {
        reject(new Error('The connection is closed.'));
        return;
      }
      this.socket.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    this.socket.end();
    this.socket.destroy();
    this.finish();
  }

  private finish(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
  }
}
