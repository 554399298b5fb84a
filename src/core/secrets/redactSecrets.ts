// Keeps credentials out of the model's context: every tool result is scanned with secretlint (its
// recommended rules: private keys, AWS, GitHub, Slack, npm, ...) plus patterns for token prefixes
// and `.env`-style secret assignments, and each finding is replaced by a marker naming its kind and line.
import { lintSource } from '@secretlint/core';
import { creator as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import { creator as patternRule } from '@secretlint/secretlint-rule-pattern';

/** One secret taken out of a result. */
export interface Redaction {
  /** What it was, e.g. `github`, `private-key`, `aws-access-key-id`, `secret-assignment`. */
  readonly kind: string;
  /** 1-based line of the text it was found on. */
  readonly line: number;
}

// Patterns for well-known token shapes the recommended preset does not cover. Each name becomes the
// kind in the marker. Lengths and alphabets follow the vendors' documented formats.
const TOKEN_PATTERNS: readonly { name: string; pattern: string }[] = [
  { name: 'aws-access-key-id', pattern: '/\\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\\b/' },
  { name: 'google-api-key', pattern: '/\\bAIza[0-9A-Za-z_-]{35}\\b/' },
  { name: 'openai-api-key', pattern: '/\\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{40,}\\b/' },
  { name: 'anthropic-api-key', pattern: '/\\bsk-ant-[A-Za-z0-9_-]{32,}\\b/' },
  { name: 'gitlab-token', pattern: '/\\bglpat-[A-Za-z0-9_-]{20,}\\b/' },
  { name: 'stripe-secret-key', pattern: '/\\b(?:sk|rk)_live_[A-Za-z0-9]{20,}\\b/' },
  { name: 'jwt', pattern: '/\\beyJ[A-Za-z0-9_-]{10,}\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}/' },
];

// `.env`-style lines, `NAME=value` or `export NAME=value` (also after read_file's line-number
// prefix), where the upper-case name says secret and the value has at least eight characters.
// Source code such as `password = hash(input)` is not an env line and is left alone; references
// and placeholders are let through afterwards (isPlaceholder).
const SECRET_NAME = '[A-Z0-9_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY|CREDENTIALS?)[A-Z0-9_]*';
const ASSIGNMENT_PATTERN = `/^(?:[ \\t]*\\d+\\t)?[ \\t]*(?:export[ \\t]+)?${SECRET_NAME}[ \\t]*=[ \\t]*["']?[^\\s"']{8,}/m`;
const ASSIGNMENT_NAME = 'secret-assignment';

// The same names as keys of a JSON object (`jq -n env`, `node -p 'JSON.stringify(process.env)'`,
// config files): `"GITHUB_TOKEN": "value"`, any letter case, both sides quoted so source code such
// as `apiKey: process.env.API_KEY` is left alone.
const JSON_SECRET_NAME = '[A-Za-z0-9_.-]*(?:[Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd]|[Pp][Aa][Ss][Ss][Ww][Dd]|[Ss][Ee][Cc][Rr][Ee][Tt]|[Tt][Oo][Kk][Ee][Nn]|[Aa][Pp][Ii]_?[Kk][Ee][Yy]|[Pp][Rr][Ii][Vv][Aa][Tt][Ee]_?[Kk][Ee][Yy]|[Aa][Cc][Cc][Ee][Ss][Ss]_?[Kk][Ee][Yy]|[Cc][Rr][Ee][Dd][Ee][Nn][Tt][Ii][Aa][Ll][Ss]?)[A-Za-z0-9_.-]*';
const JSON_ASSIGNMENT_PATTERN = `/"${JSON_SECRET_NAME}"[ \\t]*:[ \\t]*"[^"\\s]{8,}"/`;
const JSON_ASSIGNMENT_NAME = 'secret-json-value';

// A password in a URL's user part: `https://user:token@host` (git remotes, `url.<base>.insteadOf`
// keys of git config, registry URLs), in any scheme; the user name stays readable.
const URL_CREDENTIALS_PATTERN = '/\\b[A-Za-z][A-Za-z0-9+.-]*:\\/\\/[^\\s:@\\/?#]*:[^\\s@\\/?#]{3,}@/';
const URL_CREDENTIALS_NAME = 'url-credentials';

/** Values that only name or hide a secret: `${VAR}`, `$VAR`, `<your-token>`, `********`, `changeme`. */
function isPlaceholder(value: string): boolean {
  return /^(?:\$|<|\{\{|%)/.test(value) || /^(.)\1+$/.test(value) || /^(?:changeme|change_me|password|example|placeholder|dummy|redacted|null|undefined|none|true|false)$/i.test(value);
}

const CONFIG = {
  rules: [
    { id: '@secretlint/secretlint-rule-preset-recommend', rule: recommendedRules },
    {
      id: '@secretlint/secretlint-rule-pattern',
      rule: patternRule,
      options: {
        patterns: [
          ...TOKEN_PATTERNS,
          { name: ASSIGNMENT_NAME, pattern: ASSIGNMENT_PATTERN },
          { name: JSON_ASSIGNMENT_NAME, pattern: JSON_ASSIGNMENT_PATTERN },
          { name: URL_CREDENTIALS_NAME, pattern: URL_CREDENTIALS_PATTERN },
        ],
      },
    },
  ],
};

interface Finding {
  start: number;
  end: number;
  kind: string;
}

function kindOf(ruleId: string, message: string): string {
  if (ruleId.endsWith('secretlint-rule-pattern')) {
    return /found matching ([\w-]+)/.exec(message)?.[1] ?? 'secret';
  }
  return ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
}

/** Where an assignment's value starts: secrets are cut after the `=` or `:`, so the name stays readable. */
function valueStart(text: string, start: number, end: number, separator: RegExp): number {
  const match = separator.exec(text.slice(start, end));
  return match ? start + match.index + match[0].length : start;
}

/** The part of a finding that is the secret: an assignment's value, a URL's password. */
function secretRange(text: string, kind: string, start: number, end: number): { start: number; end: number } {
  switch (kind) {
    case ASSIGNMENT_NAME:
      return { start: valueStart(text, start, end, /=\s*["']?/), end };
    case JSON_ASSIGNMENT_NAME:
      return { start: valueStart(text, start, end, /"\s*:\s*"/), end: end - 1 };
    case URL_CREDENTIALS_NAME:
      return { start: valueStart(text, start, end, /:\/\/[^:]*:/), end: end - 1 };
    default:
      return { start, end };
  }
}

/** Kinds whose value may be a reference or a placeholder rather than a secret. */
const VALUE_KINDS = new Set([ASSIGNMENT_NAME, JSON_ASSIGNMENT_NAME]);

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
    line += 1;
  }
  return line;
}

/** The text with every detected secret replaced by `[REDACTED <kind> secret, line N]`, and what was found. */
export async function redactSecrets(text: string): Promise<{ text: string; redactions: Redaction[] }> {
  if (text.length === 0) {
    return { text, redactions: [] };
  }
  const result = await lintSource({
    source: { content: text, filePath: 'tool-result.txt', ext: '.txt', contentType: 'text' },
    options: { config: CONFIG },
  });
  const findings: Finding[] = result.messages
    .map((message) => {
      const kind = kindOf(message.ruleId, typeof message.message === 'string' ? message.message : '');
      const [start, end] = message.range;
      return { ...secretRange(text, kind, start, end), kind };
    })
    .filter((finding) => finding.end > finding.start)
    .filter((finding) => !VALUE_KINDS.has(finding.kind) || !isPlaceholder(text.slice(finding.start, finding.end)))
    .sort((a, b) => a.start - b.start || b.end - a.end);

  // Overlapping findings (a token inside an assignment) collapse into the first, widest one.
  const merged: Finding[] = [];
  for (const finding of findings) {
    const last = merged[merged.length - 1];
    if (last && finding.start < last.end) {
      last.end = Math.max(last.end, finding.end);
      // A named token inside a generic assignment is reported by its name.
      if (VALUE_KINDS.has(last.kind)) {
        last.kind = finding.kind;
      }
    } else {
      merged.push({ ...finding });
    }
  }
  let output = '';
  let cursor = 0;
  const redactions: Redaction[] = [];
  for (const finding of merged) {
    const line = lineAt(text, finding.start);
    output += `${text.slice(cursor, finding.start)}[REDACTED ${finding.kind} secret, line ${line}]`;
    cursor = finding.end;
    redactions.push({ kind: finding.kind, line });
  }
  return { text: output + text.slice(cursor), redactions };
}
