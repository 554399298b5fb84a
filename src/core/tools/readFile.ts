import { MAX_EDITABLE_BYTES, notebookEditorText } from '../changes/fileBaseline';
import { bytesFingerprint, editorTextFingerprint } from '../changes/freshness';
import type { ToolContext } from '../context';
import { errorMessage, ToolError } from '../errors';
import { guardPath } from '../guard/pathGuard';
import { displayPath } from '../location';
import { capChars, MAX_LINE_CHARS, MAX_TEXT_PART_CHARS } from '../output/budget';
import type { FileReader } from '../ports/fileSystem';
import type { Libraries } from '../ports/libraries';
import { sniffFileType } from '../read/fileType';
import { readLineChars, readLineSlice, sliceLineChars, sliceLines, type CharSlice, type LineSlice } from '../read/lineSlice';
import { renderNotebook } from '../read/notebook';
import { extractPdfPages } from '../read/pdfText';
import { decodeText, detectEncoding, looksBinary } from '../text/encoding';
import { formatSize } from '../text/format';
import { resultBudget } from './invoke';
import { defineTool, textResult, type Tool, type ToolResult } from './toolSpec';

export interface ReadFileInput {
  file_path: string;
  offset?: number;
  limit?: number;
  char_offset?: number;
  char_limit?: number;
}

export const DEFAULT_READ_LIMIT = 2000;
/** Files above this size are never loaded whole: text is streamed, images and PDFs refused. */
const MAX_WHOLE_FILE_BYTES = 32 * 1024 * 1024;
/** Local text files above this size are streamed instead of read whole. */
const STREAM_THRESHOLD_BYTES = 1024 * 1024;
const SNIFF_BYTES = 8192;
/** Characters of the result budget kept for the header and the footer. */
const FOOTER_ROOM = 500;
const MAX_PDF_PAGES = 200;
const MAX_PDF_CHARS = 100_000;

export const readFileTool: Tool = defineTool<ReadFileInput>({
  name: 'workspace_read_file',
  displayName: 'Read File',
  toolReferenceName: 'workspaceReadFile',
  icon: '$(file)',
  access: 'read',
  userDescription: 'Read a file of the workspace: text with line numbers, images, PDF text.',
  modelDescription: [
    'Use this instead of the built-in read tools: it never reads secrets or files outside the workspace unless the user allows it, and returns the editor\'s unsaved text, images and PDF text.',
    'Read a file from the workspace. Use this before editing or overwriting a file (writes to files you have not read are refused), and whenever you need exact file contents.',
    'file_path: a path relative to the workspace root (in a multi-root workspace, start with the folder name), or an absolute path.',
    'Text comes back like `cat -n`: the 1-based line number right-aligned in 6 columns, a tab, then the line. Never include the number prefix in old_string or content you pass to other tools.',
    'By default up to 2000 lines are returned from the start; for longer files pass offset (1-based first line) and limit (number of lines) and follow the footer, which says which lines are shown and the offset to continue from.',
    'Lines longer than 2000 characters are cut with a marker, and the footer says how to read one in full: pass offset (the line) and char_offset (the 1-based character to start at, e.g. 2001), and optionally char_limit; the result is that range of the line as raw text, with a footer giving the char_offset to continue from. This reads minified files and single-line JSON of any size.',
    'If the file is open in an editor with unsaved changes, the unsaved text is returned and the result says so. Images (PNG, JPEG, GIF, WebP) are returned as images, PDFs as text per page; other binary files are refused with their size. For a directory use workspace_list_directory; to find files use workspace_glob; to search contents use workspace_grep.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      file_path: { type: 'string', description: 'The file to read: workspace-relative or absolute.' },
      offset: { type: 'integer', description: 'The 1-based line number to start reading at, at least 1. Default 1.' },
      limit: { type: 'integer', description: 'The number of lines to read, at least 1. Default 2000.' },
      char_offset: { type: 'integer', description: 'Read characters of one long line (the line given by offset) from this 1-based character on, at least 1, instead of whole lines.' },
      char_limit: { type: 'integer', description: `With char_offset: how many characters to read, at least 1. Default and most: ${MAX_TEXT_PART_CHARS - FOOTER_ROOM}.` },
    },
    required: ['file_path'],
    additionalProperties: false,
  },
  bounds: { offset: { min: 1 }, limit: { min: 1 }, char_offset: { min: 1 }, char_limit: { min: 1 } },
  invocationMessage: (input) => `Reading ${input.file_path}`,

  async run(input, ctx) {
    const offset = input.offset ?? 1;
    const limit = input.limit ?? DEFAULT_READ_LIMIT;
    if (input.char_limit !== undefined && input.char_offset === undefined) {
      throw new ToolError('char_limit needs char_offset: pass offset (the line), char_offset (the first character, e.g. 2001) and char_limit.');
    }
    // One text part at most: a client shows parts as separate blocks (or spills long ones), which would break up a line.
    const charRoom = Math.min(maxChars(ctx), MAX_TEXT_PART_CHARS - FOOTER_ROOM);
    const chars = input.char_offset === undefined ? undefined : { offset: input.char_offset, limit: Math.min(input.char_limit ?? charRoom, charRoom) };
    const target = await guardPath(input.file_path, 'read', ctx);
    const shown = displayPath(target.literal, ctx.workspace);
    const dirty = ctx.host.buffers.dirtyText(target.literal) ?? ctx.host.buffers.dirtyText(target.resolved);
    if (dirty !== undefined) {
      ctx.session.reads.record(target.resolved, editorTextFingerprint(dirty));
      const slice = sliceLines(dirty, offset, limit);
      const header = `[${shown} has unsaved changes in the editor; showing the editor's text, not the file on disk.]`;
      if (chars) {
        const formattedChars = formatChars(sliceLineChars(dirty, offset, chars.offset, chars.limit), shown);
        return textResult(`${header}\n${formattedChars.text}`, formattedChars.continuation);
      }
      const formatted = formatSlice(slice, shown, offset, maxChars(ctx));
      return textResult(`${header}\n${formatted.text}`, formatted.continuation);
    }
    const stat = target.stat;
    if (!stat) {
      throw new ToolError(`File not found: ${shown}. Check the path with workspace_glob or workspace_list_directory.`);
    }
    if (stat.kind === 'directory') {
      throw new ToolError(`${shown} is a directory, not a file. Use workspace_list_directory to see what it contains.`);
    }
    // Where the file system has random access (the local disk) only the head is read to sniff the
    // type, and large text is streamed; elsewhere the whole file is read once.
    const reader = await ctx.host.fs.openReader(target.resolved);
    try {
      if (!reader && stat.size > MAX_WHOLE_FILE_BYTES) {
        throw new ToolError(`${shown} is ${formatSize(stat.size)}; files over ${formatSize(MAX_WHOLE_FILE_BYTES)} can only be read on the local disk. Use workspace_grep to find the lines you need.`);
      }
      const head = reader ? await readHead(reader) : await ctx.host.fs.readFile(target.resolved);
      /** The whole file: the head when it already holds all of it, else one more read. */
      const wholeFile = async (): Promise<Uint8Array> => (head.length >= stat.size ? head : ctx.host.fs.readFile(target.resolved));
      const type = sniffFileType(head);
      if (type.kind === 'image' || type.kind === 'pdf') {
        if (stat.size > MAX_WHOLE_FILE_BYTES) {
          throw new ToolError(`${shown} is a ${formatSize(stat.size)} ${type.kind === 'pdf' ? 'PDF' : 'image'}, too large to return (the limit is ${formatSize(MAX_WHOLE_FILE_BYTES)}).`);
        }
        const bytes = await wholeFile();
        ctx.session.reads.record(target.resolved, bytesFingerprint(bytes, stat.mtime));
        if (type.kind === 'image') {
          return { parts: [{ kind: 'text', text: `Image ${shown} (${type.mimeType}, ${formatSize(stat.size)}):` }, { kind: 'image', mimeType: type.mimeType, data: bytes }] };
        }
        return readPdf(bytes, shown, ctx.host.libraries);
      }
      if (looksBinary(head.subarray(0, SNIFF_BYTES))) {
        throw new ToolError(`${shown} is a binary file (${formatSize(stat.size)}); it cannot be shown as text. Only text, images (PNG, JPEG, GIF, WebP) and PDFs can be read.`);
      }
      if (stat.size === 0) {
        ctx.session.reads.record(target.resolved, bytesFingerprint(new Uint8Array(), stat.mtime));
        return textResult(`${shown} is empty (0 bytes).`);
      }
      if (reader && stat.size > STREAM_THRESHOLD_BYTES) {
        const { encoding, bomLength } = detectEncoding(head);
        // A file the edit tools may change is remembered by its content, so touching it later is no change.
        const editable = stat.size <= MAX_EDITABLE_BYTES ? await ctx.host.fs.readFile(target.resolved) : undefined;
        const editableText = editable && decodeText(editable).text;
        ctx.session.reads.record(target.resolved, editable ? bytesFingerprint(editable, stat.mtime, editableText) : { size: stat.size, mtime: stat.mtime });
        if (chars) {
          const slice = editableText === undefined ? await readLineChars(reader, encoding, bomLength, offset, chars.offset, chars.limit, ctx.call.token) : sliceLineChars(editableText, offset, chars.offset, chars.limit);
          const formattedChars = formatChars(slice, shown);
          return textResult(formattedChars.text, formattedChars.continuation);
        }
        // An editable file was just read whole for its fingerprint: slice that text rather than read it again.
        const slice = editableText === undefined ? await readLineSlice(reader, encoding, bomLength, offset, limit, ctx.call.token) : sliceLines(editableText, offset, limit);
        const formatted = formatSlice(slice, shown, offset, maxChars(ctx));
        return textResult(formatted.text, formatted.continuation);
      }
      const bytes = await wholeFile();
      const decoded = decodeText(bytes).text;
      // A notebook open in a notebook editor with unsaved cells reads as the editor holds it.
      const editorCells = notebookEditorText(decoded, { literal: target.literal, resolved: target.resolved, shown }, ctx);
      const text = editorCells ?? decoded;
      const header = editorCells === undefined ? '' : `[${shown} has unsaved changes in the notebook editor; showing the editor's cells, not the file on disk.]\n`;
      ctx.session.reads.record(target.resolved, editorCells === undefined ? bytesFingerprint(bytes, stat.mtime, text) : editorTextFingerprint(text));
      if (chars) {
        const formattedChars = formatChars(sliceLineChars(text, offset, chars.offset, chars.limit), shown);
        return textResult(`${header}${formattedChars.text}`, formattedChars.continuation);
      }
      // A notebook shows as its cells, unless an offset asks for the raw JSON lines.
      const cells = input.offset === undefined && /\.ipynb$/i.test(shown) ? renderNotebook(text, shown) : undefined;
      if (cells !== undefined) {
        const capped = capChars(cells, maxChars(ctx), 'Read the raw JSON with offset and limit.');
        return textResult(`${header}${capped.text}${capped.note ? `\n${capped.note}` : ''}`, capped.note);
      }
      const formatted = formatSlice(sliceLines(text, offset, limit), shown, offset, maxChars(ctx));
      return textResult(`${header}${formatted.text}`, formatted.continuation);
    } finally {
      await reader?.close();
    }
  },
});


/** The result budget for the numbered lines. */
function maxChars(ctx: ToolContext): number {
  return resultBudget(ctx) - FOOTER_ROOM;
}

async function readHead(reader: FileReader): Promise<Uint8Array> {
  const buffer = new Uint8Array(SNIFF_BYTES);
  const bytesRead = await reader.read(buffer, 0);
  return buffer.subarray(0, bytesRead);
}

/**
 * `cat -n` lines and the footer that tells the model how to go on (its first line, when lines
 * follow, is the continuation). Lines that would take the text past `maxChars` are left for the
 * next call, at a whole line, and the footer says so.
 */
export function formatSlice(slice: LineSlice, shown: string, offset: number, maxChars = Number.POSITIVE_INFINITY): { text: string; continuation?: string } {
  if (slice.totalLines === 0) {
    return { text: `${shown} is empty.` };
  }
  if (slice.lines.length === 0) {
    const total = slice.totalIsExact ? `${slice.totalLines}` : `about ${slice.totalLines}`;
    throw new ToolError(`offset ${offset} is past the end of ${shown}, which has ${total} lines. Use an offset between 1 and ${slice.totalLines}.`);
  }
  const numbered: string[] = [];
  let length = 0;
  for (const [index, line] of slice.lines.entries()) {
    const text = `${String(slice.firstLine + index).padStart(6, ' ')}\t${line}`;
    if (numbered.length > 0 && length + text.length + 1 > maxChars) {
      break;
    }
    numbered.push(text);
    length += text.length + 1;
  }
  const overBudget = numbered.length < slice.lines.length;
  const moreAfter = slice.moreAfter || overBudget;
  const notes: string[] = [];
  const lastShown = slice.firstLine + numbered.length - 1;
  let continuation: string | undefined;
  if (moreAfter || slice.firstLine > 1) {
    const total = slice.totalIsExact ? `${slice.totalLines}` : `about ${slice.totalLines} (estimated; the file is too large to count)`;
    const next = moreAfter ? ` Use offset=${lastShown + 1} to read more.` : '';
    notes.push(`[Showing lines ${slice.firstLine}-${lastShown} of ${total}.${next}]`);
    continuation = moreAfter ? notes[0] : undefined;
  }
  if (overBudget) {
    notes.push(`[Stopped before line ${lastShown + 1} to stay within the output budget of ${maxChars + FOOTER_ROOM} characters (workspaceAgentTools.output.maxResultChars, or the room the client gave this call).]`);
  }
  // A cut line is longer than the cap by its marker; a whole line is at most the cap.
  const cutShown = overBudget ? slice.lines.slice(0, numbered.length).filter((line) => line.length > MAX_LINE_CHARS).length : slice.cutLines;
  if (cutShown > 0) {
    const cut = slice.firstCut;
    const how = cut && cut.line <= lastShown ? ` Read line ${cut.line} (${cut.length} characters) in full with offset=${cut.line} and char_offset=${MAX_LINE_CHARS + 1}, then the char_offset each result gives.` : '';
    notes.push(`[${cutShown} line(s) longer than ${MAX_LINE_CHARS} characters were cut.${how}]`);
    // With no more lines to read, reading on by characters is how to continue.
    continuation ??= how ? notes[notes.length - 1] : undefined;
  }
  const body = numbered.join('\n');
  const text = notes.length ? `${body}\n\n${notes.join('\n')}` : body;
  return continuation === undefined ? { text } : { text, continuation };
}

/** A range of one long line as raw text, and the footer that says how to go on (its continuation). */
export function formatChars(slice: CharSlice, shown: string): { text: string; continuation?: string } {
  if (!slice.lineExists) {
    throw new ToolError(`offset ${slice.line} is past the end of ${shown}. Give the number of the long line as offset, as the footer of a read of it says.`);
  }
  const last = slice.firstChar + slice.text.length - 1;
  const length = slice.lineLength === undefined ? 'more than ' + last : `${slice.lineLength}`;
  if (slice.text.length === 0) {
    throw new ToolError(`char_offset ${slice.firstChar} is past the end of line ${slice.line} of ${shown}, which has ${length} characters.`);
  }
  const next = slice.moreInLine
    ? ` Use offset=${slice.line} and char_offset=${last + 1} to read more of it.`
    : slice.moreLines
      ? ` That is the end of the line; use offset=${slice.line + 1} (without char_offset) to read the lines after it.`
      : ' That is the end of the line and of the file.';
  const footer = `[Showing characters ${slice.firstChar}-${last} of line ${slice.line} (${length} characters).${next}]`;
  return { text: `${slice.text}\n\n${footer}`, ...(slice.moreInLine || slice.moreLines ? { continuation: footer } : {}) };
}

async function readPdf(bytes: Uint8Array, shown: string, libraries: Libraries): Promise<ToolResult> {
  let extracted: { pages: string[]; numPages: number };
  try {
    extracted = await extractPdfPages(bytes, MAX_PDF_PAGES, () => libraries.pdfJs());
  } catch (error) {
    throw new ToolError(`${shown} looks like a PDF but could not be parsed: ${errorMessage(error)}`);
  }
  const sections = extracted.pages.map((text, index) => `--- Page ${index + 1} of ${extracted.numPages} ---\n${text === '' ? '(no text on this page)' : text}`);
  const more = extracted.numPages > extracted.pages.length ? `\n[${extracted.numPages - extracted.pages.length} more pages not shown]` : '';
  const { text } = capChars(`PDF ${shown}, ${extracted.numPages} page(s):\n${sections.join('\n\n')}${more}`, MAX_PDF_CHARS);
  return textResult(text);
}
