// Regular expressions of the search tools: re2js, whose matching time is linear in the input, so no
// pattern can freeze the extension host; and the error an engine throws for a pattern it cannot compile.
import { RE2JS } from 're2js';
import type { RegexQuery } from '../ports/search';

/** A regular expression the engine could not compile; the message is the engine's own. */
export class InvalidRegexError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'InvalidRegexError';
  }
}

/** Thrown when the token is cancelled; the tools turn it into a sentence for the model. */
export class SearchCancelledError extends Error {
  constructor() {
    super('The search was cancelled.');
    this.name = 'SearchCancelledError';
  }
}

/** Finds the first match of a line: UTF-16 offsets, or undefined. */
export type LineMatcher = (line: string) => { start: number; end: number } | undefined;

/** Compiles the query with re2js; a syntax error becomes an InvalidRegexError with re2js's words. */
export function compileLineMatcher(query: RegexQuery): LineMatcher {
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(query.fixedStrings ? RE2JS.quote(query.pattern) : query.pattern, query.caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new InvalidRegexError(message.replace(/^error parsing regexp: /, 'regex parse error: '));
  }
  return (line) => {
    const matcher = regex.matcher(line);
    return matcher.find() ? { start: matcher.start(), end: matcher.end() } : undefined;
  };
}
