// Tool results opened from the palette, as read-only documents.
import * as vscode from 'vscode';
import { UriScheme } from '../commandIds';

/** Read-only documents that show tool results opened from the palette. */
export class ToolResultDocuments implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private next = 1;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.path) ?? '';
  }

  async show(title: string, text: string): Promise<void> {
    const uri = vscode.Uri.from({ scheme: UriScheme.result, path: `/${this.next++}/${title}` });
    this.contents.set(uri.path, text);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false });
  }
}
