import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

/**
 * The ripgrep binary the search tools run: VS Code's own (always there in a desktop or server
 * install, and matched to its platform), else the one the @vscode/ripgrep dependency ships. Without
 * either the tools fall back to walking the file system.
 */
export function locateRipgrep(extensionPath: string): string | undefined {
  const binary = process.platform === 'win32' ? 'rg.exe' : 'rg';
  const candidates = [
    path.join(vscode.env.appRoot, 'node_modules', '@vscode', 'ripgrep', 'bin', binary),
    path.join(vscode.env.appRoot, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', binary),
    path.join(extensionPath, 'node_modules', '@vscode', `ripgrep-${process.platform}-${process.arch}`, 'bin', binary),
  ];
  return candidates.find((candidate) => {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
