// The half of a test FileSystemProvider that every read-only one shares: nothing to watch, and
// every change refused with NoPermissions. A subclass serves stat, readDirectory and readFile.
import * as vscode from 'vscode';

export abstract class ReadOnlyFileSystem implements vscode.FileSystemProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;

  abstract stat(uri: vscode.Uri): vscode.FileStat;
  abstract readDirectory(uri: vscode.Uri): [string, vscode.FileType][];
  abstract readFile(uri: vscode.Uri): Uint8Array;

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions('read-only test file system');
  }
  writeFile(): void {
    throw vscode.FileSystemError.NoPermissions('read-only test file system');
  }
  delete(): void {
    throw vscode.FileSystemError.NoPermissions('read-only test file system');
  }
  rename(): void {
    throw vscode.FileSystemError.NoPermissions('read-only test file system');
  }
}
