// The documents open in VS Code, found by URI.
import * as vscode from 'vscode';

/** The open document at a URI, or undefined. */
export function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((document) => document.uri.toString() === key);
}
