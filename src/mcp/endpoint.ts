// A window's endpoint: a unix socket (a named pipe on Windows) in the private folder, announced by
// a lock file. Each connection must send the nonce first (handshake.ts); only then is it handed to
// `onSession` as an MCP transport. Closing removes the socket and the lock file.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { acceptHandshake, newNonce, type ConnectionOrigin } from './handshake';
import { lockFilePath, readLiveLocks, removeQuietly, writeLockFile, type WindowLock } from './lockFiles';
import { ensurePrivateFolder } from './privateFolder';
import { SocketTransport } from './socketTransport';

/** What the window says about itself in its lock file (the rest is the endpoint's). */
export type WindowFacts = Pick<WindowLock, 'folders' | 'trusted' | 'app'>;

export interface EndpointOptions {
  /** The private folder (made 0700 if missing, refused if not private). */
  readonly dir: string;
  /** Called with each authenticated connection and the origin its handshake named. */
  onSession(transport: SocketTransport, origin: ConnectionOrigin): void;
  /** Connections refused (wrong nonce, no nonce), for the log. */
  onRefused?(): void;
  /** How long a connection has to send its handshake line; 5 s (acceptHandshake's default) when left out. Tests shorten it. */
  readonly handshakeTimeoutMs?: number;
}

export class McpEndpoint {
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    /** The endpoint's id: its lock file's name without the suffix; `--window <id>` picks it (relay.ts). */
    readonly id: string,
    readonly socketPath: string,
    readonly lockFile: string,
    readonly nonce: string,
    private facts: WindowFacts,
  ) {}

  /** Listens on a fresh socket in the private folder and writes the lock file. */
  static async start(options: EndpointOptions, facts: WindowFacts): Promise<McpEndpoint> {
    ensurePrivateFolder(options.dir);
    // Clears the lock files (and sockets) windows that crashed left behind.
    readLiveLocks(options.dir);
    const id = `${process.pid}-${randomBytes(6).toString('hex')}`;
    const socketPath = process.platform === 'win32' ? `\\\\.\\pipe\\workspace-agent-tools-${id}-${randomBytes(12).toString('hex')}` : path.join(options.dir, `${id}.sock`);
    const nonce = newNonce();
    const server = net.createServer({ pauseOnConnect: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
    if (process.platform !== 'win32') {
      fs.chmodSync(socketPath, 0o600);
    }
    const endpoint = new McpEndpoint(server, id, socketPath, lockFilePath(options.dir, id), nonce, facts);
    server.on('connection', (socket: net.Socket) => endpoint.accept(socket, options));
    endpoint.announce();
    return endpoint;
  }

  private accept(socket: net.Socket, options: EndpointOptions): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    void acceptHandshake(socket, this.nonce, options.handshakeTimeoutMs).then((accepted) => {
      if (accepted === undefined) {
        options.onRefused?.();
        return;
      }
      options.onSession(new SocketTransport(socket, accepted.rest), accepted.origin);
    });
  }

  /** Rewrites the lock file, e.g. when trust or the workspace folders changed. */
  update(facts: WindowFacts): void {
    this.facts = facts;
    this.announce();
  }

  private announce(): void {
    writeLockFile(this.lockFile, { version: 1, pid: process.pid, endpoint: this.socketPath, nonce: this.nonce, ...this.facts });
  }

  /** Stops listening, drops the connections, removes the lock file and the socket. */
  close(): void {
    removeQuietly(this.lockFile);
    this.server.close();
    for (const socket of this.sockets) {
      socket.destroy();
    }
    if (process.platform !== 'win32') {
      removeQuietly(this.socketPath);
    }
  }
}
