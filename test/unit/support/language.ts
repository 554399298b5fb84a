// A LanguageFeatures double: the test writes what the language services know (diagnostics,
// outlines, answers by position) and reads what the tools asked.
import type { CancellationSignal } from '../../../src/core/errors';
import { locationKey, type Location } from '../../../src/core/location';
import type { FoundLocation, FoundSymbol, LanguageFeatures, LocationKind, ProviderRefusal, RenameEdits, ReportedDiagnostic, TextPosition, TextRange } from '../../../src/core/ports/language';

/** A range on one line, 0-based. */
export function span(line: number, character: number, length: number): TextRange {
  return { start: { line, character }, end: { line, character: character + length } };
}

export class FakeLanguageFeatures implements LanguageFeatures {
  problems: ReportedDiagnostic[] = [];
  outlines = new Map<string, FoundSymbol[]>();
  searchResults: FoundSymbol[] = [];
  /** Answers by `kind@path:line:character`, the path a Location's (`/C:/x` on Windows). */
  answers = new Map<string, FoundLocation[]>();
  hovers = new Map<string, string[]>();
  renameAnswer: RenameEdits | ProviderRefusal = { files: [], otherOperations: [] };
  /** A promise no query resolves, to play a provider that never answers. */
  hang = false;
  readonly asked: string[] = [];
  languageId = 'typescript';

  diagnostics(): readonly ReportedDiagnostic[] {
    return this.problems;
  }

  async settleDiagnostics(_locations: readonly Location[], _ms: number, _token: CancellationSignal): Promise<void> {
    this.asked.push('settle');
  }

  async open(location: Location, show = false): Promise<string> {
    this.asked.push(`${show ? 'show' : 'open'} ${location.path}`);
    return this.languageId;
  }

  documentSymbols(location: Location): Promise<readonly FoundSymbol[] | undefined> {
    return this.answer(this.outlines.get(locationKey(location)));
  }

  workspaceSymbols(query: string): Promise<readonly FoundSymbol[]> {
    this.asked.push(`search ${query}`);
    return this.answer(this.searchResults);
  }

  locations(kind: LocationKind, location: Location, position: TextPosition): Promise<readonly FoundLocation[]> {
    const key = `${kind}@${location.path}:${position.line}:${position.character}`;
    this.asked.push(key);
    return this.answer(this.answers.get(key) ?? []);
  }

  hover(location: Location, position: TextPosition): Promise<readonly string[]> {
    return this.answer(this.hovers.get(`${location.path}:${position.line}:${position.character}`) ?? []);
  }

  rename(location: Location, position: TextPosition, newName: string): Promise<RenameEdits | ProviderRefusal> {
    this.asked.push(`rename ${location.path}:${position.line}:${position.character} ${newName}`);
    return this.answer(this.renameAnswer);
  }

  private answer<T>(value: T): Promise<T> {
    return this.hang ? new Promise<T>(() => undefined) : Promise.resolve(value);
  }
}
