// The MCP server one authenticated connection talks to: every tool of the list with its name,
// schema, description and annotations, each call through callTool (the LM tools' own path: guard,
// trust, plan mode, sandbox, approvals in this window, redaction, the activity record). Requests
// are treated as hostile: unknown tools and tools the window's trust does not allow are refused
// here, and the input is validated by the tool before anything runs.
import * as vscode from 'vscode';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type ProgressToken, type ServerNotification, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { HeldCallHooks } from '../../core/calls/heldCalls';
import { failureMessage } from '../../core/calls/runCall';
import { continuationFirst, untrustedMessage } from '../../core/tools/invoke';
import { isReadOnly, type Tool, type ToolResult } from '../../core/tools/toolSpec';
import { MCP_SERVER_NAME, MCP_SERVER_TITLE } from '../../mcp/serverInfo';
import { answerWithinSeconds, cleanName, describeClient } from './mcpClients';
import { readMcpSettings } from '../host/settings';
import { callTool, type ToolServices } from '../tools/registration';

/**
 * A tool as MCP lists it; annotations say which tools only read and which change things. No
 * `outputSchema`, so no result carries `structuredContent`: with it, Claude Code 2.1.331, Codex CLI
 * 0.169.0 and VS Code 1.139's own MCP client give the model the structured JSON instead of the text
 * content (only Gemini CLI shows the text), so a model would get a file's metadata instead of its
 * lines (test/agents/FINDINGS.md, "Long results and structured content").
 */
export function describeForMcp(tool: Tool): McpTool {
  const readOnly = isReadOnly(tool);
  return {
    name: tool.name,
    title: tool.displayName,
    description: tool.modelDescription,
    inputSchema: tool.inputSchema as McpTool['inputSchema'],
    annotations: { title: tool.displayName, readOnlyHint: readOnly, destructiveHint: !readOnly, openWorldHint: tool.access === 'command' },
  };
}

/** The tools a window serves: all of them when trusted, the reading ones in Restricted Mode. */
export function servedTools(tools: readonly Tool[], trusted: boolean): readonly Tool[] {
  return tools.filter((tool) => trusted || tool.access === 'read');
}

/**
 * A result as MCP content: text parts as text, images as base64 image content, led by the note on
 * how to get what the result left out (continuationFirst), which survives whatever part of a long
 * result the client keeps.
 */
export function toMcpContent(result: ToolResult): CallToolResult['content'] {
  return continuationFirst(result).parts.map((part) => (part.kind === 'text' ? { type: 'text', text: part.text } : { type: 'image', mimeType: part.mimeType, data: Buffer.from(part.data).toString('base64') }));
}

/** How often a call that is still running tells a client that asked for progress. */
export const PROGRESS_INTERVAL_MS = 10_000;

/**
 * While a call runs (a diff review a person takes minutes over, a long command), a progress
 * notification every PROGRESS_INTERVAL_MS for a client that sent a progressToken: a client that
 * resets its timeout on progress (the SDK's resetTimeoutOnProgress) keeps the call.
 */
function progressWhileRunning(token: ProgressToken, toolName: string, send: (notification: ServerNotification) => Promise<void>): { dispose(): void } {
  let beats = 0;
  const timer = setInterval(() => {
    beats += 1;
    const message = `${toolName} is still running (${(beats * PROGRESS_INTERVAL_MS) / 1000} s): waiting for the user's answer in VS Code, or for the work to finish.`;
    send({ method: 'notifications/progress', params: { progressToken: token, progress: beats, message } }).catch(() => undefined);
  }, PROGRESS_INTERVAL_MS);
  return { dispose: () => clearInterval(timer) };
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * A new MCP server for one connection (the SDK's Server serves one transport). `listed` picks what
 * tools/list shows this connection's client from what the window serves (mcpFront: VS Code's own
 * client is not listed the tools it has as Language Model Tools); calls are not narrowed by it.
 * Whoever adds an onclose keeps this one's.
 */
export function createToolServer(tools: readonly Tool[], services: ToolServices, version: string, listed: (served: readonly Tool[]) => readonly Tool[] = (served) => served): Server {
  const server = new Server({ name: MCP_SERVER_NAME, title: MCP_SERVER_TITLE, version }, { capabilities: { tools: {} } });
  // The calls of this connection that have not ended, held ones included: when the agent goes away
  // they are cancelled (a review it can no longer hear the answer of is withdrawn).
  const unfinished = new Set<vscode.CancellationTokenSource>();
  server.onclose = () => unfinished.forEach((each) => each.cancel());
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed(servedTools(tools, vscode.workspace.isTrusted)).map(describeForMcp) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: input } = request.params;
    const tool = tools.find((candidate) => candidate.name === name);
    if (!tool) {
      return errorResult(`There is no tool named ${JSON.stringify(cleanName(name))}. The tools are: ${servedTools(tools, vscode.workspace.isTrusted).map((each) => each.name).join(', ')}.`);
    }
    if (!servedTools(tools, vscode.workspace.isTrusted).includes(tool)) {
      return errorResult(untrustedMessage(tool));
    }
    const { client, label } = describeClient(server.getClientVersion());
    const progressToken = request.params._meta?.progressToken;
    const progress = progressToken === undefined ? undefined : progressWhileRunning(progressToken, tool.name, extra.sendNotification);
    // The call's own cancellation: the request's abort cancels it until the call is held; a held
    // call goes on (the user may still accept) and lets go of the source when it ends.
    const cancellation = new vscode.CancellationTokenSource();
    const cancel = (): void => cancellation.cancel();
    extra.signal.addEventListener('abort', cancel, { once: true });
    if (extra.signal.aborted) {
      cancel();
    }
    const origin = { client, clientLabel: label };
    const start = (hooks?: HeldCallHooks): Promise<ToolResult> => {
      // MCP has no confirmation of its own: every change goes to the diff review and the approval queue.
      const running = callTool(tool, input ?? {}, services, cancellation.token, { ...origin, ...hooks });
      unfinished.add(cancellation);
      const ended = (): void => {
        unfinished.delete(cancellation);
        cancellation.dispose();
      };
      void running.then(ended, ended);
      return running;
    };
    try {
      const within = answerWithinSeconds(server.getClientVersion(), readMcpSettings().answerWithinSeconds) * 1000;
      const result = await (services.heldCalls ? services.heldCalls.callWithin(tool, within, start) : start());
      return { content: toMcpContent(result) };
    } catch (error) {
      return errorResult(failureMessage(tool, error));
    } finally {
      progress?.dispose();
      extra.signal.removeEventListener('abort', cancel);
    }
  });
  return server;
}
