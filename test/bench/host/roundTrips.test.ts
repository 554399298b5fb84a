// The host bench's measurements, taken inside a real extension host (see index.ts): one call's
// round trip through each front, and the extension host's memory. The raw samples go to
// `$WAT_BENCH_HOST_OUT/vscode-<version>.json`; scripts/bench/host.mjs turns them into p50, p90 and
// ratios side by side for every VS Code version. Nothing here asserts a time: a slow machine gives
// slow figures, not a failure.
import { fork } from 'child_process';
import * as fs from 'fs';
import * as inspector from 'inspector';
import * as path from 'path';
import * as v8 from 'v8';
import * as vm from 'vm';
import * as vscode from 'vscode';
import { CommandId } from '../../../src/vscode/commandIds';
import { backgroundId } from '../../support/commandResults';
import { REPO, until, withSettings, workspaceRoot } from '../../integration/support/tools';

const READ = 'workspace_read_file';
const RUN = 'workspace_run_command';
const READ_INPUT = { file_path: 'bench-host/five-hundred.txt', limit: 500 };
/** Calls of each front before any is timed: module loading, JIT, the first checkpoint. */
const WARM_UP = 30;
const TIMED_READS = 200;
const TIMED_COMMANDS = 30;
const BACKGROUND_COMMANDS = 5;

/** One memory reading of this process, the extension host. */
interface MemorySample {
  /** VmRSS of /proc/self/status. */
  readonly rssKiB: number;
  /** V8's used heap, which shows a leak of JavaScript objects under the noise of RSS. */
  readonly heapUsedKiB: number;
}

/** What one VS Code version's run writes for scripts/bench/host.mjs. */
export interface HostBenchResult {
  readonly vscode: string;
  readonly node: string;
  readonly gcForced: boolean;
  /** Milliseconds of each timed call. */
  readonly read: { readonly lm: number[]; readonly core: number[]; readonly mcp: number[]; readonly runCall: number[]; readonly workbenchRoundTrip: number[]; readonly resultChars: number };
  /**
   * With WAT_BENCH_HOST_PROFILE=1: where the extension host's CPU went during read_file calls through
   * vscode.lm.invokeTool; =mcp, through the agent and the relay; =command, during run_command `true` through core invokeTool, unsandboxed.
   */
  readonly profile?: ProfileSummary;
  /** Through vscode.lm.invokeTool, runCall and invokeTool: see where the command's time goes. */
  readonly command: {
    readonly sandboxed: number[];
    readonly unsandboxed: number[];
    readonly sandboxedRunCall: number[];
    readonly unsandboxedRunCall: number[];
    readonly sandboxedCore: number[];
    readonly unsandboxedCore: number[];
  };
  readonly memory: { readonly idle: MemorySample; readonly background: MemorySample; readonly after100: MemorySample; readonly after1000: MemorySample };
}

/** The functions that took the most of the host's CPU, self time, over `calls` calls. */
interface ProfileSummary {
  readonly calls: number;
  readonly totalMs: number;
  readonly top: { readonly name: string; readonly selfMs: number }[];
}

/** Profiles `calls` calls of `call` with V8's sampling profiler, in this process, and sums self time per function. */
async function profile(calls: number, call: () => Promise<unknown>): Promise<ProfileSummary> {
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object): Promise<unknown> =>
    new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  for (let i = 0; i < calls; i += 1) await call();
  const { profile: cpu } = (await post('Profiler.stop')) as { profile: inspector.Profiler.Profile };
  session.disconnect();
  const intervals = cpu.timeDeltas ?? [];
  const byNode = new Map<number, number>();
  for (const [index, id] of (cpu.samples ?? []).entries()) byNode.set(id, (byNode.get(id) ?? 0) + (intervals[index] ?? 0) / 1000);
  const byName = new Map<string, number>();
  for (const node of cpu.nodes) {
    const frame = node.callFrame;
    const name = `${frame.functionName || '(anonymous)'} ${path.basename(frame.url)}:${frame.lineNumber + 1}`;
    byName.set(name, (byName.get(name) ?? 0) + (byNode.get(node.id) ?? 0));
  }
  const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([name, selfMs]) => ({ name, selfMs }));
  return { calls, totalMs: (cpu.endTime - cpu.startTime) / 1000, top };
}

/**
 * A full garbage collection, when V8 lets one be forced: --expose-gc set at run time makes `gc`
 * exist in contexts created afterwards.
 */
function garbageCollector(): (() => void) | undefined {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('gc');
    return typeof gc === 'function' ? () => void gc() : undefined;
  } catch {
    return undefined;
  }
}

async function memory(gc: (() => void) | undefined): Promise<MemorySample> {
  // Two collections with a turn of the event loop between: finalizers and weak callbacks run in between.
  for (let i = 0; i < 2; i += 1) {
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const rss = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1];
  return { rssKiB: Number(rss), heapUsedKiB: Math.round(process.memoryUsage().heapUsed / 1024) };
}

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

const viaLanguageModel = async (name: string, input: object): Promise<string> =>
  textOf(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token));

async function timed(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

/** What the agent process (scripts/bench/hostAgent.mjs) answers: ready, one call's milliseconds, or what failed. */
type AgentAnswer = { ready: true } | { ms: number } | { error: string };

/** A terminal agent: the SDK's client on the shipped relay, in its own process, started in this workspace. */
interface Agent {
  /** One call, timed by the agent. */
  call(name: string, input: object): Promise<number>;
  close(): void;
}

async function startAgent(): Promise<Agent> {
  await until(async () => Boolean((await vscode.commands.executeCommand<{ lockFile?: string }>(CommandId.mcpStatus)).lockFile), 'the MCP endpoint');
  // The extension host's executable runs scripts as Node (ELECTRON_RUN_AS_NODE for an Electron host).
  const child = fork(path.join(REPO, 'scripts/bench/hostAgent.mjs'), [path.join(REPO, 'dist/mcp.js'), workspaceRoot()], { execPath: process.execPath, env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const next = (): Promise<AgentAnswer> =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`the bench's agent ended (exit ${code})`));
      child.once('exit', onExit);
      child.once('message', (answer: AgentAnswer) => {
        child.off('exit', onExit);
        resolve(answer);
      });
    });
  const ready = await next();
  if ('error' in ready) throw new Error(`the bench's agent could not connect: ${ready.error}`);
  return {
    async call(name, input) {
      const answer = next();
      child.send({ call: { name, arguments: input } });
      const outcome = await answer;
      if ('error' in outcome) throw new Error(`the bench's agent: ${outcome.error}`);
      if (!('ms' in outcome)) throw new Error('the bench\'s agent answered out of turn');
      return outcome.ms;
    },
    close: () => {
      if (child.connected) child.send({ close: true });
    },
  };
}

describe('host bench: round trips and memory in the extension host', function () {
  this.timeout(20 * 60_000);

  it('measures', async () => {
    const lines = Array.from({ length: 500 }, (_, index) => `line ${index + 1}: the quick brown fox jumps over the lazy dog`);
    fs.mkdirSync(path.join(workspaceRoot(), 'bench-host'), { recursive: true });
    fs.writeFileSync(path.join(workspaceRoot(), READ_INPUT.file_path), `${lines.join('\n')}\n`);
    const gc = garbageCollector();

    // Memory first, before the timed calls add their own: idle, with background commands, then after 100 and 1,000 calls.
    const idle = await memory(gc);
    const ids: string[] = [];
    for (let i = 0; i < BACKGROUND_COMMANDS; i += 1) {
      ids.push(backgroundId(await viaLanguageModel(RUN, { command: `sleep ${600 + i}`, background: true, timeout: 1 })));
    }
    const background = await memory(gc);
    for (const id of ids) await viaLanguageModel('workspace_stop_command', { id });
    for (let i = 0; i < 100; i += 1) await viaLanguageModel(READ, READ_INPUT);
    const after100 = await memory(gc);
    for (let i = 100; i < 1000; i += 1) await viaLanguageModel(READ, READ_INPUT);
    const after1000 = await memory(gc);

    const agent = await startAgent();
    try {
      const core = async (): Promise<number> => (await vscode.commands.executeCommand<{ ms: number }>(CommandId.invokeCoreToolForTests, READ, READ_INPUT)).ms;
      const recorded = async (): Promise<number> => (await vscode.commands.executeCommand<{ ms: number }>(CommandId.invokeCoreToolForTests, READ, READ_INPUT, 'runCall')).ms;
      const lm = (): Promise<number> => timed(() => viaLanguageModel(READ, READ_INPUT));
      // Timed by the agent, in its own process, as a terminal agent sees the call.
      const mcp = (): Promise<number> => agent.call(READ, READ_INPUT);
      // One message to the workbench and its answer, the unit VS Code's tool service spends three of
      // per call (ask the extension to prepare, ask it to invoke, answer the caller).
      const workbench = (): Promise<number> => timed(() => Promise.resolve(vscode.commands.executeCommand('setContext', 'workspaceAgentTools.benchProbe', true)));
      const fronts = [lm, core, mcp, recorded, workbench];
      for (let i = 0; i < WARM_UP; i += 1) for (const front of fronts) await front();
      // Interleaved, starting with a different front each round, so a busy moment of the machine slows all alike.
      const samples: number[][] = fronts.map(() => []);
      for (let i = 0; i < TIMED_READS; i += 1) {
        for (let k = 0; k < fronts.length; k += 1) {
          const index = (i + k) % fronts.length;
          samples[index].push(await fronts[index]());
        }
      }
      const resultChars = (await viaLanguageModel(READ, READ_INPUT)).length;
      const profiled = process.env.WAT_BENCH_HOST_PROFILE;
      let cpu = profiled === '1' ? await profile(TIMED_READS, () => viaLanguageModel(READ, READ_INPUT)) : profiled === 'mcp' ? await profile(TIMED_READS, () => agent.call(READ, READ_INPUT)) : undefined;

      // run_command `true` through each front, with the sandbox on and off: core invokeTool (the
      // command, its terminal and the sandbox), runCall (+ the checkpoints before and after), vscode.lm.invokeTool.
      type Placement = 'auto' | 'off';
      type CommandFront = 'lm' | 'runCall' | 'core';
      const runTrue = (sandbox: Placement, front: CommandFront): Promise<number> =>
        withSettings({ 'runCommand.sandbox': sandbox }, async () => {
          let text = '';
          let ms: number;
          if (front === 'lm') {
            ms = await timed(async () => (text = await viaLanguageModel(RUN, { command: 'true' })));
          } else {
            const outcome = await vscode.commands.executeCommand<{ texts: string[]; ms: number }>(CommandId.invokeCoreToolForTests, RUN, { command: 'true' }, front === 'runCall' ? 'runCall' : undefined);
            text = outcome.texts.join('');
            ms = outcome.ms;
          }
          // A command that ran elsewhere than asked, or failed, would time something else.
          if (!new RegExp(`^Sandbox: ${sandbox === 'auto' ? 'bubblewrap' : 'none'}`, 'm').test(text) || !/^Exit code: 0$/m.test(text)) {
            throw new Error(`workspace_run_command true (sandbox ${sandbox}, ${front}) answered:\n${text}`);
          }
          return ms;
        });
      const commandFronts: [Placement, CommandFront][] = (['auto', 'off'] as const).flatMap((sandbox) => (['lm', 'runCall', 'core'] as const).map((front): [Placement, CommandFront] => [sandbox, front]));
      for (let i = 0; i < 3; i += 1) for (const [sandbox, front] of commandFronts) await runTrue(sandbox, front);
      const commandSamples = new Map<string, number[]>(commandFronts.map(([sandbox, front]) => [`${sandbox} ${front}`, []]));
      for (let i = 0; i < TIMED_COMMANDS; i += 1) {
        for (const [sandbox, front] of commandFronts) commandSamples.get(`${sandbox} ${front}`)?.push(await runTrue(sandbox, front));
      }
      const commandTimes = (sandbox: Placement, front: CommandFront): number[] => commandSamples.get(`${sandbox} ${front}`) ?? [];
      if (profiled === 'command') {
        cpu = await withSettings({ 'runCommand.sandbox': 'off' }, () => profile(TIMED_COMMANDS, () => Promise.resolve(vscode.commands.executeCommand(CommandId.invokeCoreToolForTests, RUN, { command: 'true' }))));
      }

      const result: HostBenchResult = {
        vscode: vscode.version,
        node: process.version,
        gcForced: gc !== undefined,
        read: { lm: samples[0], core: samples[1], mcp: samples[2], runCall: samples[3], workbenchRoundTrip: samples[4], resultChars },
        command: {
          sandboxed: commandTimes('auto', 'lm'),
          unsandboxed: commandTimes('off', 'lm'),
          sandboxedRunCall: commandTimes('auto', 'runCall'),
          unsandboxedRunCall: commandTimes('off', 'runCall'),
          sandboxedCore: commandTimes('auto', 'core'),
          unsandboxedCore: commandTimes('off', 'core'),
        },
        memory: { idle, background, after100, after1000 },
        ...(cpu ? { profile: cpu } : {}),
      };
      const out = process.env.WAT_BENCH_HOST_OUT;
      if (out) {
        fs.mkdirSync(out, { recursive: true });
        fs.writeFileSync(path.join(out, `vscode-${vscode.version}.json`), JSON.stringify(result));
      } else {
        console.log(JSON.stringify(result));
      }
    } finally {
      agent.close();
    }
  });
});
