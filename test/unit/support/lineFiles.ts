import fc from 'fast-check';

/** Files of unique lines (so a chosen region is unambiguous) with random terminators and final newline. */
export const fileArbitrary = fc
  .record({
    count: fc.integer({ min: 1, max: 30 }),
    eols: fc.array(fc.constantFrom('\n', '\r\n', '\r'), { minLength: 30, maxLength: 30 }),
    words: fc.array(fc.stringMatching(/^[a-z ]{0,12}$/), { minLength: 30, maxLength: 30 }),
    finalNewline: fc.boolean(),
  })
  .map(({ count, eols, words, finalNewline }) => {
    let text = '';
    for (let i = 0; i < count; i += 1) {
      text += `L${i}:${words[i]}`;
      if (i < count - 1 || finalNewline) {
        text += eols[i];
      }
    }
    return text;
  });
