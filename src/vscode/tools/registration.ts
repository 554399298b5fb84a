// Every tool registered with the Language Model Tools API, and the call path the MCP endpoint
// shares: each call gets its context from VS Code's settings and workspace as they are now, then
// core's runCall (trace, approvals, checkpoints, activity record) runs it.
import * as vscode from 'vscode';
import { ShownConfirmations } from '../../core/calls/chatConfirmations';
import type { HeldCallRegistry } from '../../core/calls/heldCalls';
import { failureMessage, runCall, type CallOrigin } from '../../core/calls/runCall';
import type { HostServices, SessionServices, ToolContext } from '../../core/context';
import type { CheckpointStore } from '../../core/ports/checkpoints';
import { checkAvailability, invokeTool } from '../../core/tools/invoke';
import type { Tool, ToolConfirmation, ToolResult } from '../../core/tools/toolSpec';
import { CommandId } from '../commandIds';
import { readToolSettings, readWorkspaceInfo } from '../host/settings';
import type { ActivityLog } from '../ui/activityLog';

/** The long-lived services every call shares. */
export interface ToolServices {
  /** Everything but commands, which exist only where the workspace is on a disk. */
  readonly host: Omit<HostServices, 'commands'>;
  readonly commands?: HostServices['commands'];
  readonly session: SessionServices;
  readonly activity?: ActivityLog;
  /** Where checkpoints are kept; absent: no checkpoints (hosts without a local disk for the store). */
  readonly checkpoints?: CheckpointStore;
  /** Calls an MCP client stopped waiting for (the same registry as session.heldCalls). */
  readonly heldCalls?: HeldCallRegistry;
}

/** A call's context: the settings and workspace as they are now; commands only where every folder is on disk. */
function contextFor(services: ToolServices, token: vscode.CancellationToken): ToolContext {
  const workspace = readWorkspaceInfo();
  const onDisk = workspace.folders.every((folder) => folder.location.scheme === 'file');
  return {
    host: { ...services.host, commands: onDisk ? services.commands : undefined },
    session: services.session,
    call: { token },
    settings: readToolSettings(),
    workspace,
  };
}

/** Runs one call through core's runCall, recorded in the activity log: the call path of chat, the palette, other extensions and MCP. */
export function callTool(tool: Tool, input: unknown, services: ToolServices, token: vscode.CancellationToken, origin: CallOrigin): Promise<ToolResult> {
  return runCall(tool, input, { context: contextFor(services, token), activity: services.activity, checkpoints: services.checkpoints }, origin);
}

type DataPartFactory = { image(data: Uint8Array, mimeType: string): unknown };

/** Turns core's result into VS Code's, images as data parts where this VS Code has them. */
export function toLanguageModelResult(result: ToolResult): vscode.LanguageModelToolResult {
  const dataPart = (vscode as unknown as { LanguageModelDataPart?: DataPartFactory }).LanguageModelDataPart;
  const parts = result.parts.map((part) => {
    if (part.kind === 'text') {
      return new vscode.LanguageModelTextPart(part.text);
    }
    // The data part is a 1.100 proposal finalised later; typed as a text part for the stable API.
    return dataPart
      ? (dataPart.image(part.data, part.mimeType) as vscode.LanguageModelTextPart)
      : new vscode.LanguageModelTextPart(`[${part.mimeType} image of ${part.data.length} bytes: this VS Code cannot pass images to the model]`);
  });
  return new vscode.LanguageModelToolResult(parts);
}

/** What chat shows before and during a call: the message, and the confirmation for calls that ask. */
async function prepareInvocation(tool: Tool, input: unknown, services: ToolServices, token: vscode.CancellationToken): Promise<{ message: string; confirmation?: ToolConfirmation }> {
  let call;
  try {
    call = tool.prepare(input);
  } catch {
    // Invalid input: invoke refuses it with the reason; nothing runs, so there is nothing to confirm.
    return { message: tool.displayName };
  }
  if (!tool.confirms) {
    return { message: call.invocationMessage };
  }
  const ctx = contextFor(services, token);
  try {
    checkAvailability(tool, ctx);
  } catch {
    // Refused anyway (untrusted, plan mode): invoke says why.
    return { message: call.invocationMessage };
  }
  return { message: call.invocationMessage, confirmation: await call.confirmation(ctx) };
}

/**
 * The confirmation as chat shows it. A command that asks only for sub-commands a runCommand.allow
 * entry would let through gets a link that shows those entries and saves them on yes; the link is
 * the only command the markdown may run.
 */
function confirmationMarkdown(confirmation: ToolConfirmation): vscode.MarkdownString {
  const rules = confirmation.allowRules ?? [];
  if (rules.length === 0) {
    return new vscode.MarkdownString(confirmation.message);
  }
  const link = `command:${CommandId.saveAllowRules}?${encodeURIComponent(JSON.stringify([rules]))}`;
  const named = rules.map((rule) => `\`${rule.replace(/`/g, "'")}\``).join(', ');
  const markdown = new vscode.MarkdownString(`${confirmation.message}\n\n[Always allow ${named}...](${link} "Shows the rule, then saves it to workspaceAgentTools.runCommand.allow in your user settings")`);
  markdown.isTrusted = { enabledCommands: [CommandId.saveAllowRules] };
  return markdown;
}

/** Registers every tool with the Language Model Tools API. */
export function registerTools(tools: readonly Tool[], services: ToolServices): vscode.Disposable[] {
  const shown = new ShownConfirmations();
  return tools.map((tool) =>
    vscode.lm.registerTool<Record<string, unknown>>(tool.name, {
      async prepareInvocation(options, token) {
        const { message, confirmation } = await prepareInvocation(tool, options.input, services, token);
        if (confirmation) {
          shown.add(tool.name, options.input, confirmation.message);
        }
        return {
          invocationMessage: message,
          confirmationMessages: confirmation && { title: confirmation.title, message: confirmationMarkdown(confirmation) },
        };
      },
      async invoke(options, token) {
        try {
          // From chat (an invocation token), the confirmation chat showed and the user accepted, if
          // any: a tool asks again unless its question now is that one (calls/chatConfirmations.ts).
          const fromChat = options.toolInvocationToken !== undefined;
          const chatConfirmation = fromChat ? shown.take(tool.name, options.input) : undefined;
          const origin = { ...(chatConfirmation !== undefined ? { chatConfirmation } : {}), tokenBudget: options.tokenizationOptions?.tokenBudget, client: fromChat ? 'chat' : 'extension' };
          return toLanguageModelResult(await callTool(tool, options.input, services, token, origin));
        } catch (error) {
          throw new Error(failureMessage(tool, error));
        }
      },
    }),
  );
}

/**
 * Test mode only: a command that runs a tool through core alone, with the context a Language Model
 * Tool call gets but without VS Code's tool service or the result's conversion: through invokeTool
 * (the default), or through runCall (invokeTool with the call's trace, checkpoints and activity
 * record, as every client's call). The host bench (test/bench/host) times both beside
 * vscode.lm.invokeTool in the same extension host, which splits a call's time between VS Code, the
 * record and the tool; the milliseconds are taken here, so the command's own dispatch is not counted.
 */
export function registerCoreInvokeForTests(tools: readonly Tool[], services: ToolServices): vscode.Disposable {
  return vscode.commands.registerCommand(CommandId.invokeCoreToolForTests, async (name: unknown, input: unknown, through: unknown): Promise<{ texts: string[]; ms: number }> => {
    const tool = tools.find((each) => each.name === name);
    if (!tool) {
      throw new Error(`no tool named ${String(name)}`);
    }
    const token = new vscode.CancellationTokenSource().token;
    const ctx = contextFor(services, token);
    const started = performance.now();
    try {
      const result = through === 'runCall' ? await callTool(tool, input, services, token, { client: 'extension' }) : await invokeTool(tool, input, ctx);
      const ms = performance.now() - started;
      return { texts: result.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])), ms };
    } catch (error) {
      throw new Error(failureMessage(tool, error));
    }
  });
}
