// Core's locations as VS Code URIs and back.
import * as vscode from 'vscode';
import type { Location } from '../../core/location';

export function toUri(location: Location): vscode.Uri {
  return vscode.Uri.from({ scheme: location.scheme, authority: location.authority, path: location.path });
}

export function toLocation(uri: vscode.Uri): Location {
  return { scheme: uri.scheme, authority: uri.authority, path: uri.scheme === 'file' ? uri.fsPath : uri.path };
}
