// The window's MCP front: the endpoint on the private socket (and the loopback HTTP mode when the
// user turned it on), started and stopped with workspaceAgentTools.mcp.*, its lock file kept in
// step with the window's trust and workspace folders, and removed when the extension deactivates.
// onDidChange tells the server definition VS Code knows (serverDefinitionProvider.ts) to look again.
import * as vscode from 'vscode';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Tool } from '../../core/tools/toolSpec';
import type { McpEndpoint, WindowFacts } from '../../mcp/endpoint';
import type { ConnectionOrigin } from '../../mcp/handshake';
import type { LoopbackHttpEndpoint } from '../../mcp/httpEndpoint';
import { runtimeFolder } from '../../mcp/privateFolder';
import { SETTINGS_SECTION } from '../../core/settings';
import { readMcpSettings } from '../host/settings';
import type { ToolServices } from '../tools/registration';
import { toolsForCaller, type ServerDefinition } from './serverDefinition';
import { describeClient } from './mcpClients';
import { errorMessage } from '../../core/errors';

/**
 * The endpoints and the tool server, loaded by the first start: they bring the MCP SDK and zod,
 * whose evaluation would otherwise be part of loading the extension, before activate() (most of
 * it: `npm run bench -- activation`). The bundle evaluates a module imported this way on first use.
 */
interface McpModules {
  readonly endpoint: typeof import('../../mcp/endpoint');
  readonly http: typeof import('../../mcp/httpEndpoint');
  readonly toolServer: typeof import('./toolServer');
}
let mcpModules: Promise<McpModules> | undefined;
function loadMcpModules(): Promise<McpModules> {
  mcpModules ??= Promise.all([import('../../mcp/endpoint'), import('../../mcp/httpEndpoint'), import('./toolServer')]).then(([endpoint, http, toolServer]) => ({ endpoint, http, toolServer }));
  return mcpModules;
}

/** What the front reports to the user's log (the activity output channel). */
export interface McpLog {
  appendLine(line: string): void;
}

/** One connection's server as the status shows it: who, from where, and how many tools it was last listed. */
export interface McpSessionStatus {
  readonly client: string;
  readonly origin: ConnectionOrigin | 'http';
  readonly listed?: number;
}

export class McpFront implements vscode.Disposable {
  private endpoint?: McpEndpoint;
  private http?: LoopbackHttpEndpoint;
  private readonly servers = new Map<Server, { origin: McpSessionStatus['origin']; listed?: number }>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when what the server definition is made of may have changed: the endpoint, trust, the MCP settings. */
  readonly onDidChange = this.changed.event;
  /** Whether VS Code knows the server through the definition provider, or why not, and the definition last offered (serverDefinitionProvider.ts). */
  definition: { state: string; offered?: ServerDefinition } = { state: 'not registered' };
  /** Why a part could not start, by part, until it starts. */
  private readonly failures = new Map<string, string>();
  private readonly listeners: vscode.Disposable[];
  /** The start or stop in progress, so settings changes apply one after another. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly tools: readonly Tool[],
    private readonly services: ToolServices,
    private readonly version: string,
    private readonly log: McpLog,
    /** The tools this window registers as Language Model Tools: VS Code's own MCP client is not listed them again. */
    private readonly languageModelTools: ReadonlySet<string>,
  ) {
    this.listeners = [
      this.changed,
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(`${SETTINGS_SECTION}.mcp`)) {
          void this.restart();
        }
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.announce();
        this.changed.fire();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.announce()),
    ];
  }

  /**
   * Brings the endpoints in line with the settings; resolves when done. The socket endpoint keeps
   * its sessions when only the HTTP mode changes, and a failure of one does not stop the other.
   */
  restart(): Promise<void> {
    this.queue = this.queue.then(async () => {
      const settings = readMcpSettings();
      if (!settings.enabled) {
        this.stop();
        return;
      }
      const modules = await loadMcpModules();
      await this.attempt('its MCP endpoint', () => this.startSocketEndpoint(modules));
      await this.attempt('the MCP HTTP mode', () => this.applyHttp(modules, settings.http ? settings.httpPort : undefined));
    }).finally(() => this.changed.fire());
    return this.queue;
  }

  /** Resolves when the start or stop in progress is done. */
  ready(): Promise<void> {
    return this.queue;
  }

  /** The socket endpoint's id while it serves (the relay's --window). */
  get windowId(): string | undefined {
    return this.endpoint?.id;
  }

  /** Runs one start step; a failure is logged and shown, not thrown. */
  private async attempt(what: string, step: () => Promise<void>): Promise<void> {
    try {
      await step();
      this.failures.delete(what);
    } catch (error) {
      const message = errorMessage(error);
      this.failures.set(what, message);
      this.log.appendLine(`MCP: could not start ${what}: ${message}`);
      void vscode.window.showWarningMessage(`Workspace Agent Tools could not start ${what}: ${message}`);
    }
  }

  private async startSocketEndpoint(modules: McpModules): Promise<void> {
    if (this.endpoint) {
      return;
    }
    this.endpoint = await modules.endpoint.McpEndpoint.start(
      {
        dir: runtimeFolder(),
        onSession: (transport, origin) => void this.newServer(modules, origin).connect(transport),
        onRefused: () => this.log.appendLine("MCP: refused a connection that did not send this window's nonce."),
      },
      this.facts(),
    );
    this.log.appendLine(`MCP: serving this window's tools on ${this.endpoint.socketPath} (lock file ${this.endpoint.lockFile}).`);
  }

  /** Starts, stops or moves the HTTP mode: `port` undefined turns it off, 0 takes any free port. */
  private async applyHttp(modules: McpModules, port: number | undefined): Promise<void> {
    if (this.http && (port === undefined || (port !== 0 && port !== this.http.port))) {
      this.http.close();
      this.http = undefined;
      this.log.appendLine('MCP: stopped serving over HTTP.');
    }
    if (port !== undefined && !this.http) {
      this.http = await modules.http.LoopbackHttpEndpoint.start({
        port,
        createServer: () => this.newServer(modules, 'http'),
        onRefused: (reason) => this.log.appendLine(`MCP (HTTP): refused a request: ${reason}.`),
      });
      this.log.appendLine(`MCP: serving over HTTP at ${this.http.url} (bearer token required).`);
    }
  }

  /** The lock file's facts as they are now. */
  private facts(): WindowFacts {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
    return { folders, trusted: vscode.workspace.isTrusted, app: vscode.env.appName };
  }

  private announce(): void {
    try {
      this.endpoint?.update(this.facts());
    } catch (error) {
      this.log.appendLine(`MCP: could not update the lock file: ${errorMessage(error)}`);
    }
  }

  private newServer(modules: McpModules, origin: McpSessionStatus['origin']): Server {
    const session: { origin: McpSessionStatus['origin']; listed?: number } = { origin };
    const server: Server = modules.toolServer.createToolServer(this.tools, this.services, this.version, (served) => {
      const listed = toolsForCaller(
        served,
        { origin: origin === 'http' ? 'agent' : origin, clientName: server.getClientVersion()?.name },
        { appName: vscode.env.appName, languageModelTools: this.languageModelTools, vscodeClientTools: readMcpSettings().vscodeClientTools },
      );
      session.listed = listed.length;
      return listed;
    });
    server.oninitialized = () => this.log.appendLine(`MCP: ${describeClient(server.getClientVersion()).label} connected${origin === 'vscode-definition' ? " (started by VS Code from this window's server definition)" : ''}.`);
    const closed = server.onclose;
    server.onclose = () => {
      closed?.();
      this.servers.delete(server);
    };
    this.servers.set(server, session);
    return server;
  }

  /** The socket, the lock file, the HTTP endpoint, start failures, the server definition and the connected clients, for the configuration commands and tests. */
  get status(): {
    readonly socket?: string;
    readonly lockFile?: string;
    readonly http?: { readonly url: string; readonly token: string };
    readonly failures: Readonly<Record<string, string>>;
    readonly definition: { readonly state: string; readonly offered?: ServerDefinition };
    readonly sessions: readonly McpSessionStatus[];
  } {
    const sessions = [...this.servers].map(([server, session]) => ({ client: describeClient(server.getClientVersion()).client, ...session }));
    return { socket: this.endpoint?.socketPath, lockFile: this.endpoint?.lockFile, http: this.http && { url: this.http.url, token: this.http.token }, failures: Object.fromEntries(this.failures), definition: this.definition, sessions };
  }

  private stop(): void {
    for (const server of this.servers.keys()) {
      void server.close();
    }
    this.servers.clear();
    this.endpoint?.close();
    this.endpoint = undefined;
    this.http?.close();
    this.http = undefined;
  }

  dispose(): void {
    for (const listener of this.listeners) {
      listener.dispose();
    }
    this.stop();
  }
}
