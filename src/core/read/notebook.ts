// Jupyter notebooks (.ipynb, nbformat 4) as the model reads and edits them: cells with their index,
// kind, language and outputs as text, and one cell's source replaced in the file's JSON text with
// every other byte (outputs, metadata, formatting) kept as it was.
import { ToolError } from '../errors';

interface NotebookOutput {
  output_type?: string;
  name?: string;
  text?: string | string[];
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
  traceback?: string[];
}

interface NotebookCell {
  cell_type?: string;
  source?: string | string[];
  outputs?: NotebookOutput[];
  metadata?: { language?: string; vscode?: { languageId?: string } };
}

interface NotebookJson {
  cells?: NotebookCell[];
  metadata?: { language_info?: { name?: string }; kernelspec?: { language?: string } };
}

/** The most characters of one cell's outputs shown. */
export const MAX_OUTPUT_CHARS = 2000;

function joined(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join('') : (value ?? '');
}

/** The notebook's cells, or undefined when the text is not a notebook. */
function parseNotebook(text: string): NotebookJson | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' && Array.isArray((parsed as NotebookJson).cells) ? (parsed as NotebookJson) : undefined;
  } catch {
    return undefined;
  }
}

function outputText(output: NotebookOutput): string {
  if (output.output_type === 'stream') {
    return joined(output.text);
  }
  if (output.output_type === 'error') {
    // Tracebacks carry terminal colours.
    const trace = (output.traceback ?? []).join('\n').replace(/\u001b\[[0-9;]*m/g, '');
    return trace || `${output.ename ?? 'Error'}: ${output.evalue ?? ''}`;
  }
  const data = output.data ?? {};
  const plain = data['text/plain'];
  if (typeof plain === 'string' || Array.isArray(plain)) {
    return joined(plain as string | string[]);
  }
  const kinds = Object.keys(data);
  return kinds.length ? `[${kinds.join(', ')} output]` : '';
}

/** The notebook as numbered cells, or undefined when the text is not a notebook. */
export function renderNotebook(text: string, shown: string): string | undefined {
  const notebook = parseNotebook(text);
  if (!notebook) {
    return undefined;
  }
  const cells = notebook.cells ?? [];
  const language = notebook.metadata?.language_info?.name ?? notebook.metadata?.kernelspec?.language ?? 'unknown';
  const out = [`${shown}: a notebook of ${cells.length} ${cells.length === 1 ? 'cell' : 'cells'} (${language}). Edit a cell with workspace_edit_file and cell=<index>; pass offset to read the raw JSON.`];
  cells.forEach((cell, index) => {
    const kind = cell.cell_type ?? 'code';
    const cellLanguage = kind === 'markdown' ? 'markdown' : kind === 'raw' ? 'raw' : (cell.metadata?.vscode?.languageId ?? language);
    out.push('', `[cell ${index}] ${kind} ${cellLanguage}`);
    const source = joined(cell.source);
    out.push(...(source === '' ? ['(empty)'] : source.split('\n').map((line, lineIndex) => `${String(lineIndex + 1).padStart(6)}\t${line}`)));
    const outputs = (cell.outputs ?? []).map((output) => outputText(output).replace(/\n$/, '')).filter((output) => output !== '').join('\n');
    if (outputs !== '') {
      const cut = outputs.length > MAX_OUTPUT_CHARS ? `${outputs.slice(0, MAX_OUTPUT_CHARS)}\n[output cut: ${outputs.length - MAX_OUTPUT_CHARS} more characters]` : outputs;
      out.push('  output:', ...cut.replace(/\n$/, '').split('\n').map((line) => `    ${line}`));
    }
  });
  return out.join('\n');
}

/** A JSON value's place in the text. */
interface Span {
  readonly start: number;
  readonly end: number;
}

/** A minimal scanner that finds where values are: enough to locate `cells[i].source` in valid JSON. */
class JsonSpans {
  private at = 0;
  constructor(private readonly text: string) {}

  private skipSpace(): void {
    while (/\s/.test(this.text[this.at] ?? '')) {
      this.at += 1;
    }
  }

  private string(): string {
    const start = this.at;
    this.at += 1;
    while (this.text[this.at] !== '"') {
      this.at += this.text[this.at] === '\\' ? 2 : 1;
    }
    this.at += 1;
    return JSON.parse(this.text.slice(start, this.at)) as string;
  }

  /** Skips one value; `visit` sees each object member's key path below `path`. */
  value(path: readonly (string | number)[], visit: (path: readonly (string | number)[], span: Span) => void): void {
    this.skipSpace();
    const start = this.at;
    const char = this.text[this.at];
    if (char === '{' || char === '[') {
      this.at += 1;
      let index = 0;
      this.skipSpace();
      while (this.text[this.at] !== (char === '{' ? '}' : ']')) {
        let key: string | number = index;
        if (char === '{') {
          this.skipSpace();
          key = this.string();
          this.skipSpace();
          this.at += 1; // the colon
        }
        this.value([...path, key], visit);
        this.skipSpace();
        if (this.text[this.at] === ',') {
          this.at += 1;
        }
        this.skipSpace();
        index += 1;
      }
      this.at += 1;
    } else if (char === '"') {
      this.string();
    } else {
      while (this.at < this.text.length && /[-+0-9.eEa-z]/.test(this.text[this.at])) {
        this.at += 1;
      }
    }
    visit(path, { start, end: this.at });
  }
}

/** The source lines as Jupyter writes them: every line but the last keeps its newline. */
function sourceLines(source: string): string[] {
  return source === '' ? [] : source.split(/(?<=\n)/);
}

/**
 * The notebook's JSON text with cell `index`'s source replaced by `source`, written in the style
 * of the source it replaces (a list of lines with the same indentation, or one string); every
 * other byte stays.
 */
export function replaceCellSource(text: string, index: number, source: string, shown: string): string {
  const notebook = parseNotebook(text);
  if (!notebook) {
    throw new ToolError(`${shown} is not a notebook (no "cells" list in its JSON); edit it without cell.`);
  }
  const count = notebook.cells?.length ?? 0;
  if (index >= count) {
    throw new ToolError(`cell ${index} does not exist: ${shown} has ${count} cells (0 to ${count - 1}).`);
  }
  let found: Span | undefined;
  new JsonSpans(text).value([], (path, span) => {
    if (path.length === 3 && path[0] === 'cells' && path[1] === index && path[2] === 'source') {
      found = span;
    }
  });
  if (!found) {
    throw new ToolError(`cell ${index} of ${shown} has no "source"; nothing was changed.`);
  }
  const old = text.slice(found.start, found.end);
  let replacement: string;
  if (old.startsWith('"')) {
    replacement = JSON.stringify(source);
  } else {
    const lineStart = text.lastIndexOf('\n', found.start) + 1;
    const closeIndent = /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
    const itemIndent = /\n([ \t]*)\S/.exec(old)?.[1] ?? `${closeIndent} `;
    const lines = sourceLines(source).map((line) => JSON.stringify(line));
    replacement = lines.length === 0 ? '[]' : `[\n${lines.map((line) => `${itemIndent}${line}`).join(',\n')}\n${closeIndent}]`;
  }
  return text.slice(0, found.start) + replacement + text.slice(found.end);
}

/** The text of cell `index` (throws naming the range when there is no such cell). */
export function cellSource(text: string, index: number, shown: string): string {
  const notebook = parseNotebook(text);
  if (!notebook) {
    throw new ToolError(`${shown} is not a notebook (no "cells" list in its JSON); edit it without cell.`);
  }
  const cells = notebook.cells ?? [];
  if (index >= cells.length) {
    throw new ToolError(`cell ${index} does not exist: ${shown} has ${cells.length} cells (0 to ${cells.length - 1}).`);
  }
  return joined(cells[index].source);
}

/**
 * The notebook's JSON text with each cell's source replaced by the text a notebook editor holds
 * (unsaved changes), so the tools read and edit what the user sees. The editor's cells must match
 * the file's one for one: a notebook whose unsaved changes add or remove cells cannot be shown as
 * the file's JSON.
 */
export function withEditorCells(text: string, cells: readonly string[], shown: string): string {
  const notebook = parseNotebook(text);
  const onDisk = notebook?.cells ?? [];
  if (!notebook || onDisk.length !== cells.length) {
    throw new ToolError(`${shown} is open in a notebook editor with unsaved changes that add or remove cells (${cells.length} cells in the editor, ${onDisk.length} in the file). Ask the user to save the notebook, then read it again.`);
  }
  let result = text;
  cells.forEach((source, index) => {
    if (joined(onDisk[index].source) !== source) {
      result = replaceCellSource(result, index, source, shown);
    }
  });
  return result;
}
