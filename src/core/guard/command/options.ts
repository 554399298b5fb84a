// A command's words split the way getopt_long splits them, against an exact table of the options
// the program knows: clustered short options (`-abc`), attached short values (`-n5`), `--long=value`
// and `--long value` for required values (optional values only attach with `=`), `--` ends the
// options, GNU permutation (options after operands still count), a lone `-` is an operand. Long
// options are never abbreviated: anything not spelled exactly as in the table is unknown, and an
// unknown option asks. The tables themselves are in programSpecs.ts.
import type { Judgement } from '../../decisions';
import { BugError } from '../../errors';
import { braceAlternatives } from './shell/braces';
import type { ShellWord } from './shell/words';

/** What an option's value is to the policy: inert text (numbers, patterns, formats), or a path the program reads. */
export type ValueKind = 'inert' | 'path';

export interface OptionSpec {
  /** none: a flag; required: the next word or attached; optional: attached only (`-nVALUE`, `--name=VALUE`). */
  readonly value: 'none' | 'required' | 'optional';
  /** What the value (or each of the values) is. */
  readonly kinds: readonly ValueKind[];
  /** Set when the option writes, runs a program or changes state: it asks with this reason. */
  readonly asks?: string;
}

export interface OptionTable {
  /** Short options by their letter. */
  readonly short: Readonly<Record<string, OptionSpec>>;
  /** Long options by their name without the dashes. */
  readonly long: Readonly<Record<string, OptionSpec>>;
  /** GNU permutation: options after operands still count. False: the first operand ends the options. */
  readonly permute: boolean;
  /** The obsolete `-NUM` form (head -20, tail -5) is a number, not a cluster of options. */
  readonly numericOption?: RegExp;
  /** Long options also start with a single dash (find, -name style), not used by getopt programs. */
  readonly longOnly?: boolean;
}

/** One option as the program sees it. */
export interface ParsedOption {
  /** The option as the table names it: `-n` or `--lines`. */
  readonly name: string;
  /** Its values, in order (attached ones are cut out of their word). */
  readonly values: readonly ShellWord[];
  readonly spec: OptionSpec;
}

export interface ParsedArguments {
  readonly options: readonly ParsedOption[];
  readonly operands: readonly ShellWord[];
  /** How many operands came before a `--` (all of them when there was none). */
  readonly beforeDashes: number;
}

export type ParseOutcome = { readonly ok: true; readonly parsed: ParsedArguments } | { readonly ok: false; readonly judgement: Judgement };

const ask = (reason: string): ParseOutcome => ({ ok: false, judgement: { decision: 'ask', reason } });

/** A word made of the part of another that follows `offset` characters of its text. */
function rest(word: ShellWord, offset: number): ShellWord {
  if (word.literal) {
    const text = word.text.slice(offset);
    return { text, source: text, literal: true, expands: word.expands, prefix: text };
  }
  // Only the literal prefix was read as options; the rest includes the part known at run time.
  return { text: word.source, source: word.source, literal: false, expands: word.expands, prefix: word.prefix.slice(offset) };
}

/**
 * Whether a word may be read as an option. A word the shell only knows at run time may be one
 * unless its known beginning rules it out; a brace expansion may be one when any of its words
 * starts with a dash. A glob is an operand here: whether a file it matches starts with a dash is
 * checked where its matches are listed (globs.ts).
 */
function mayBeOption(word: ShellWord): boolean {
  if (word.pipe) {
    return false;
  }
  if (!word.literal) {
    return word.prefix === '' || word.prefix.startsWith('-');
  }
  if (!word.expands) {
    return word.text.startsWith('-') && word.text !== '-';
  }
  const alternatives = braceAlternatives(word.text);
  return alternatives === undefined || alternatives.some((alternative) => alternative.startsWith('-') && alternative !== '-');
}

class OptionParser {
  private readonly options: ParsedOption[] = [];
  private readonly operands: ShellWord[] = [];
  private index = 0;
  private beforeDashes: number | undefined;

  constructor(private readonly program: string, private readonly table: OptionTable, private readonly words: readonly ShellWord[]) {}

  run(): ParseOutcome {
    let optionsEnded = false;
    while (this.index < this.words.length) {
      const word = this.words[this.index];
      this.index += 1;
      if (optionsEnded || !mayBeOption(word)) {
        this.operands.push(word);
        if (!this.table.permute) {
          optionsEnded = true;
        }
        continue;
      }
      if (!word.literal || word.expands) {
        const failure = this.dynamicOption(word);
        if (failure) {
          return failure;
        }
        continue;
      }
      if (word.text === '--') {
        optionsEnded = true;
        this.beforeDashes = this.operands.length;
        continue;
      }
      const failure = word.text.startsWith('--') || this.table.longOnly ? this.longOption(word) : this.shortCluster(word);
      if (failure) {
        return failure;
      }
    }
    return { ok: true, parsed: { options: this.options, operands: this.operands, beforeDashes: this.beforeDashes ?? this.operands.length } };
  }

  /**
   * A word whose value is known only at run time, in a place where it can be an option: its
   * known beginning must name an option that takes the rest as its value, else it asks.
   */
  private dynamicOption(word: ShellWord): ParseOutcome | undefined {
    const prefix = word.prefix;
    const cannot = ask(`the argument ${word.source} of ${this.program} is only known when it runs (or is expanded by the shell), so it may be an option that cannot be checked`);
    if (!prefix.startsWith('-') || prefix === '-' || word.expands) {
      return cannot;
    }
    if (prefix.startsWith('--') || this.table.longOnly) {
      const equals = prefix.indexOf('=');
      if (equals === -1) {
        return cannot;
      }
      const name = prefix.slice(prefix.startsWith('--') ? 2 : 1, equals);
      const spec = this.table.long[name];
      if (!spec || spec.value === 'none') {
        return spec ? cannot : this.unknown(prefix.slice(0, equals));
      }
      return this.accept(`--${name}`, spec, [rest(word, equals + 1)]);
    }
    for (let offset = 1; offset < prefix.length; offset += 1) {
      const letter = prefix[offset];
      const spec = this.table.short[letter];
      if (!spec) {
        return this.unknown(`-${letter}`);
      }
      if (spec.value !== 'none') {
        return this.accept(`-${letter}`, spec, [rest(word, offset + 1)]);
      }
      const failure = this.accept(`-${letter}`, spec, []);
      if (failure) {
        return failure;
      }
    }
    return cannot;
  }

  private longOption(word: ShellWord): ParseOutcome | undefined {
    const dashes = word.text.startsWith('--') ? 2 : 1;
    const equals = word.text.indexOf('=');
    const name = word.text.slice(dashes, equals === -1 ? undefined : equals);
    const spelled = word.text.slice(0, equals === -1 ? undefined : equals);
    const spec = Object.prototype.hasOwnProperty.call(this.table.long, name) ? this.table.long[name] : undefined;
    if (!spec) {
      return this.unknown(spelled);
    }
    if (spec.asks) {
      return this.accept(spelled, spec, []);
    }
    if (spec.value === 'none') {
      return equals === -1 ? this.accept(spelled, spec, []) : ask(`${this.program} ${spelled} takes no value, so ${word.text} is not understood`);
    }
    if (equals !== -1) {
      return this.takeValues(spelled, spec, [rest(word, equals + 1)]);
    }
    return spec.value === 'optional' ? this.accept(spelled, spec, []) : this.takeValues(spelled, spec, []);
  }

  private shortCluster(word: ShellWord): ParseOutcome | undefined {
    if (this.table.numericOption?.test(word.text)) {
      this.options.push({ name: word.text, values: [], spec: { value: 'none', kinds: [] } });
      return undefined;
    }
    for (let offset = 1; offset < word.text.length; offset += 1) {
      const letter = word.text[offset];
      const spec = Object.prototype.hasOwnProperty.call(this.table.short, letter) ? this.table.short[letter] : undefined;
      if (!spec) {
        return this.unknown(`-${letter}`, word.text);
      }
      if (spec.value === 'none') {
        const failure = this.accept(`-${letter}`, spec, []);
        if (failure) {
          return failure;
        }
        continue;
      }
      const attached = offset + 1 < word.text.length ? [rest(word, offset + 1)] : [];
      return spec.value === 'optional' ? this.accept(`-${letter}`, spec, attached) : this.takeValues(`-${letter}`, spec, attached);
    }
    return undefined;
  }

  /** Takes the values a required-value option still needs from the following words. */
  private takeValues(name: string, spec: OptionSpec, attached: ShellWord[]): ParseOutcome | undefined {
    const values = [...attached];
    while (values.length < Math.max(1, spec.kinds.length)) {
      const next = this.words[this.index];
      if (!next) {
        return ask(`${this.program} ${name} is missing its value`);
      }
      values.push(next);
      this.index += 1;
    }
    return this.accept(name, spec, values);
  }

  private accept(name: string, spec: OptionSpec, values: ShellWord[]): ParseOutcome | undefined {
    if (spec.asks) {
      return ask(`${this.program} ${name} ${spec.asks}`);
    }
    this.options.push({ name, values, spec });
    return undefined;
  }

  private unknown(option: string, word?: string): ParseOutcome {
    const inWord = word && word !== option ? ` (in ${word})` : '';
    return ask(`${this.program} ${option}${inWord} is not an option this policy knows to be read-only`);
  }
}

/** Splits `words` (the arguments, without the program name) as getopt_long would with `table`. */
export function parseOptions(program: string, table: OptionTable, words: readonly ShellWord[]): ParseOutcome {
  return new OptionParser(program, table, words).run();
}

/** The values of every option of `kind`, in order: the paths an option names, for the guard. */
export function valuesOfKind(parsed: ParsedArguments, kind: ValueKind): ShellWord[] {
  return parsed.options.flatMap((option) => option.values.filter((_value, index) => (option.spec.kinds[index] ?? option.spec.kinds[0]) === kind));
}

/** True when the parse saw the option under any of its names. */
export function hasOption(parsed: ParsedArguments, ...names: string[]): boolean {
  return parsed.options.some((option) => names.includes(option.name));
}

/** Every value given to the option under any of its names, in order. */
export function optionValues(parsed: ParsedArguments, ...names: string[]): ShellWord[] {
  return parsed.options.filter((option) => names.includes(option.name)).flatMap((option) => option.values);
}

/**
 * Builds a table from a compact spelling, so the tables read like man-page synopses.
 * `short`: letters, each followed by nothing (a flag), `:` (a required inert value), `@` (a
 * required path value) or `?` (an optional attached value). `long`: space-separated names, each
 * followed by nothing (a flag), `=` (a required inert value), `=@` (a required path value) or
 * `?` (an optional `=value`). `asks`: options (`-o`, `--output`) that ask, with the reason.
 */
/**
 * The program text of sed and awk: every value of the script options, or else the first operand;
 * the operands after it are the files.
 */
export function scriptsAndFiles(parsed: ParsedArguments, ...scriptOptions: string[]): { scripts: ShellWord[]; files: ShellWord[] } {
  const given = optionValues(parsed, ...scriptOptions);
  return given.length > 0 ? { scripts: given, files: [...parsed.operands] } : { scripts: parsed.operands.slice(0, 1), files: parsed.operands.slice(1) };
}

export function optionTable(short: string, long: string, asks: Readonly<Record<string, string>> = {}, extra: Partial<OptionTable> = {}): OptionTable {
  const shortSpecs: Record<string, OptionSpec> = {};
  for (const match of short.matchAll(/([^:@?\s])([:@?]?)/g)) {
    shortSpecs[match[1]] = specOf(match[2]);
  }
  const longSpecs: Record<string, OptionSpec> = {};
  for (const token of long.split(/\s+/).filter(Boolean)) {
    const match = /^([^=?]+)(=@|=|\?)?$/.exec(token);
    if (!match) {
      throw new BugError(`the option table spells a long option as ${token}, which is not name, name=, name=@ or name?`);
    }
    longSpecs[match[1]] = specOf(match[2] === '=' ? ':' : match[2] === '=@' ? '@' : match[2] ?? '');
  }
  for (const [option, reason] of Object.entries(asks)) {
    const target = option.startsWith('--') ? longSpecs : shortSpecs;
    const key = option.replace(/^--?/, '');
    target[key] = { ...(target[key] ?? { value: 'none', kinds: [] }), asks: reason };
  }
  return { short: shortSpecs, long: longSpecs, permute: true, ...extra };
}

function specOf(marker: string): OptionSpec {
  switch (marker) {
    case ':':
      return { value: 'required', kinds: ['inert'] };
    case '@':
      return { value: 'required', kinds: ['path'] };
    case '?':
      return { value: 'optional', kinds: ['inert'] };
    default:
      return { value: 'none', kinds: [] };
  }
}
