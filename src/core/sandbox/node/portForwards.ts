// The machine's side of one command's listening ports (ports.ts has the whole story): the relay in
// the command's namespace names its listening ports on a unix socket in the command's endpoint
// folder, and this listens on each of them on the machine's 127.0.0.1 (and ::1 where it can) while
// the command runs; each connection asks the relay for a stream to the port inside, which the relay
// opens as a new connection to the same socket. Whatever the relay sends is untrusted: the ports
// are capped, only loopback is listened on, and a stream nobody asked for is closed.
import * as net from 'node:net';
import { readFileSync } from 'node:fs';
import type { ForwardedPort } from '../../ports/process';
import { dialAddress, FIRST_UNPRIVILEGED_PORT, formatMessage, loopbackPorts, MAX_FORWARDED_PORTS, MAX_MESSAGE_BYTES, parseListeners, parseMessage, type Listener, type PortsMessage } from '../ports';

/** A connection waits this long for the relay's stream before it is closed. */
const STREAM_WAIT_MS = 10_000;
/** At most this many connections wait for a stream at once. */
const MAX_WAITING = 64;

interface Forward {
  readonly port: number;
  readonly state: ForwardedPort['state'];
  /** Where the relay dials inside the namespace. */
  address: string;
  readonly servers: net.Server[];
}

export class CommandPorts {
  private readonly server: net.Server;
  private control: net.Socket | undefined;
  private readonly forwards = new Map<number, Forward>();
  private readonly waiting = new Map<number, net.Socket>();
  private readonly sockets = new Set<net.Socket>();
  private nextId = 1;
  private closed = false;
  /** Listeners of ports let go of, until they are closed: the same port listened on again waits for them. */
  private readonly closing = new Map<number, Promise<void>>();
  /** Listens on the machine not done yet (settle waits for them). */
  private readonly listening = new Set<Promise<void>>();
  /** Who waits for the relay's control connection, and for its answer to each sync. */
  private readonly controlWaiters = new Set<() => void>();
  private readonly syncWaiters = new Map<number, () => void>();

  constructor(private readonly onChange: () => void = () => undefined) {
    this.server = net.createServer((socket) => this.accept(socket));
  }

  /** Listens on the unix socket the relay connects to. */
  listen(socketPath: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(socketPath, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  /**
   * The command's listening ports so far, and how each fared on the machine. A port is `forwarded`
   * only once it is listened on here: until then the machine's port may still be someone else's.
   */
  forwarded(): ForwardedPort[] {
    return [...this.forwards.values()]
      .filter((forward) => forward.state !== 'forwarded' || forward.servers.length > 0)
      .map(({ port, state }) => ({ port, state }))
      .sort((a, b) => a.port - b.port);
  }

  /**
   * Brings forwarded() up to date: asks the relay to read the namespace's listening sockets now and
   * waits until each new port is listened on here, or `timeoutMs` passed (a relay that does not
   * answer: the command is ending, or it killed its relay).
   */
  async settle(timeoutMs = 2000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    });
    const synced = async (): Promise<void> => {
      if (!this.control && !this.closed) {
        await new Promise<void>((resolve) => this.controlWaiters.add(resolve));
      }
      const control = this.control;
      if (!control || this.closed) {
        return;
      }
      const id = this.nextId++;
      await new Promise<void>((resolve) => {
        this.syncWaiters.set(id, resolve);
        control.write(formatMessage({ sync: id }));
      });
      await Promise.all([...this.listening]);
    };
    await Promise.race([synced(), timeout]);
    clearTimeout(timer);
  }

  /** Stops listening everywhere and ends every connection: the command ended. */
  async close(): Promise<void> {
    this.closed = true;
    const servers = [this.server, ...[...this.forwards.values()].flatMap((forward) => forward.servers)];
    this.forwards.clear();
    for (const socket of [...this.sockets, ...this.waiting.values()]) {
      socket.destroy();
    }
    this.waiting.clear();
    this.controlWaiters.forEach((resolve) => resolve());
    this.controlWaiters.clear();
    this.syncWaiters.forEach((resolve) => resolve());
    this.syncWaiters.clear();
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    this.onChange();
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
  }

  /** A connection from the relay: the control connection (first line `listening`) or a stream (first line `stream`). */
  private accept(socket: net.Socket): void {
    this.track(socket);
    let buffered = Buffer.alloc(0);
    let isControl = false;
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      let newline = buffered.indexOf(0x0a);
      while (newline !== -1) {
        const message = parseMessage(buffered.subarray(0, newline).toString('utf8'));
        buffered = buffered.subarray(newline + 1);
        if (!isControl && message && 'stream' in message) {
          socket.off('data', onData);
          this.joinStream(socket, message.stream, buffered);
          return;
        }
        if (message && 'listening' in message && (isControl || !this.control)) {
          isControl = true;
          this.control = socket;
          this.controlWaiters.forEach((resolve) => resolve());
          this.controlWaiters.clear();
          this.update(message.listening);
          const waiter = message.sync === undefined ? undefined : this.syncWaiters.get(message.sync);
          if (waiter && message.sync !== undefined) {
            this.syncWaiters.delete(message.sync);
            waiter();
          }
        } else if (!isControl) {
          socket.destroy();
          return;
        }
        newline = buffered.indexOf(0x0a);
      }
      if (buffered.length > MAX_MESSAGE_BYTES) {
        socket.destroy();
      }
    };
    socket.on('data', onData);
    socket.once('close', () => {
      if (isControl) {
        // The relay is gone: the command ended (or the relay was killed); nothing is forwarded any more.
        void this.close();
      }
    });
  }

  private joinStream(stream: net.Socket, id: number, early: Buffer): void {
    const client = this.waiting.get(id);
    if (!client) {
      stream.destroy();
      return;
    }
    this.waiting.delete(id);
    if (early.length) {
      client.write(early);
    }
    stream.on('close', () => client.destroy());
    client.on('close', () => stream.destroy());
    stream.pipe(client);
    client.pipe(stream);
    client.resume();
  }

  /** The namespace listens on these now: forward the new ports, stop forwarding those it let go. */
  private update(listening: readonly Listener[]): void {
    if (this.closed) {
      return;
    }
    const now = new Map<number, Listener>();
    for (const listener of listening) {
      const known = now.get(listener.port);
      // Prefer IPv4 where a port listens on both: every client tries 127.0.0.1.
      if (!known || (dialAddress(known) === '::1' && dialAddress(listener) !== '::1')) {
        now.set(listener.port, listener);
      }
    }
    let changed = false;
    for (const [port, forward] of this.forwards) {
      if (!now.has(port)) {
        this.closing.set(port, Promise.all(forward.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))).then(() => undefined));
        this.forwards.delete(port);
        changed = true;
      }
    }
    const accepted = loopbackPorts([...now.values()], new Set(), 1);
    for (const port of accepted) {
      const listener = now.get(port) as Listener;
      const known = this.forwards.get(port);
      if (known) {
        known.address = dialAddress(listener);
        continue;
      }
      changed = true;
      const count = [...this.forwards.values()].filter((forward) => forward.state === 'forwarded').length;
      const state: ForwardedPort['state'] = port < FIRST_UNPRIVILEGED_PORT ? 'privileged' : count >= MAX_FORWARDED_PORTS ? 'over' : 'forwarded';
      const forward: Forward = { port, state, address: dialAddress(listener), servers: [] };
      this.forwards.set(port, forward);
      if (state === 'forwarded') {
        this.start(forward);
      }
    }
    if (changed) {
      this.onChange();
    }
  }

  private start(forward: Forward): void {
    const listened = this.listenOnMachine(forward);
    this.listening.add(listened);
    void listened.finally(() => this.listening.delete(listened));
  }

  /** A port turned out taken: the lowest port past the limit gets its place. */
  private promote(): void {
    const next = [...this.forwards.values()].filter((forward) => forward.state === 'over').sort((a, b) => a.port - b.port)[0];
    if (next) {
      const forward: Forward = { ...next, state: 'forwarded', servers: [] };
      this.forwards.set(next.port, forward);
      this.start(forward);
    }
  }

  /** Listens on 127.0.0.1:<port> (taken if something else does) and ::1:<port> where it can. */
  private async listenOnMachine(forward: Forward): Promise<void> {
    const listenOn = (address: string): Promise<net.Server | undefined> =>
      new Promise((resolve) => {
        const server = net.createServer((client) => this.connect(forward, client));
        server.once('error', () => resolve(undefined));
        server.listen({ port: forward.port, host: address, exclusive: true }, () => resolve(server));
      });
    await this.closing.get(forward.port);
    const v4 = await listenOn('127.0.0.1');
    if (this.closed || this.forwards.get(forward.port) !== forward) {
      v4?.close();
      return;
    }
    if (!v4) {
      this.forwards.set(forward.port, { ...forward, state: 'taken' });
      this.promote();
      this.onChange();
      return;
    }
    forward.servers.push(v4);
    const v6 = await listenOn('::1');
    if (v6 && (this.closed || this.forwards.get(forward.port) !== forward)) {
      v6.close();
      v4.close();
      return;
    }
    if (v6) {
      forward.servers.push(v6);
    }
  }

  /** A connection to a forwarded port: ask the relay for a stream, and wait for it. */
  private connect(forward: Forward, client: net.Socket): void {
    this.track(client);
    const control = this.control;
    if (!control || this.waiting.size >= MAX_WAITING) {
      client.destroy();
      return;
    }
    client.pause();
    const id = this.nextId++;
    this.waiting.set(id, client);
    const timer = setTimeout(() => {
      if (this.waiting.get(id) === client) {
        this.waiting.delete(id);
        client.destroy();
      }
    }, STREAM_WAIT_MS);
    timer.unref();
    client.once('close', () => {
      clearTimeout(timer);
      if (this.waiting.get(id) === client) {
        this.waiting.delete(id);
      }
    });
    const open: PortsMessage = { open: id, address: forward.address, port: forward.port };
    control.write(formatMessage(open));
  }
}

/** The listening sockets of this process's network namespace (/proc/net/tcp and tcp6); none where /proc is absent. */
export function namespaceListeners(): Listener[] {
  const read = (file: string): Listener[] => {
    try {
      return parseListeners(readFileSync(file, 'latin1'));
    } catch {
      return [];
    }
  };
  return [...read('/proc/net/tcp'), ...read('/proc/net/tcp6')];
}

/**
 * The machine's loopback ports that take connections now, from FIRST_UNPRIVILEGED_PORT up, but
 * `excluded`: what an approved command's relay serves in its namespace.
 */
export function machineLoopbackPorts(excluded: ReadonlySet<number>): number[] {
  return loopbackPorts(namespaceListeners(), excluded);
}
