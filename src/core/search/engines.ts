// The SearchEngines of the extension and of unit tests: ripgrep where the files are on this machine's
// disk and a binary is known, the walk over the FileSystem port everywhere else.
import type { FileSystem } from '../ports/fileSystem';
import type { IgnoreFileIndex, SearchEngine, SearchEngines, SearchScope } from '../ports/search';
import { FallbackSearchEngine } from './fallbackEngine';
import { RipgrepSearchEngine } from './ripgrep/ripgrepEngine';

export class LocalFirstSearchEngines implements SearchEngines {
  private readonly fallback: FallbackSearchEngine;
  private readonly ripgrep?: RipgrepSearchEngine;

  /** @param ignoreIndex where the .gitignore files are, kept by watches (ripgrep's name globs ask it) */
  constructor(private readonly fs: FileSystem, ripgrepPath: string | undefined, ignoreIndex?: IgnoreFileIndex) {
    this.fallback = new FallbackSearchEngine(fs);
    this.ripgrep = ripgrepPath === undefined ? undefined : new RipgrepSearchEngine(ripgrepPath, fs, ignoreIndex);
  }

  engineFor(scope: SearchScope): SearchEngine {
    if (this.ripgrep && this.fs.localPath(scope.root) !== undefined && this.fs.localPath(scope.ignoreRoot) !== undefined) {
      return this.ripgrep;
    }
    return this.fallback;
  }
}
