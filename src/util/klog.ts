// Log lines as kube's components write them to stderr (klog): the text format
// `I1126 18:05:01.123456   12345 httplog.go:134] "HTTP" verb="GET" resp=200`, or with --logging-format=json
// component-base's JSON lines `{"ts":<ms since the epoch>,"caller":"httplog/httplog.go:134","msg":"HTTP","v":3,...}`.
// A message is written only when the verbosity (-v) is at least its level.

export type LoggingFormat = 'text' | 'json';
export const LOGGING_FORMATS: readonly LoggingFormat[] = ['json', 'text'];

/** Key/value pairs in order; strings quoted, numbers and booleans bare. */
export type KeyValues = ReadonlyArray<readonly [string, string | number | boolean]>;

export interface Logger {
  readonly verbosity: number;
  /** Whether messages at this level are written (klog.V(level).Enabled()). */
  enabled(level: number): boolean;
  /** An info message at a level, from a caller given as kube's source file ("httplog/httplog.go:134"). */
  info(level: number, caller: string, msg: string, kv: KeyValues): void;
}

interface Sink {
  write(line: string): unknown;
}

export function newLogger(verbosity: number, format: LoggingFormat, sink: Sink = process.stderr): Logger {
  const line = format === 'json' ? jsonLine : textLine;
  return {
    verbosity,
    enabled: (level) => verbosity >= level,
    info(level, caller, msg, kv) {
      if (verbosity >= level) sink.write(line(level, caller, msg, kv));
    },
  };
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** klog's header: severity, MMDD hh:mm:ss.uuuuuu in local time, the process id in 7 columns, file:line. */
function textLine(_level: number, caller: string, msg: string, kv: KeyValues): string {
  const now = new Date();
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000) % 1_000_000;
  const header =
    `I${pad(now.getMonth() + 1, 2)}${pad(now.getDate(), 2)} ${pad(now.getHours(), 2)}:${pad(now.getMinutes(), 2)}:${pad(now.getSeconds(), 2)}.${pad(micros, 6)} ` +
    `${String(process.pid).padStart(7)} ${caller.slice(caller.lastIndexOf('/') + 1)}] `;
  let out = header + goQuote(msg);
  for (const [k, v] of kv) out += ` ${k}=${typeof v === 'string' ? goQuote(v) : String(v)}`;
  return out + '\n';
}

/** zap's JSON encoder as component-base configures it: ts (ms, fractional), caller, msg, then v and the pairs. */
function jsonLine(level: number, caller: string, msg: string, kv: KeyValues): string {
  let out = `{"ts":${performance.timeOrigin + performance.now()},"caller":${JSON.stringify(caller)},"msg":${JSON.stringify(msg)},"v":${level}`;
  for (const [k, v] of kv) out += `,${JSON.stringify(k)}:${JSON.stringify(v)}`;
  return out + '}\n';
}

/** Go's strconv.Quote for the printable text logs hold (JSON's escaping, bar its \u form for control bytes). */
function goQuote(s: string): string {
  return JSON.stringify(s).replace(/\\u00([0-7][0-9a-f])/g, '\\x$1');
}

/** Go's time.Duration.String for a duration in nanoseconds: "512ns", "1.234µs", "12.5ms", "1.5s", "2m3.5s". */
export function goDuration(nanos: number): string {
  const ns = Math.round(nanos);
  if (ns === 0) return '0s';
  if (ns < 0) return '-' + goDuration(-ns);
  if (ns < 1e3) return `${ns}ns`;
  if (ns < 1e6) return `${fraction(ns, 1e3)}µs`;
  if (ns < 1e9) return `${fraction(ns, 1e6)}ms`;
  let rest = ns;
  const h = Math.floor(rest / 3.6e12);
  rest -= h * 3.6e12;
  const m = Math.floor(rest / 6e10);
  rest -= m * 6e10;
  const s = `${fraction(rest, 1e9)}s`;
  return h > 0 ? `${h}h${m}m${s}` : m > 0 ? `${m}m${s}` : s;
}

/** n / unit with the digits Go keeps (up to the nanosecond), trailing zeros dropped. */
function fraction(n: number, unit: number): string {
  const whole = Math.floor(n / unit);
  const digits = Math.round(Math.log10(unit));
  const frac = String(n - whole * unit).padStart(digits, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}
