// Small file operations through VS Code's file system (and Node for the mode bits it does not expose).
import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';

export async function readBytes(uri: vscode.Uri): Promise<Uint8Array | undefined> {
  try {
    return await vscode.workspace.fs.readFile(uri);
  } catch {
    return undefined;
  }
}

export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** The permission bits of a local file; VS Code's file system API has no modes. */
export async function fileMode(uri: vscode.Uri): Promise<number | undefined> {
  if (uri.scheme !== 'file') {
    return undefined;
  }
  try {
    return (await fs.stat(uri.fsPath)).mode & 0o7777;
  } catch {
    return undefined;
  }
}

export async function setFileMode(uri: vscode.Uri, mode: number): Promise<void> {
  await fs.chmod(uri.fsPath, mode);
}

/** Creates the missing ancestors of a file, returning the folders it created, outermost first. */
export async function createParents(file: vscode.Uri): Promise<vscode.Uri[]> {
  const missing: vscode.Uri[] = [];
  for (let folder = vscode.Uri.joinPath(file, '..'); !(await exists(folder)); folder = vscode.Uri.joinPath(folder, '..')) {
    missing.unshift(folder);
    if (folder.path === '/') {
      break;
    }
  }
  for (const folder of missing) {
    await vscode.workspace.fs.createDirectory(folder);
  }
  return missing;
}
