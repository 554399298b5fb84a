// The language port over VS Code: diagnostics from vscode.languages, the rest through the
// vscode.execute*Provider commands, so every language extension the user has answers. Thin: the
// words, the order, the budgets and the time limits are core's.
import * as vscode from 'vscode';
import type { CancellationSignal } from '../../core/errors';
import type { Location } from '../../core/location';
import type { DiagnosticSeverity, FoundLocation, FoundSymbol, LanguageFeatures, LocationKind, ProviderRefusal, RenameEdits, ReportedDiagnostic, TextPosition, TextRange } from '../../core/ports/language';
import { toLocation, toUri } from './uris';

const SEVERITY: Record<vscode.DiagnosticSeverity, DiagnosticSeverity> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

const LOCATION_COMMANDS: Record<LocationKind, string> = {
  definition: 'vscode.executeDefinitionProvider',
  references: 'vscode.executeReferenceProvider',
  implementations: 'vscode.executeImplementationProvider',
  type_definition: 'vscode.executeTypeDefinitionProvider',
};

/** How long diagnostics must stay unchanged after a change before they count as settled. */
const QUIET_MS = 400;

function range(value: vscode.Range): TextRange {
  return { start: { line: value.start.line, character: value.start.character }, end: { line: value.end.line, character: value.end.character } };
}

function position(value: TextPosition): vscode.Position {
  return new vscode.Position(value.line, value.character);
}

/** A diagnostic of a URI in core's terms. */
export function reportedDiagnostic(uri: vscode.Uri, diagnostic: vscode.Diagnostic): ReportedDiagnostic {
  const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
  return { location: toLocation(uri), range: range(diagnostic.range), severity: SEVERITY[diagnostic.severity], source: diagnostic.source, code: code === undefined ? undefined : String(code), message: diagnostic.message };
}

/** The diagnostics of one URI now. */
export function diagnosticsOf(uri: vscode.Uri): ReportedDiagnostic[] {
  return vscode.languages.getDiagnostics(uri).map((diagnostic) => reportedDiagnostic(uri, diagnostic));
}

function symbolKind(kind: vscode.SymbolKind): string {
  // SymbolKind's names: `Function`, `TypeParameter` -> `function`, `type parameter`.
  return (vscode.SymbolKind[kind] ?? 'symbol').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function isDocumentSymbol(value: vscode.DocumentSymbol | vscode.SymbolInformation): value is vscode.DocumentSymbol {
  return 'selectionRange' in value;
}

function isLocationLink(value: vscode.Location | vscode.LocationLink): value is vscode.LocationLink {
  return 'targetUri' in value;
}

function hoverText(content: vscode.MarkdownString | vscode.MarkedString): string {
  if (typeof content === 'string') {
    return content;
  }
  if ('language' in content) {
    return `\`\`\`${content.language}\n${content.value}\n\`\`\``;
  }
  return content.value;
}

export class VsCodeLanguageFeatures implements LanguageFeatures {
  diagnostics(): readonly ReportedDiagnostic[] {
    return vscode.languages.getDiagnostics().flatMap(([uri, list]) => list.map((diagnostic) => reportedDiagnostic(uri, diagnostic)));
  }

  settleDiagnostics(locations: readonly Location[], ms: number, token: CancellationSignal, done?: () => boolean): Promise<void> {
    const wanted = new Set(locations.map((location) => toUri(location).toString()));
    return new Promise<void>((resolve) => {
      let quiet: ReturnType<typeof setTimeout> | undefined;
      const finish = (): void => {
        clearTimeout(deadline);
        clearTimeout(quiet);
        listener.dispose();
        cancelled.dispose();
        resolve();
      };
      const deadline = setTimeout(finish, ms);
      const cancelled = token.onCancellationRequested(finish);
      const listener = vscode.languages.onDidChangeDiagnostics((event) => {
        if (wanted.size > 0 && !event.uris.some((uri) => wanted.has(uri.toString()))) {
          return;
        }
        clearTimeout(quiet);
        if (done && !done()) {
          return;
        }
        quiet = setTimeout(finish, QUIET_MS);
      });
    });
  }

  async open(location: Location, show = false): Promise<string> {
    const document = await vscode.workspace.openTextDocument(toUri(location));
    if (show) {
      await vscode.window.showTextDocument(document, { preview: true, preserveFocus: true });
    }
    return document.languageId;
  }

  async documentSymbols(location: Location): Promise<readonly FoundSymbol[] | undefined> {
    const uri = toUri(location);
    const answer = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>('vscode.executeDocumentSymbolProvider', uri);
    if (!answer) {
      return undefined;
    }
    const found: FoundSymbol[] = [];
    const walk = (symbol: vscode.DocumentSymbol, depth: number, container: string | undefined): void => {
      found.push({ name: symbol.name, kind: symbolKind(symbol.kind), container, location, range: range(symbol.selectionRange), depth });
      for (const child of symbol.children) {
        walk(child, depth + 1, symbol.name);
      }
    };
    for (const symbol of answer) {
      if (isDocumentSymbol(symbol)) {
        walk(symbol, 0, undefined);
      } else {
        found.push({ name: symbol.name, kind: symbolKind(symbol.kind), container: symbol.containerName || undefined, location: toLocation(symbol.location.uri), range: range(symbol.location.range), depth: 0 });
      }
    }
    return found;
  }

  async workspaceSymbols(query: string): Promise<readonly FoundSymbol[]> {
    const answer = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query);
    return (answer ?? []).map((symbol) => ({ name: symbol.name, kind: symbolKind(symbol.kind), container: symbol.containerName || undefined, location: toLocation(symbol.location.uri), range: range(symbol.location.range), depth: 0 }));
  }

  async locations(kind: LocationKind, location: Location, at: TextPosition): Promise<readonly FoundLocation[]> {
    const answer = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>(LOCATION_COMMANDS[kind], toUri(location), position(at));
    return (answer ?? []).map((found) =>
      isLocationLink(found) ? { location: toLocation(found.targetUri), range: range(found.targetSelectionRange ?? found.targetRange) } : { location: toLocation(found.uri), range: range(found.range) },
    );
  }

  async hover(location: Location, at: TextPosition): Promise<readonly string[]> {
    const answer = await vscode.commands.executeCommand<vscode.Hover[] | undefined>('vscode.executeHoverProvider', toUri(location), position(at));
    return (answer ?? []).flatMap((hover) => hover.contents.map(hoverText)).filter((text) => text.trim() !== '');
  }

  async rename(location: Location, at: TextPosition, newName: string): Promise<RenameEdits | ProviderRefusal> {
    let edit: vscode.WorkspaceEdit | undefined;
    try {
      edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit | undefined>('vscode.executeDocumentRenameProvider', toUri(location), position(at), newName);
    } catch (error) {
      // A provider refuses (a clash, a symbol that cannot be renamed) by rejecting with its message.
      return { refused: error instanceof Error ? error.message : String(error) };
    }
    if (!edit) {
      return { files: [], otherOperations: [] };
    }
    const files = edit.entries().map(([uri, edits]) => ({ location: toLocation(uri), edits: edits.map((textEdit) => ({ range: range(textEdit.range), newText: textEdit.newText })) }));
    // Entries with no text edits are file operations (a module file renamed with its symbol).
    const otherOperations = files.filter((file) => file.edits.length === 0).map((file) => `an operation on ${file.location.path}`);
    return { files: files.filter((file) => file.edits.length > 0), otherOperations };
  }
}
