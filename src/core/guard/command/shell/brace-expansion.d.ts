// Types for brace-expansion 1.x (the package ships none): bash's brace expansion of one word.
declare module 'brace-expansion' {
  interface ExpandOptions {
    /** The most words to produce. */
    readonly max?: number;
  }
  function expand(word: string, options?: ExpandOptions): string[];
  export = expand;
}
