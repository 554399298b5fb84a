// In-host entry of the host bench (`npm run bench -- host`, scripts/bench/host.mjs): VS Code loads
// this module as extensionTestsPath, e.g.
//   WAT_BENCH_HOST_OUT=/tmp/out WAT_TESTS_PATH=out/test/bench/host/index.js node scripts/test-host/run-integration.mjs --vscode all --pass trusted
// and it runs roundTrips.test.js the way test/integration/index.ts runs the integration tests. It
// is not part of `npm test`: it measures, it asserts nothing about time.
import { runTestsIn } from '../../integration/index';

export function run(): Promise<void> {
  return runTestsIn(__dirname);
}
