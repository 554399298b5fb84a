// In-host runner of the installed-package tests: `run-integration.mjs --vsix <file>` installs the
// package with code-server's --install-extension and loads this module as extensionTestsPath, with
// carrier/ (which contributes nothing) as the development extension, so every tool the tests call
// comes from the installed package. Reports like the integration runner it reuses.
import { runTestsIn } from '../integration/index';

export function run(): Promise<void> {
  return runTestsIn(__dirname);
}
