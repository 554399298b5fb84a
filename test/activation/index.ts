// In-host entry of `npm run bench -- activation` (scripts/bench/activation.mjs runs it through the
// integration runner as WAT_TESTS_PATH): VS Code calls run() inside the extension host, which
// reads the extension's own activation timings once its deferred start has finished, writes them
// to WAT_ACTIVATION_REPORT, and writes the summary the runner judges a pass by.
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { ActivationReport } from '../../src/vscode/activationTimings';
import { CommandId } from '../../src/vscode/commandIds';
import { until } from '../support/until';

const EXTENSION_ID = 'workspace-agent-tools.workspace-agent-tools';
/** The deferred steps every start runs; the report is read once all have ended. */
const DEFERRED_STEPS = ['MCP front started', 'crash clean-up'];

export async function run(): Promise<void> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  await extension.activate();
  let report: ActivationReport | undefined;
  await until(async () => {
    report = await vscode.commands.executeCommand<ActivationReport>(CommandId.activationTimings);
    return DEFERRED_STEPS.every((step) => report?.deferred.some((done) => done.step === step));
  }, 'the deferred start');
  const toolsRegistered = vscode.lm.tools.filter((tool) => tool.name.startsWith('workspace_')).length;
  const out = process.env.WAT_ACTIVATION_REPORT;
  if (out) fs.writeFileSync(out, JSON.stringify({ vscodeVersion: vscode.version, toolsRegistered, ...report }, null, 2));
  const reportFile = process.env.WAT_TEST_REPORT;
  if (reportFile) {
    fs.appendFileSync(reportFile, `activation: ${JSON.stringify(report)}\n`);
    fs.writeFileSync(reportFile + '.json', JSON.stringify({ tests: 1, passes: 1, failures: 0, pending: 0, files: 1, vscodeVersion: vscode.version, appName: vscode.env.appName }));
  }
}
