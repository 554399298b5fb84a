// Omission placeholders: a comment line that stands for text the model left out ("// ... rest of
// the code ...", "# existing code unchanged", "<!-- rest of file -->", a lone "/* ... */"). Written
// into a file it deletes whatever it stood for, so a write, edit or patch that would add one is
// refused; one the file already had (or old_string already held) is the file's own and stays.
import { ToolError } from '../errors';

/** Comment openers and closers of the usual syntaxes, stripped before the body is read. */
const COMMENT_OPEN = /^(\/\/+|\/\*+|\{\/\*+|<!--|#+|--|;+|%+)\s*/;
const COMMENT_CLOSE = /\s*(\*+\/\}?|-->)$/;
const ELLIPSIS = /\.{3,}|…/g;

const WHAT = '(code|file|function|functions|class|classes|method|methods|implementation|implementations|component|components|module|content|contents|body|logic|imports|tests|test cases|cases|props|properties|fields|lines|config|configuration|styles|markup|html|text|section|sections|steps|handlers|routes|definitions|code below|code above)';
/** One word of how the left-out text stays: "remains unchanged", "goes here", "omitted". */
const STAYS_ONE = '(( (is|are|remains?|stays?|goes|go|kept|stay))?( (unchanged|the same|as before|as is|as-is|here|omitted|not shown|elided|continues|follows|below|above|untouched|intact)))';
const STAYS = `${STAYS_ONE}*`;
const DOING_WORD = '(keep|keeping|leave|leaving|insert|include|add|preserve|preserving|retain|retaining)';
const DOING = `(${DOING_WORD}( the| all)? )?`;

const KIND = '(all )?(the )?(existing|previous|other|remaining|original|same|unchanged|old|more|additional)';

/** Bodies (lower case, ellipses and outer punctuation gone) that are placeholders as a whole. */
const PLACEHOLDER_BODIES: readonly RegExp[] = [
  new RegExp(`^${DOING}(the )?(rest|remainder) of (the |this |your )?${WHAT}?${STAYS}$`),
  new RegExp(`^${DOING_WORD}( the| all)? ${KIND} ${WHAT}${STAYS}$`),
  new RegExp(`^${KIND} ${WHAT}${STAYS_ONE}+$`),
  new RegExp(`^${WHAT} (unchanged|omitted|elided|not shown|as before|goes here|remains unchanged|stays the same|remain unchanged|stay the same)$`),
  /^(unchanged|omitted|elided|same as before|no changes?)$/,
];

/** Bodies that are placeholders only between ellipses ("... other methods ..."), as a bare one is a section heading. */
const ELLIPSIS_BODIES: readonly RegExp[] = [/^$/, new RegExp(`^${KIND} ${WHAT}$`), /^etc$/];

/** The placeholder a line is (its normalised body), or undefined when it is anything else. */
export function placeholderKey(line: string): string | undefined {
  const trimmed = line.trim();
  const opened = COMMENT_OPEN.exec(trimmed);
  if (!opened) {
    return undefined;
  }
  const raw = trimmed.slice(opened[0].length).replace(COMMENT_CLOSE, '');
  const hadEllipsis = ELLIPSIS.test(raw);
  ELLIPSIS.lastIndex = 0;
  const body = raw.replace(ELLIPSIS, ' ').toLowerCase().replace(/[\s.:;,!()[\]-]+/g, ' ').trim();
  // A comment of nothing but an ellipsis is a placeholder; an empty comment is not.
  if (body === '' && !hadEllipsis) {
    return undefined;
  }
  const placeholder = PLACEHOLDER_BODIES.some((pattern) => pattern.test(body)) || (hadEllipsis && ELLIPSIS_BODIES.some((pattern) => pattern.test(body)));
  return placeholder ? body || '...' : undefined;
}

/** The placeholder lines of `after` that `before` does not already have as often, with their 1-based line numbers. */
export function introducedPlaceholders(before: string, after: string): { line: number; text: string }[] {
  const counts = new Map<string, number>();
  for (const line of before.split(/\r\n|\r|\n/)) {
    const key = placeholderKey(line);
    if (key !== undefined) {
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const introduced: { line: number; text: string }[] = [];
  after.split(/\r\n|\r|\n/).forEach((line, index) => {
    const key = placeholderKey(line);
    if (key === undefined) {
      return;
    }
    const left = counts.get(key) ?? 0;
    if (left > 0) {
      counts.set(key, left - 1);
    } else {
      introduced.push({ line: index + 1, text: line.trim() });
    }
  });
  return introduced;
}

/** Documentation, whose code samples elide on purpose ("// ..."): never judged. */
const PROSE_FILE = /\.(md|mdx|markdown|txt|rst|adoc|org)$/i;

/**
 * Throws a ToolError when the change from `before` to `after` would write an omission placeholder
 * the text did not have. `field` names what the model sent (`content`, `new_string`, `the patch`).
 */
export function refuseIntroducedPlaceholders(before: string, after: string, shownPath: string, field: string): void {
  if (PROSE_FILE.test(shownPath)) {
    return;
  }
  const introduced = introducedPlaceholders(before, after);
  if (introduced.length === 0) {
    return;
  }
  const listed = introduced.slice(0, 3).map((entry) => `line ${entry.line}: ${entry.text}`).join('; ');
  throw new ToolError(
    `${field} would write ${introduced.length === 1 ? 'an omission placeholder' : `${introduced.length} omission placeholders`} into ${shownPath} (${listed}). ` +
      'The text you send is written exactly as it is, so a placeholder would replace the code it stands for. Send the full text instead, or change only the lines that change with workspace_edit_file. Nothing was changed.',
  );
}
