// In-host runner for the end-to-end agent tests (`npm run test:agents`, part of `npm test`): VS Code loads this
// module as extensionTestsPath, e.g.
//   WAT_TESTS_PATH=out/test/agents/vscode/index.js node scripts/test-host/run-integration.mjs --vscode newest --pass trusted
// and it runs every *.test.js of this folder the way test/integration/index.ts does.
import { runTestsIn } from '../../integration/index';

export function run(): Promise<void> {
  return runTestsIn(__dirname);
}
