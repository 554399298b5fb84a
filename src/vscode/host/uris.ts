// Core's locations as VS Code URIs and back.
import * as vscode from 'vscode';
import { fileLocation, type Location } from '../../core/location';

export function toUri(location: Location): vscode.Uri {
  return vscode.Uri.from({ scheme: location.scheme, authority: location.authority, path: location.path });
}

export function toLocation(uri: vscode.Uri): Location {
  if (uri.scheme !== 'file') {
    return { scheme: uri.scheme, authority: uri.authority, path: uri.path };
  }
  // The host's own path (on Windows `C:\x` becomes `/C:/x`, a UNC share keeps its server); a share
  // on a host whose paths do not name one keeps the URI's server and path.
  const local = fileLocation(uri.fsPath);
  return local.authority === uri.authority ? local : { scheme: 'file', authority: uri.authority, path: uri.path };
}
