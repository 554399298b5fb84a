// A test-only evaluator of the part of macOS's sandbox profile language (SBPL, read by sandbox-exec)
// that core/sandbox/seatbelt.ts writes, so the profile's rules can be proven without a Mac: it reads
// the profile text and answers "is operation O on path (or address) P allowed?".
//
// What it takes from public descriptions of the language (Apple does not document it):
// - A profile is `(version 1)` followed by rules `(allow|deny OPERATION... FILTER...)`. A rule with
//   no filter covers every path of its operations; several filters in one rule match when any does.
// - The last rule that matches an operation decides it; `(allow default)` / `(deny default)` is
//   what is left when none does.
// - Operation names ending in `*` cover every operation they start (`file-write*` covers
//   `file-write-data`, `file-write-create`, `file-write-unlink`, ...; `network*` every network one).
//   Reports say a rule naming an operation exactly wins over a wildcard whatever their order; this
//   evaluator decides every question both ways (pure last match, and exact names first) and throws
//   when the two disagree, so no answer rests on that uncertainty.
// - `(literal P)` is the path P; `(subpath P)` is P and everything below it; `(regex #"R")` is a
//   POSIX extended regex searched anywhere in the path (unanchored: Apple's own profiles write `^`);
//   `(require-all F...)` and `(require-any F...)` combine filters.
// - `(remote ip "localhost:PORT")` is a connection to a loopback address on PORT; `(local ip
//   "localhost:*")` a socket bound on a loopback address, any port.
// - The kernel matches the path after resolving symlinks: on macOS /tmp, /var and /etc are links
//   into /private, so this evaluator resolves them before matching, as the kernel does.
//
// It is strict: any form, operation, filter, escape or regex construct outside this subset throws,
// so a change of the generator cannot pass a test by meaning something the evaluator does not read.
import * as assert from 'node:assert/strict';

type Datum = { kind: 'list'; items: Datum[] } | { kind: 'symbol'; name: string } | { kind: 'string'; value: string } | { kind: 'regex'; source: string } | { kind: 'number'; value: number };

/** Reads the profile's s-expressions: lists, symbols, numbers, "strings" (only \\ and \" escape) and #"regexes". */
export function readProfile(text: string): Datum[] {
  let index = 0;
  const fail = (why: string): never => {
    throw new Error(`seatbelt evaluator: ${why} at offset ${index}: ${JSON.stringify(text.slice(index, index + 40))}`);
  };
  const skipSpace = (): void => {
    while (index < text.length && /\s/.test(text[index])) {
      index += 1;
    }
    if (text[index] === ';') {
      fail('a comment (the generator writes none)');
    }
  };
  const readString = (): string => {
    // After the opening quote. A raw newline or any other character stands for itself.
    let value = '';
    for (;;) {
      const char = text[index];
      if (char === undefined) {
        fail('an unterminated string');
      }
      index += 1;
      if (char === '"') {
        return value;
      }
      if (char === '\\') {
        const escaped = text[index];
        if (escaped !== '\\' && escaped !== '"') {
          fail(`the escape \\${escaped} (only \\\\ and \\" are read)`);
        }
        value += escaped;
        index += 1;
      } else {
        value += char;
      }
    }
  };
  const readDatum = (): Datum => {
    skipSpace();
    const char = text[index];
    if (char === '(') {
      index += 1;
      const items: Datum[] = [];
      for (skipSpace(); text[index] !== ')'; skipSpace()) {
        if (index >= text.length) {
          fail('an unbalanced parenthesis');
        }
        items.push(readDatum());
      }
      index += 1;
      return { kind: 'list', items };
    }
    if (char === '"') {
      index += 1;
      return { kind: 'string', value: readString() };
    }
    if (char === '#' && text[index + 1] === '"') {
      // A regex literal: its backslashes are the regex's own; it ends at the next quote.
      const end = text.indexOf('"', index + 2);
      if (end < 0) {
        fail('an unterminated regex');
      }
      const source = text.slice(index + 2, end);
      index = end + 1;
      return { kind: 'regex', source };
    }
    const atom = /^[A-Za-z0-9*-]+/.exec(text.slice(index))?.[0];
    if (!atom) {
      return fail('an unexpected character');
    }
    index += atom.length;
    return /^\d+$/.test(atom) ? { kind: 'number', value: Number(atom) } : { kind: 'symbol', name: atom };
  };
  const data: Datum[] = [];
  for (skipSpace(); index < text.length; skipSpace()) {
    if (text[index] === ')') {
      fail('an unbalanced parenthesis');
    }
    data.push(readDatum());
  }
  return data;
}

// --- regexes ------------------------------------------------------------------------------------

/**
 * A POSIX extended regex the generator writes, as a JavaScript RegExp that matches the same paths.
 * Only constructs whose meaning is the same in both are accepted: literal characters; `\` before a
 * metacharacter (a literal); `.` (with JavaScript's `s` flag, so it
 * matches a newline as ERE's does); bracket expressions of plain characters and ranges, maybe
 * negated, with no backslash, `[`, or leading `]` inside (where ERE and JavaScript differ); groups
 * `(...)` (not `(?`, which ERE does not have: sandbox's matcher ignores `(?:` groups); `|`; `*`, `+`,
 * `?` after an atom; `^` and `$` (anchors anywhere, in both). No `{n}`, backreferences or `\d`-style
 * classes. Only whether a path matches is asked, so ERE's leftmost-longest rule and JavaScript's
 * leftmost-first rule cannot give different answers.
 */
export function ereToJs(source: string): RegExp {
  let index = 0;
  let depth = 0;
  let atomBefore = false;
  const fail = (why: string): never => {
    throw new Error(`seatbelt evaluator: regex #"${source}": ${why} at ${index}`);
  };
  while (index < source.length) {
    const char = source[index];
    if (char === '\\') {
      const next = source[index + 1];
      if (next === undefined || !/[.^$*+?()[\]{}|\\]/.test(next)) {
        fail(`\\${next ?? ''} is not an escaped metacharacter`);
      }
      index += 2;
      atomBefore = true;
    } else if (char === '[') {
      const end = source.indexOf(']', index + 1);
      const body = end < 0 ? fail('an unterminated bracket expression') : source.slice(index + 1, end);
      const items = body.startsWith('^') ? body.slice(1) : body;
      if (items === '' || /[\\[]/.test(items)) {
        fail('a bracket expression ERE and JavaScript read differently');
      }
      index = end + 1;
      atomBefore = true;
    } else if (char === '(') {
      if (source[index + 1] === '?') {
        fail('(? is not ERE');
      }
      depth += 1;
      index += 1;
      atomBefore = false;
    } else if (char === ')') {
      depth -= 1;
      if (depth < 0 || source[index - 1] === '(') {
        fail('an unbalanced or empty group');
      }
      index += 1;
      atomBefore = true;
    } else if (char === '*' || char === '+' || char === '?') {
      if (!atomBefore) {
        fail(`${char} without an atom before it`);
      }
      index += 1;
      atomBefore = false;
    } else if (char === '{' || char === '}' || char === ']') {
      fail(`${char} outside a bracket expression (unused by the generator)`);
    } else {
      // `|`, `^`, `$` and `.`, and every other character, mean the same in both.
      atomBefore = char !== '|' && char !== '^';
      index += 1;
    }
  }
  if (depth !== 0) {
    fail('an unbalanced group');
  }
  // `s`: ERE's `.` matches a newline too (a path may hold one); `$` is the end of the path in both.
  return new RegExp(source, 's');
}

// --- the profile ----------------------------------------------------------------------------------

/** The operations the generator may name. */
const OPERATIONS = ['default', 'file-read*', 'file-write*', 'file-link', 'file-clone', 'network*', 'network-outbound', 'network-inbound', 'network-bind'] as const;

/** The concrete operations a question may ask about. */
export type Operation =
  | 'file-read-data'
  | 'file-read-metadata'
  | 'file-read-xattr'
  | 'file-write-data'
  | 'file-write-create'
  | 'file-write-unlink'
  | 'file-write-mode'
  | 'file-write-xattr'
  | 'file-link'
  | 'file-clone'
  | 'network-outbound'
  | 'network-inbound'
  | 'network-bind';

export const READS: readonly Operation[] = ['file-read-data', 'file-read-metadata', 'file-read-xattr'];
export const WRITES: readonly Operation[] = ['file-write-data', 'file-write-create', 'file-write-unlink', 'file-write-mode', 'file-write-xattr'];

/** What a question is about: a path for the file operations, an address (an IP one or a unix socket's path) for the network ones. */
export type Target = string | { readonly host: string; readonly port: number } | { readonly unixSocket: string };

type Filter = (target: Target) => boolean;

interface Rule {
  readonly action: 'allow' | 'deny';
  readonly operations: readonly string[];
  /** Its filters (any of them matches); none: the rule covers every target of its operations. */
  readonly filters: readonly Filter[];
  /** Each filter's text, for unexercised(). */
  readonly texts: readonly string[];
  readonly text: string;
}

/** The text of a datum as the profile writes it, for messages. */
function show(datum: Datum): string {
  switch (datum.kind) {
    case 'list':
      return `(${datum.items.map(show).join(' ')})`;
    case 'symbol':
      return datum.name;
    case 'number':
      return String(datum.value);
    case 'string':
      return JSON.stringify(datum.value);
    case 'regex':
      return `#"${datum.source}"`;
  }
}

/** macOS's fixed links into /private, which the kernel resolves before the sandbox sees a path. */
export function kernelPath(p: string): string {
  return /^\/(tmp|var|etc)(\/|$)/.test(p) ? `/private${p}` : p;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);

function filePath(target: Target, filter: string): string {
  if (typeof target !== 'string') {
    throw new Error(`seatbelt evaluator: the path filter ${filter} was asked about a network address`);
  }
  return target;
}

function parseFilter(datum: Datum, network: boolean): Filter {
  if (datum.kind !== 'list' || datum.items[0]?.kind !== 'symbol') {
    throw new Error(`seatbelt evaluator: ${JSON.stringify(datum)} is not a filter`);
  }
  const [head, ...args] = datum.items;
  const string = (at: number): string => {
    const arg = args[at];
    if (arg?.kind !== 'string' || args.length !== at + 1) {
      throw new Error(`seatbelt evaluator: (${head.name} ...) takes one string`);
    }
    return arg.value;
  };
  const pathFilter = (): void => {
    if (network) {
      throw new Error(`seatbelt evaluator: (${head.name} ...) in a rule of network operations`);
    }
  };
  switch (head.name) {
    case 'literal': {
      pathFilter();
      const value = string(0);
      return (target) => filePath(target, 'literal') === value;
    }
    case 'subpath': {
      pathFilter();
      const value = string(0);
      if (!value.startsWith('/') || (value.endsWith('/') && value !== '/')) {
        throw new Error(`seatbelt evaluator: (subpath ${JSON.stringify(value)}) is not an absolute path without a trailing slash`);
      }
      return (target) => {
        const p = filePath(target, 'subpath');
        return p === value || p.startsWith(value === '/' ? '/' : `${value}/`);
      };
    }
    case 'regex': {
      pathFilter();
      const arg = args[0];
      if (arg?.kind !== 'regex' || args.length !== 1) {
        throw new Error('seatbelt evaluator: (regex ...) takes one #"regex"');
      }
      const regex = ereToJs(arg.source);
      return (target) => regex.test(filePath(target, 'regex'));
    }
    case 'require-all':
    case 'require-any': {
      if (args.length === 0) {
        throw new Error(`seatbelt evaluator: an empty (${head.name})`);
      }
      const filters = args.map((arg) => parseFilter(arg, network));
      return head.name === 'require-all' ? (target) => filters.every((f) => f(target)) : (target) => filters.some((f) => f(target));
    }
    case 'remote':
    case 'local': {
      if (!network) {
        throw new Error(`seatbelt evaluator: (${head.name} ...) in a rule of file operations`);
      }
      if (args[0]?.kind !== 'symbol' || args[0].name !== 'ip' || args[1]?.kind !== 'string' || args.length !== 2) {
        throw new Error(`seatbelt evaluator: (${head.name} ...) must be (${head.name} ip "localhost:PORT")`);
      }
      const match = /^localhost:(\*|\d{1,5})$/.exec(args[1].value);
      if (!match) {
        throw new Error(`seatbelt evaluator: the address ${args[1].value} is not localhost:PORT or localhost:*`);
      }
      const port = match[1] === '*' ? undefined : Number(match[1]);
      const side = head.name;
      return (target) => {
        if (typeof target === 'string') {
          throw new Error(`seatbelt evaluator: (${side} ip ...) was asked about a path`);
        }
        return 'host' in target && LOOPBACK.has(target.host) && (port === undefined || target.port === port);
      };
    }
    default:
      throw new Error(`seatbelt evaluator: the filter (${head.name} ...) is not read`);
  }
}

function covers(ruleOperation: string, operation: Operation): boolean {
  return ruleOperation === 'default' || ruleOperation === operation || (ruleOperation.endsWith('*') && operation.startsWith(ruleOperation.slice(0, -1)));
}

export class SeatbeltProfile {
  private readonly rules: Rule[] = [];
  private defaultAction: 'allow' | 'deny' | undefined;

  constructor(readonly text: string) {
    const data = readProfile(text);
    const [version, ...rest] = data;
    assert.deepEqual(version, { kind: 'list', items: [{ kind: 'symbol', name: 'version' }, { kind: 'number', value: 1 }] }, 'seatbelt evaluator: the profile must start with (version 1)');
    for (const datum of rest) {
      if (datum.kind !== 'list' || datum.items[0]?.kind !== 'symbol' || (datum.items[0].name !== 'allow' && datum.items[0].name !== 'deny')) {
        throw new Error(`seatbelt evaluator: ${JSON.stringify(datum)} is not an (allow ...) or (deny ...) rule`);
      }
      const action = datum.items[0].name;
      const operations: string[] = [];
      let at = 1;
      for (; datum.items[at]?.kind === 'symbol'; at += 1) {
        const name = (datum.items[at] as { name: string }).name;
        if (!(OPERATIONS as readonly string[]).includes(name)) {
          throw new Error(`seatbelt evaluator: the operation ${name} is not read`);
        }
        operations.push(name);
      }
      if (operations.length === 0) {
        throw new Error(`seatbelt evaluator: a rule without an operation: ${JSON.stringify(datum)}`);
      }
      const network = operations.every((operation) => operation.startsWith('network'));
      if (!network && operations.some((operation) => operation.startsWith('network'))) {
        throw new Error('seatbelt evaluator: a rule mixing file and network operations');
      }
      const filters = datum.items.slice(at).map((item) => parseFilter(item, network));
      if (operations.includes('default')) {
        if (operations.length !== 1 || filters.length !== 0 || this.defaultAction || this.rules.length) {
          throw new Error('seatbelt evaluator: default must be the first rule, alone and without filters');
        }
        this.defaultAction = action;
        continue;
      }
      this.rules.push({ action, operations, filters, texts: datum.items.slice(at).map(show), text: show(datum) });
    }
    if (!this.defaultAction) {
      throw new Error('seatbelt evaluator: the profile names no default');
    }
  }

  /** Which filter of which rule decided a question (`rule:filter`; `rule:` for a rule without filters). */
  private readonly decided = new Set<string>();

  /** The rules that decide an operation on a target, in order. */
  private matching(operation: Operation, target: Target): Rule[] {
    return this.rules.filter((rule) => rule.operations.some((name) => covers(name, operation)) && (rule.filters.length === 0 || rule.filters.some((f) => f(target))));
  }

  /** Records what decided: every filter of the deciding rule that matched. */
  private record(rule: Rule | undefined, target: Target): void {
    if (!rule) {
      return;
    }
    const index = this.rules.indexOf(rule);
    if (rule.filters.length === 0) {
      this.decided.add(`${index}:`);
    }
    rule.filters.forEach((f, at) => {
      if (f(target)) {
        this.decided.add(`${index}:${at}`);
      }
    });
  }

  /**
   * The rules, and filters of rules, that decided none of the questions asked so far: a test that
   * asks this of a profile after its cases proves that each rule has a case where it is the one
   * that decides.
   */
  unexercised(): string[] {
    return this.rules.flatMap((rule, index) =>
      rule.filters.length === 0 ? (this.decided.has(`${index}:`) ? [] : [rule.text]) : rule.texts.filter((_, at) => !this.decided.has(`${index}:${at}`)).map((text) => `${text} in (${rule.action} ${rule.operations.join(' ')} ...)`),
    );
  }

  /**
   * Is the operation allowed on the path (as a command names it: /tmp, /var and /etc are resolved
   * as the kernel does) or the address?
   */
  allows(operation: Operation, target: Target): boolean {
    const resolved = typeof target === 'string' ? kernelPath(target) : target;
    const rules = this.matching(operation, resolved);
    const last = rules[rules.length - 1];
    const exact = rules.filter((rule) => rule.operations.includes(operation));
    const lastExact = exact.length ? exact[exact.length - 1] : last;
    const byOrder = last?.action ?? this.defaultAction;
    const exactFirst = lastExact?.action ?? this.defaultAction;
    if (byOrder !== exactFirst) {
      throw new Error(`seatbelt evaluator: ${operation} on ${JSON.stringify(target)} is ${byOrder} by the last rule but ${exactFirst} if exact operation names win; the profile must not depend on which`);
    }
    this.record(last, resolved);
    return byOrder === 'allow';
  }

  /** Every operation of the list is allowed. */
  allowsAll(operations: readonly Operation[], target: Target): boolean {
    return operations.every((operation) => this.allows(operation, target));
  }

  /** No operation of the list is allowed. */
  refusesAll(operations: readonly Operation[], target: Target): boolean {
    return operations.every((operation) => !this.allows(operation, target));
  }
}
