// Links and heading anchors of a Markdown file, for the docs' link test. No Markdown library is a
// dependency, so this is a careful reading of the forms the docs use: inline links and images
// `[text](target "title")`, reference definitions `[id]: target`, headings `#`..`######` and
// `<a id|name="...">`. Fenced code blocks and code spans are skipped, as GitHub renders them as text.

export interface MarkdownLink {
  readonly target: string;
  /** 1-based line of the link, for the failure message. */
  readonly line: number;
}

/** The lines outside fenced code blocks, with code spans blanked; others become empty strings. */
function proseLines(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== undefined) {
      if (opening !== null && opening[1][0] === fence[0] && opening[1].length >= fence.length && line.trim() === opening[1]) {
        fence = undefined;
      }
      return '';
    }
    if (opening !== null) {
      fence = opening[1];
      return '';
    }
    return line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (span) => ' '.repeat(span.length));
  });
}

/** Every link target of the file: inline links and images, and reference definitions. */
export function markdownLinks(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  proseLines(text).forEach((line, index) => {
    // [text](target) or ![alt](target), with an optional title; the text may hold one level of brackets.
    for (const match of line.matchAll(/!?\[(?:[^\][]|\[[^\][]*\])*\]\(\s*<?([^()\s<>]*(?:\([^()\s]*\)[^()\s<>]*)*)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1], line: index + 1 });
    }
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
    if (definition !== null) {
      links.push({ target: definition[1], line: index + 1 });
    }
  });
  return links;
}

/** GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces to hyphens. */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/`/g, '')
    .replace(/(\*\*|__|\*|\b_|_\b)/g, '') // emphasis markers
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor GitHub makes in the file: a slug per heading (repeats numbered -1, -2 ...) and HTML ids. */
export function markdownAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence = false;
  for (const line of text.split('\n')) {
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) {
      fence = !fence;
      continue;
    }
    if (fence) {
      continue;
    }
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading !== null) {
      const slug = githubSlug(heading[1]);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const html of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) {
      anchors.add(html[1]);
    }
  }
  return anchors;
}
