// Core's locations as VS Code URIs and back.
import * as vscode from 'vscode';
import { fileLocation, type Location } from '../../core/location';

export function toUri(location: Location): vscode.Uri {
  return vscode.Uri.from({ scheme: location.scheme, authority: location.authority, path: location.path });
}

export function toLocation(uri: vscode.Uri): Location {
  return uri.scheme === 'file' ? fileLocation(uri.fsPath) : { scheme: uri.scheme, authority: uri.authority, path: uri.path };
}
