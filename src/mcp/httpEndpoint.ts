// The optional loopback HTTP mode (workspaceAgentTools.mcp.http): the SDK's Streamable HTTP
// transport on 127.0.0.1 only, behind checks made before any MCP code sees the request. A request
// with an Origin header (a browser page, whatever its origin) is refused, so is one whose Host is
// not this loopback address and port (DNS rebinding), and one without the bearer token. No CORS
// headers are sent and no OAuth metadata is served: the token is the only way in.
import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { newNonce, secretsMatch } from './handshake';
import { MAX_MESSAGE_BYTES } from './socketTransport';

export const MCP_HTTP_PATH = '/mcp';
/** Sessions kept at once; the oldest is closed beyond this. */
const MAX_SESSIONS = 16;

export interface HttpEndpointOptions {
  /** 0 picks a free port. */
  readonly port: number;
  /** A new MCP server for a new session. */
  createServer(): Server;
  /** A refused request and why, for the log. */
  onRefused?(reason: string): void;
}

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
}

/** Why a request is refused before it reaches MCP, or undefined when it may pass. */
export function refusalOf(headers: http.IncomingHttpHeaders, port: number, token: string): { status: number; reason: string } | undefined {
  if (headers.origin !== undefined) {
    return { status: 403, reason: 'requests from web pages (with an Origin header) are refused' };
  }
  const host = headers.host ?? '';
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
    return { status: 403, reason: `the Host header ${JSON.stringify(host)} is not this loopback endpoint` };
  }
  const authorization = headers.authorization ?? '';
  const given = authorization.startsWith('Bearer ') ? authorization.slice('Bearer '.length).trim() : '';
  if (!secretsMatch(token, given)) {
    return { status: 401, reason: 'a valid bearer token is required' };
  }
  return undefined;
}

function refuse(response: http.ServerResponse, status: number, reason: string): void {
  response.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: `Refused: ${reason}.` }, id: null }));
}

/** Reads a JSON body of at most MAX_MESSAGE_BYTES. */
function readJsonBody(request: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_MESSAGE_BYTES) {
        reject(new Error('the request body is too large'));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new Error('the request body is not JSON'));
      }
    });
    request.on('error', reject);
  });
}

export class LoopbackHttpEndpoint {
  private readonly sessions = new Map<string, Session>();

  private constructor(
    private readonly server: http.Server,
    readonly port: number,
    readonly token: string,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}${MCP_HTTP_PATH}`;
  }

  static async start(options: HttpEndpointOptions): Promise<LoopbackHttpEndpoint> {
    const token = newNonce();
    const server = http.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    const endpoint = new LoopbackHttpEndpoint(server, typeof address === 'object' && address ? address.port : options.port, token);
    server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
      endpoint.handle(request, response, options).catch((error: unknown) => {
        if (!response.headersSent) {
          refuse(response, 400, error instanceof Error ? error.message : String(error));
        }
      });
    });
    return endpoint;
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse, options: HttpEndpointOptions): Promise<void> {
    const refusal = refusalOf(request.headers, this.port, this.token);
    if (refusal) {
      options.onRefused?.(refusal.reason);
      refuse(response, refusal.status, refusal.reason);
      return;
    }
    if (new URL(request.url ?? '/', 'http://127.0.0.1').pathname !== MCP_HTTP_PATH) {
      refuse(response, 404, `the MCP endpoint is ${MCP_HTTP_PATH}`);
      return;
    }
    const body = request.method === 'POST' ? await readJsonBody(request) : undefined;
    const sessionHeader = request.headers['mcp-session-id'];
    const existing = typeof sessionHeader === 'string' ? this.sessions.get(sessionHeader) : undefined;
    if (existing) {
      await existing.transport.handleRequest(request, response, body);
      return;
    }
    if (sessionHeader !== undefined) {
      refuse(response, 404, 'unknown session; initialize again');
      return;
    }
    const session = this.newSession(options);
    await session.server.connect(session.transport);
    await session.transport.handleRequest(request, response, body);
  }

  private newSession(options: HttpEndpointOptions): Session {
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      // The checks above already hold; the SDK's own are kept as a second line.
      enableDnsRebindingProtection: true,
      allowedHosts: [`127.0.0.1:${this.port}`, `localhost:${this.port}`],
      allowedOrigins: [],
      onsessioninitialized: (id) => {
        this.sessions.set(id, session);
        for (const [oldId, old] of this.sessions) {
          if (this.sessions.size <= MAX_SESSIONS) {
            break;
          }
          this.sessions.delete(oldId);
          void old.server.close();
        }
      },
      onsessionclosed: (id) => {
        this.sessions.delete(id);
      },
    });
    const session: Session = { transport, server: options.createServer() };
    return session;
  }

  close(): void {
    for (const session of this.sessions.values()) {
      void session.server.close();
    }
    this.sessions.clear();
    this.server.closeAllConnections();
    this.server.close();
  }
}
