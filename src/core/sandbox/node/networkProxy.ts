// The proxy approved sandboxed commands reach the network through (an adapter: it listens and
// dials). Each command gets its own endpoint, an HTTP proxy (CONNECT tunnels and plain http://
// requests, parsed by node:http) and a SOCKS5 proxy (@pondwader/socks5-server), on unix sockets in
// a private folder (0700) that bubblewrap binds into the command's own network namespace, where the
// relay (proxyRelay.ts) serves them on loopback ports; on macOS, on loopback TCP ports that the
// Seatbelt profile alone allows. Every connection goes through the command's gate (networkGate.ts):
// the name is judged and maybe asked about, then resolved here, every address checked (network.ts),
// and the checked address dialled, so a name cannot be resolved again to somewhere else.
import { createServer as createSocksServer, type Socks5Server } from '@pondwader/socks5-server';
import { lookup } from 'node:dns/promises';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import type { Duplex } from 'node:stream';
import type { EndpointRequest, ForwardedPort, NetworkGate, ProxyEndpoint, SandboxNetwork } from '../../ports/process';
import { checkAddresses, isValidHost, normalizeHost } from '../network';
import { MAX_LOCAL_PORTS, PORTS_SOCKET } from '../ports';
import { CommandPorts, machineLoopbackPorts } from './portForwards';

/** How a connection is dialled or why not. */
type Dialled = { readonly socket: net.Socket; readonly address: string } | { readonly refused: string };

/** Names to addresses: the system's resolver, or a test's map (see NetworkProxy.mapNames). */
export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** The file names of the two sockets in an endpoint's folder. */
export const HTTP_SOCKET = 'http.sock';
export const SOCKS_SOCKET = 'socks.sock';

const CONNECT_TIMEOUT_MS = 30_000;

export class NetworkProxy implements SandboxNetwork {
  readonly sessionDomains = new Set<string>();
  private resolver: Resolver = systemResolver;
  /** Names a test maps to loopback servers: they stand in for public hosts, so their addresses are not refused as loopback. */
  private standIns = new Map<string, string>();
  private readonly open = new Set<ProxyEndpoint>();

  /**
   * `folder` is made (0700) when the first unix endpoint is opened; each endpoint gets a folder
   * inside it. `relay` is the program and script bubblewrap runs first (see SandboxNetwork.relay).
   */
  constructor(
    private readonly folder: () => string,
    readonly relay: { readonly program: string; readonly script: string },
  ) {}

  /**
   * Tests only (the extension registers the command that calls it in its test mode): names resolved
   * to the given addresses instead of through DNS, standing in for public hosts.
   */
  mapNames(names: Readonly<Record<string, string>>): void {
    this.standIns = new Map(Object.entries(names).map(([name, address]) => [normalizeHost(name), address]));
  }

  /**
   * Listens for one command; `close` stops listening and ends the command's connections. The proxy
   * (with a gate) for an approved command; the port forwards (unix only) for a background one.
   */
  async openEndpoint(request: EndpointRequest): Promise<ProxyEndpoint> {
    const { gate, transport } = request;
    const sockets = new Set<Duplex>();
    const track = (socket: Duplex): void => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    };
    const httpServer = gate ? this.httpServer(gate, track) : undefined;
    const socks = gate ? this.socksServer(gate, track) : undefined;
    // The SOCKS side listens on a server of ours that hands each connection to the library (its
    // _handleConnection is public for streams injected so), so this code owns what it listens on and closes.
    const netServer = socks
      ? net.createServer((socket) => {
          socket.setNoDelay();
          socks._handleConnection(socket);
        })
      : undefined;
    const ports = request.forwardPorts && transport === 'unix' ? new CommandPorts() : undefined;
    const servers = [httpServer, netServer].filter((server): server is net.Server => server !== undefined);
    let directory: string | undefined;
    const listen = (server: net.Server, where: string | number): Promise<void> =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        const done = (): void => {
          server.off('error', reject);
          resolve();
        };
        if (typeof where === 'string') {
          server.listen(where, done);
        } else {
          server.listen(where, '127.0.0.1', done);
        }
      });
    const close = async (): Promise<void> => {
      this.open.delete(endpoint);
      await Promise.all([...servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))), ports?.close()]);
      for (const socket of sockets) {
        socket.destroy();
      }
      if (directory) {
        rmSync(directory, { recursive: true, force: true });
      }
    };
    const forwarded = (): readonly ForwardedPort[] => ports?.forwarded() ?? [];
    const settlePorts = async (): Promise<void> => ports?.settle();
    let endpoint: ProxyEndpoint;
    try {
      if (transport === 'unix') {
        const base = this.folder();
        mkdirSync(base, { recursive: true, mode: 0o700 });
        directory = mkdtempSync(path.join(base, 'c-'));
        if (httpServer && netServer) {
          await listen(httpServer, path.join(directory, HTTP_SOCKET));
          await listen(netServer, path.join(directory, SOCKS_SOCKET));
        }
        await ports?.listen(path.join(directory, PORTS_SOCKET));
        endpoint = { transport, directory, proxy: gate !== undefined, ports: ports !== undefined, ...(gate ? { http: path.join(directory, HTTP_SOCKET), socks: path.join(directory, SOCKS_SOCKET) } : {}), forwarded, settlePorts, close };
      } else {
        if (!httpServer || !netServer) {
          throw new Error('A loopback endpoint is the proxy: it needs a gate');
        }
        await listen(httpServer, 0);
        await listen(netServer, 0);
        endpoint = { transport, http: (httpServer.address() as net.AddressInfo).port, socks: (netServer.address() as net.AddressInfo).port, forwarded, settlePorts, close };
      }
    } catch (error) {
      servers.forEach((server) => server.close());
      void ports?.close();
      if (directory) {
        rmSync(directory, { recursive: true, force: true });
      }
      throw error;
    }
    this.open.add(endpoint);
    return endpoint;
  }

  /** The loopback ports the window's open endpoints forward to the machine now. */
  forwardedPorts(): number[] {
    return [...this.open].flatMap((endpoint) => endpoint.forwarded().filter((entry) => entry.state === 'forwarded').map((entry) => entry.port));
  }

  /** The machine's loopback ports listened on now, at most MAX_LOCAL_PORTS of them, but `excluded`. */
  machinePorts(excluded: ReadonlySet<number>): number[] {
    return machineLoopbackPorts(excluded).slice(0, MAX_LOCAL_PORTS);
  }

  /** Closes every endpoint still open (extension deactivation). */
  async dispose(): Promise<void> {
    await Promise.all([...this.open].map((endpoint) => endpoint.close()));
  }

  /** Judges, resolves, checks and dials host:port for a command; what it reached or refused goes to its tally. */
  async dial(gate: NetworkGate, rawHost: string, port: number): Promise<Dialled> {
    const host = normalizeHost(rawHost);
    if (!isValidHost(host) || !Number.isInteger(port) || port < 1 || port > 65535) {
      return { refused: `${rawHost}:${port} is not a host and port` };
    }
    const refuse = (why: string): Dialled => {
      gate.noteRefused(host);
      return { refused: why };
    };
    const admission = await gate.admit(host, port);
    if (!admission.allowed) {
      return refuse(admission.why);
    }
    const standIn = this.standIns.get(host);
    let addresses: string[];
    if (standIn) {
      addresses = [standIn];
    } else if (net.isIP(host)) {
      addresses = [host];
    } else if (host === 'localhost') {
      // The gate asked about this machine's port: the machine's own loopback, whatever a resolver says.
      addresses = ['127.0.0.1'];
    } else {
      try {
        addresses = await this.resolver(host);
      } catch {
        return refuse(`${host} did not resolve`);
      }
    }
    const checked = checkAddresses(host, addresses, admission.named || standIn !== undefined);
    if ('refused' in checked) {
      return refuse(checked.refused);
    }
    return new Promise<Dialled>((resolve) => {
      const socket = net.connect({ host: checked.address, port });
      socket.setTimeout(CONNECT_TIMEOUT_MS, () => socket.destroy(new Error('timed out')));
      socket.once('connect', () => {
        socket.setTimeout(0);
        gate.noteReached(host);
        resolve({ socket, address: checked.address });
      });
      socket.once('error', (error) => resolve({ refused: `${host}:${port} could not be reached: ${error.message}` }));
    });
  }

  private httpServer(gate: NetworkGate, track: (socket: Duplex) => void): http.Server {
    const server = http.createServer((request, response) => {
      void this.forward(gate, request, response, track);
    });
    server.on('connection', track);
    server.on('connect', (request: http.IncomingMessage, client: Duplex, head: Buffer) => {
      track(client);
      client.on('error', () => undefined);
      const target = parseAuthority(request.url ?? '');
      if (!target) {
        client.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\nCONNECT needs host:port\n');
        return;
      }
      void this.dial(gate, target.host, target.port).then((dialled) => {
        if ('refused' in dialled) {
          client.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nWorkspace Agent Tools proxy: ${dialled.refused}\n`);
          return;
        }
        track(dialled.socket);
        dialled.socket.on('error', () => client.destroy());
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length) {
          dialled.socket.write(head);
        }
        dialled.socket.pipe(client).pipe(dialled.socket);
        client.on('close', () => dialled.socket.destroy());
      });
    });
    return server;
  }

  /** A plain `GET http://host/path` through the proxy: the request is sent on to the checked address. */
  private async forward(gate: NetworkGate, request: http.IncomingMessage, response: http.ServerResponse, track: (socket: Duplex) => void): Promise<void> {
    let url: URL;
    try {
      url = new URL(request.url ?? '');
    } catch {
      response.writeHead(400, { 'Content-Type': 'text/plain' }).end('Workspace Agent Tools proxy: only absolute http:// URLs and CONNECT are served\n');
      return;
    }
    if (url.protocol !== 'http:') {
      response.writeHead(400, { 'Content-Type': 'text/plain' }).end(`Workspace Agent Tools proxy: ${url.protocol} is not served; use CONNECT\n`);
      return;
    }
    const dialled = await this.dial(gate, url.hostname, Number(url.port || 80));
    if ('refused' in dialled) {
      response.writeHead(403, { 'Content-Type': 'text/plain' }).end(`Workspace Agent Tools proxy: ${dialled.refused}\n`);
      return;
    }
    track(dialled.socket);
    const headers = { ...request.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    // The dialled socket is the connection, through an agent of its own (VS Code replaces the
    // default agent in the extension host); host and port are the checked address all the same.
    const agent = new DialledAgent(dialled.socket);
    const upstream = http.request({ agent, host: dialled.address, port: Number(url.port || 80), method: request.method, path: `${url.pathname}${url.search}`, headers: { ...headers, host: url.host, connection: 'close' } });
    upstream.on('close', () => {
      dialled.socket.destroy();
      agent.destroy();
    });
    upstream.on('response', (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', (error) => {
      if (!response.headersSent) {
        response.writeHead(502, { 'Content-Type': 'text/plain' });
      }
      response.end(`Workspace Agent Tools proxy: ${error.message}\n`);
    });
    request.pipe(upstream);
  }

  private socksServer(gate: NetworkGate, track: (socket: Duplex) => void): Socks5Server {
    const server = createSocksServer();
    server.setConnectionHandler((connection, sendStatus) => {
      track(connection.socket);
      connection.socket.on('error', () => undefined);
      if (connection.command !== 'connect') {
        sendStatus('COMMAND_NOT_SUPPORTED');
        return;
      }
      void this.dial(gate, connection.destAddress, connection.destPort).then((dialled) => {
        if ('refused' in dialled) {
          sendStatus('CONNECTION_NOT_ALLOWED');
          return;
        }
        track(dialled.socket);
        dialled.socket.on('error', () => connection.socket.destroy());
        sendStatus('REQUEST_GRANTED');
        connection.socket.pipe(dialled.socket).pipe(connection.socket);
        connection.socket.on('close', () => dialled.socket.destroy());
      });
    });
    return server;
  }
}

/** An agent whose one connection is the socket the proxy dialled after its checks. */
class DialledAgent extends http.Agent {
  constructor(private readonly socket: net.Socket) {
    super({ keepAlive: false });
  }

  override createConnection(): net.Socket {
    return this.socket;
  }
}

/** `host:port` or `[v6]:port` of a CONNECT request. */
export function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/\s]+):(\d{1,5})$/.exec(authority);
  return match ? { host: match[1], port: Number(match[2]) } : undefined;
}
