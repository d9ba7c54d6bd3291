// Go's base64.StdEncoding.Decode, as encoding/json decodes a string into a []byte: whether it decodes, and
// the CorruptInputError text when it does not (its offset is a byte offset into the string's UTF-8).

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALID = new Set([...ALPHABET].map((c) => c.charCodeAt(0)));
const PAD = 0x3d; // '='
const isNewline = (c: number | undefined): boolean => c === 0x0a || c === 0x0d;

const corrupt = (offset: number): string => `illegal base64 data at input byte ${offset}`;

/** undefined when `text` is valid standard (padded) base64 for Go, else the error's message. */
export function goBase64Error(text: string): string | undefined {
  const src = Buffer.from(text, 'utf8');
  let si = 0;
  // decodeQuantum, one quantum of four characters at a time (newlines skipped).
  for (;;) {
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return undefined;
        return corrupt(si - j);
      }
      const c = src[si++]!;
      if (VALID.has(c)) continue;
      if (isNewline(c)) {
        j--;
        continue;
      }
      if (c !== PAD || j < 2) return corrupt(si - 1);
      if (j === 2) {
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) return corrupt(src.length);
        if (src[si] !== PAD) return corrupt(si - 1);
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      return si < src.length ? corrupt(si) : undefined;
    }
  }
}
