// Go's unicode.IsPrint for one character: a letter, mark, number, punctuation or symbol, or the ASCII space. The
// pattern is built on first use: a class of Unicode properties takes V8 about 0.6 ms to build, which every start
// paid for each module that made one as it loaded.
let graphic: RegExp | undefined;

/** unicode.IsPrint of ch, one code point (as iterating a string gives them). */
export function isPrintChar(ch: string): boolean {
  return ch === ' ' || (graphic ??= /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u).test(ch);
}
