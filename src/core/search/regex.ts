// Regular expressions of the search tools: re2js, whose matching time is linear in the input, so no
// pattern can freeze the extension host; and the error an engine throws for a pattern it cannot compile.
import { RE2JS } from 're2js';
import type { RegexQuery } from '../ports/search';
import { errorMessage } from '../errors';

/** A regular expression the engine could not compile; the message is the engine's own. */
export class InvalidRegexError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'InvalidRegexError';
  }
}

/** Finds the first match of a line: UTF-16 offsets, or undefined. */
export type LineMatcher = (line: string) => { start: number; end: number } | undefined;

/**
 * The number of instructions of re2js's compiled program, or undefined where re2js does not show
 * it. Linear time is linear in the input times this: `a{0,999}` alone is about 2,000.
 */
function programSize(regex: RE2JS): number | undefined {
  const re2: unknown = Reflect.get(regex, 're2Input');
  const prog: unknown = re2 && typeof re2 === 'object' ? Reflect.get(re2, 'prog') : undefined;
  const inst: unknown = prog && typeof prog === 'object' ? Reflect.get(prog, 'inst') : undefined;
  return Array.isArray(inst) ? inst.length : undefined;
}

/**
 * Compiles the query with re2js; a syntax error becomes an InvalidRegexError with re2js's words.
 * With `maxProgramSize`, a pattern whose program is larger (large counted repetitions) is refused
 * too: matched in process against line after line, it would hold the event loop for seconds.
 */
export function compileLineMatcher(query: RegexQuery, maxProgramSize?: number): LineMatcher {
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(query.fixedStrings ? RE2JS.quote(query.pattern) : query.pattern, query.caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    const message = errorMessage(error);
    throw new InvalidRegexError(message.replace(/^error parsing regexp: /, 'regex parse error: '));
  }
  const size = maxProgramSize === undefined ? undefined : programSize(regex);
  if (maxProgramSize !== undefined && size !== undefined && size > maxProgramSize) {
    throw new InvalidRegexError(`the pattern compiles to ${size} steps, more than the ${maxProgramSize} allowed; use smaller counted repetitions such as {1,20}, or + and *`);
  }
  return (line) => {
    const matcher = regex.matcher(line);
    return matcher.find() ? { start: matcher.start(), end: matcher.end() } : undefined;
  };
}
