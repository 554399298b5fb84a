// The SearchEngines of the extension and of unit tests: ripgrep where the files are on this machine's
// disk and a binary is known, the walk over the FileSystem port everywhere else.
import type { FileSystem } from '../ports/fileSystem';
import type { SearchEngine, SearchEngines, SearchScope } from '../ports/search';
import { FallbackSearchEngine } from './fallbackEngine';

export class LocalFirstSearchEngines implements SearchEngines {
  private readonly fallback: FallbackSearchEngine;

  /** @param ripgrep the engine for local folders (ripgrep/node/ripgrepEngine.ts), absent when no ripgrep binary is known */
  constructor(private readonly fs: FileSystem, private readonly ripgrep?: SearchEngine) {
    this.fallback = new FallbackSearchEngine(fs);
  }

  engineFor(scope: SearchScope): SearchEngine {
    if (this.ripgrep && this.fs.localPath(scope.root) !== undefined && this.fs.localPath(scope.ignoreRoot) !== undefined) {
      return this.ripgrep;
    }
    return this.fallback;
  }
}
