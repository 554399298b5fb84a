// The documents open in VS Code, found by URI.
import * as vscode from 'vscode';

/** The open document at a URI, or undefined. */
export function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((document) => document.uri.toString() === key);
}

/** The notebook open at a URI (in a notebook editor, or held by an extension), or undefined. */
export function openNotebook(uri: vscode.Uri): vscode.NotebookDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.notebookDocuments.find((notebook) => notebook.uri.toString() === key);
}

/** Each cell's text as the notebook editor holds it, in order. */
export function notebookCellTexts(notebook: vscode.NotebookDocument): string[] {
  return notebook.getCells().map((cell) => cell.document.getText());
}

/** The text with the line endings a TextDocument can hold: the document's one kind for the whole text. */
export function inDocumentEol(text: string, document: vscode.TextDocument): string {
  return text.replace(/\r\n?|\n/g, document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
}
