// Where a heredoc ends is where bash says it ends, not where the grammar says: bash ends it at the
// first line equal to the delimiter after quote removal, so `cat <<$'EOF'` ends at a line `EOF`
// and runs the lines after it, while the grammar reads on to a line `$'EOF'` and takes those lines
// for text. Only delimiters whose quote removal is plain are read here (a bare word, '...', "..."
// without expansions, a leading backslash); any other spelling asks, and so does a body in which
// bash would have ended the heredoc before the grammar did.
import type { SyntaxNode } from './shell/bashParser';

/** A delimiter word with no quoting at all: letters, digits and punctuation the shell leaves alone. */
const BARE = /^[A-Za-z0-9_.+\-:@%^,=/]+$/;
/** What may follow the delimiter word: a blank, the end of the line, or an operator. */
const WORD_END = /^(?:$|[\s;&|<>()])/;

/** The delimiter bash compares lines with, when its spelling is one this policy reads for sure. */
function bashDelimiter(spelling: string): string | undefined {
  if (BARE.test(spelling)) {
    return spelling;
  }
  const single = /^'([^']*)'$/.exec(spelling);
  if (single) {
    return single[1];
  }
  const double = /^"([^"\\$`]*)"$/.exec(spelling);
  if (double) {
    return double[1];
  }
  const escaped = /^\\([A-Za-z0-9_.+\-:@%^,=/]+)$/.exec(spelling);
  return escaped?.[1];
}

/** Why a heredoc redirect asks; undefined when bash and the grammar agree on where it ends. */
export function unreadableHeredoc(redirect: SyntaxNode, source: string): string | undefined {
  const children = redirect.children.filter((child): child is SyntaxNode => child !== null);
  const start = children.find((child) => child.type === 'heredoc_start');
  if (!start) {
    return 'a heredoc without a delimiter the parser could read';
  }
  const spelling = start.text;
  const delimiter = bashDelimiter(spelling);
  if (delimiter === undefined || delimiter === '' || !WORD_END.test(source.slice(start.endIndex))) {
    return `the heredoc delimiter ${spelling}${WORD_END.test(source.slice(start.endIndex)) ? '' : '…'} is quoted in a way this policy does not read the way bash does, so where the heredoc ends (and what runs after it) is not sure`;
  }
  const stripTabs = children.some((child) => child.type === '<<-');
  const line = (text: string): string => (stripTabs ? text.replace(/^\t+/, '') : text);
  const end = children.find((child) => child.type === 'heredoc_end');
  if (!end || line(end.text) !== delimiter) {
    return `the heredoc ${spelling} has no end line ${delimiter} where the parser expects it, so what runs after it is not sure`;
  }
  const bodyStart = children.find((child) => child.type === 'heredoc_body')?.startIndex ?? end.startIndex;
  const body = source.slice(bodyStart, end.startIndex);
  if (body.split('\n').some((text) => line(text) === delimiter)) {
    return `bash ends the heredoc ${spelling} at an earlier line ${delimiter} than the parser does, so lines the parser reads as text would run`;
  }
  return undefined;
}
