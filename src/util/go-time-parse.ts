// Go's time.Parse(time.RFC3339, value), as metav1.Time's UnmarshalJSON calls it, and time.Parse(RFC3339Micro,
// value), as metav1.MicroTime's does: whether the text parses, and when it does not, the *time.ParseError text
// Go gives (the first layout element that fails to match).

const LAYOUT = '2006-01-02T15:04:05Z07:00';
const MICRO_LAYOUT = '2006-01-02T15:04:05.000000Z07:00';

type Std = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'frac' | 'zone';

/** The layout as nextStdChunk splits it: a literal prefix, then a standard element. */
const CHUNKS: ReadonlyArray<readonly [prefix: string, std: Std, stdText: string]> = [
  ['', 'year', '2006'],
  ['-', 'month', '01'],
  ['-', 'day', '02'],
  ['T', 'hour', '15'],
  [':', 'minute', '04'],
  [':', 'second', '05'],
  ['', 'zone', 'Z07:00'],
];
/** RFC3339Micro: six fractional digits, exactly, between the seconds and the zone. */
const MICRO_CHUNKS: typeof CHUNKS = [...CHUNKS.slice(0, 6), ['', 'frac', '.000000'], CHUNKS[6]!];

/** time's quote: double quotes, with `"` and `\` escaped and other bytes below space or above ~ as \x escapes. */
function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (ch < ' ' || ch === '\x7f') out += '\\x' + ch.charCodeAt(0).toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + '"';
}

const isDigit = (s: string, i: number): boolean => i < s.length && s[i]! >= '0' && s[i]! <= '9';

/** getnum: one or two digits (exactly two when fixed). */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : [Number(s[0]), s.slice(1)];
  return [Number(s.slice(0, 2)), s.slice(2)];
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** undefined when `value` parses as RFC 3339 for Go, else the ParseError's message. */
export function goRfc3339Error(value: string, micro = false): string | undefined {
  const layout = micro ? MICRO_LAYOUT : LAYOUT;
  const cannotParse = (valueElem: string, layoutElem: string): string =>
    `parsing time ${quote(value)} as ${quote(layout)}: cannot parse ${quote(valueElem)} as ${quote(layoutElem)}`;
  const withMessage = (message: string): string => `parsing time ${quote(value)}${message}`;
  let rest = value;
  let year = 0;
  let month = 0;
  let day = 0;
  for (const [prefix, std, stdText] of micro ? MICRO_CHUNKS : CHUNKS) {
    if (!rest.startsWith(prefix)) {
      // skip() stops at the first byte that differs.
      let i = 0;
      while (i < prefix.length && rest[i] === prefix[i]) i++;
      return cannotParse(rest.slice(i), prefix);
    }
    rest = rest.slice(prefix.length);
    const hold = rest;
    let range = '';
    let ok = true;
    const num = (fixed: boolean): number => {
      const r = getnum(rest, fixed);
      if (!r) {
        ok = false;
        return 0;
      }
      rest = r[1];
      return r[0];
    };
    switch (std) {
      case 'year':
        if (rest.length < 4 || !isDigit(rest, 0) || !/^\d{4}$/.test(rest.slice(0, 4))) ok = false;
        else {
          year = Number(rest.slice(0, 4));
          rest = rest.slice(4);
        }
        break;
      case 'month':
        month = num(true);
        if (ok && (month <= 0 || month > 12)) range = 'month';
        break;
      case 'day':
        day = num(true);
        break;
      case 'hour': {
        const h = num(false);
        if (ok && h >= 24) range = 'hour';
        break;
      }
      case 'minute': {
        const m = num(true);
        if (ok && m >= 60) range = 'minute';
        break;
      }
      case 'second': {
        const s = num(true);
        if (!ok) break;
        if (s >= 60) {
          range = 'second';
          break;
        }
        // A fractional second the layout does not mention is accepted.
        if (!micro && rest.length >= 2 && (rest[0] === '.' || rest[0] === ',') && isDigit(rest, 1)) {
          let n = 2;
          while (isDigit(rest, n)) n++;
          rest = rest.slice(n);
        }
        break;
      }
      case 'frac':
        // parseNanoseconds over exactly the layout's seven bytes.
        if (rest.length < 7 || (rest[0] !== '.' && rest[0] !== ',') || !/^\d{6}$/.test(rest.slice(1, 7))) ok = false;
        else rest = rest.slice(7);
        break;
      case 'zone': {
        if (rest[0] === 'Z') {
          rest = rest.slice(1);
          break;
        }
        if (rest.length < 6 || rest[3] !== ':') {
          ok = false;
          break;
        }
        const hr = getnum(rest.slice(1, 3), true);
        const mm = getnum(rest.slice(4, 6), true);
        const sign = rest[0];
        rest = rest.slice(6);
        if (!hr || !mm) {
          ok = false;
          break;
        }
        if (hr[0] > 24) range = 'time zone offset hour';
        if (mm[0] > 60) range = 'time zone offset minute';
        if (sign !== '+' && sign !== '-') ok = false;
        break;
      }
    }
    if (range) return withMessage(`: ${range} out of range`);
    if (!ok) return cannotParse(hold, stdText);
  }
  if (rest.length > 0) return withMessage(`: extra text: ${quote(rest)}`);
  if (day < 1 || day > daysIn(month, year)) return withMessage(': day out of range');
  return undefined;
}

/**
 * time.Parse(time.RFC3339, value) formatted back in UTC at whole seconds, as metav1.Time stores and serves a
 * time; or the ParseError's message.
 */
export function parseGoRfc3339(value: string, micro = false): { utc: string } | { error: string } {
  const error = goRfc3339Error(value, micro);
  if (error !== undefined) return { error };
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d?):(\d\d):(\d\d)(?:[.,](\d+))?(?:Z|([+-])(\d\d):(\d\d))$/.exec(value)!;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  const offsetMin = m[8] ? (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10])) : 0;
  const d = new Date(0);
  // setUTCFullYear: Date.UTC would read years below 100 as 19xx.
  d.setUTCFullYear(year!, month! - 1, day!);
  d.setUTCHours(hour!, minute! - offsetMin, second!, 0);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  // metav1.MicroTime keeps the microseconds; metav1.Time truncates to the second.
  const frac = micro ? `.${m[7]!}` : '';
  return { utc: `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac}Z` };
}
