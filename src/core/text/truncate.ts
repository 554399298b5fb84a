// Long text in one line: for titles, terminal names and the reasons of a verdict.

/** The text on one line (line breaks shown as ⏎), cut to `max` characters with `...`. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s*\n\s*/g, ' ⏎ ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}
