// Go's time.Duration.String: "0s", "1.5µs", "12.5ms", "2h3m4.5s" (what kube's debug dumps print).

/** Trailing zeros of a fraction dropped, and the point with them. */
function fraction(v: bigint, digits: number): string {
  const s = v.toString().padStart(digits, '0').replace(/0+$/, '');
  return s ? '.' + s : '';
}

export function goDurationString(nanos: bigint): string {
  if (nanos === 0n) return '0s';
  const neg = nanos < 0n;
  const u = neg ? -nanos : nanos;
  let out: string;
  if (u < 1_000n) out = `${u}ns`;
  else if (u < 1_000_000n) out = `${u / 1_000n}${fraction(u % 1_000n, 3)}µs`;
  else if (u < 1_000_000_000n) out = `${u / 1_000_000n}${fraction(u % 1_000_000n, 6)}ms`;
  else {
    const secs = u / 1_000_000_000n;
    const s = `${secs % 60n}${fraction(u % 1_000_000_000n, 9)}s`;
    const mins = secs / 60n;
    if (mins === 0n) out = s;
    else {
      const hours = mins / 60n;
      out = hours === 0n ? `${mins}m${s}` : `${hours}h${mins % 60n}m${s}`;
    }
  }
  return neg ? '-' + out : out;
}
