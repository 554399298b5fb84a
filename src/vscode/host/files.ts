// One file's bytes, existence and permission bits, as the write path reads and sets them: through
// VS Code's file system, and Node for the modes it does not expose. Absent or unreadable is undefined.
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
