import * as vscode from 'vscode';
import { UriScheme } from '../commandIds';

/** The URI scheme of the read-only documents that hold a proposed change (and the "before" snapshot). */
const PROPOSAL_SCHEME = UriScheme.proposal;

/**
 * Serves in-memory texts as read-only documents, so the native diff editor can show a proposal
 * that is not on disk. Each text lives until its review is over.
 */
export class ProposedContent implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private nextId = 1;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, this);

  /**
   * Stores a text under a URI whose path ends with the file's own path, so the diff editor picks
   * the right language. `review` groups the URIs of one question.
   */
  add(review: string, side: 'current' | 'proposed', shownPath: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${review}/${side}-${this.nextId++}/${shownPath.replace(/^\/+/, '')}` });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  /** A fresh id for one review's URIs. */
  newReviewId(): string {
    return `r${Date.now().toString(36)}${this.nextId++}`;
  }

  /** The review a URI of this scheme belongs to. */
  static reviewOf(uri: vscode.Uri): string | undefined {
    return uri.scheme === PROPOSAL_SCHEME ? uri.path.split('/')[1] : undefined;
  }

  forget(uris: readonly vscode.Uri[]): void {
    for (const uri of uris) {
      this.texts.delete(uri.toString());
    }
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
