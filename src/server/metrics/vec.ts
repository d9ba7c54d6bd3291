// Counter, gauge and histogram vectors for the kube-apiserver metrics, written as Go's Prometheus client writes
// them: label values escaped, series sorted, histograms' le last and cumulative, and numbers in Go's
// strconv.FormatFloat(x, 'g', -1, 64) form ("1e-05", "1.234567e+06"). prom-client's own metrics cannot be
// made to print numbers that way, and its per-observation label hashing costs more than the request path can
// spare; it still serves the process and Node.js runtime metrics beside these.

type Type = 'counter' | 'gauge' | 'histogram';

abstract class Vec<S> {
  protected readonly series = new Map<string, { values: readonly string[]; s: S }>();

  constructor(
    readonly name: string,
    readonly help: string,
    /** In the order the exposition prints them (sorted, as Go prints them). */
    readonly labelNames: readonly string[],
    private readonly type: Type,
  ) {}

  /** The series for these label values (in labelNames' order), made on first use; callers on hot paths keep it. */
  with(...values: string[]): S {
    const key = values.join('\0');
    let e = this.series.get(key);
    if (!e) {
      if (values.length !== this.labelNames.length) throw new Error(`${this.name}: ${values.length} label values for ${this.labelNames.length} labels`);
      e = { values, s: this.make() };
      this.series.set(key, e);
    }
    return e.s;
  }

  reset(): void {
    this.series.clear();
  }

  protected abstract make(): S;
  protected abstract lines(labels: string, s: S): string[];

  /** The family in text format 0.0.4, without a trailing newline. */
  expose(): string {
    const out = [`# HELP ${this.name} ${this.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${this.name} ${this.type}`];
    const entries = [...this.series.values()].sort((a, b) => compareValues(a.values, b.values));
    for (const { values, s } of entries) out.push(...this.lines(values.map((v, i) => `${this.labelNames[i]}="${escapeLabel(v)}"`).join(','), s));
    return out.join('\n');
  }
}

export interface CounterSeries {
  value: number;
}

export class CounterVec extends Vec<CounterSeries> {
  /** collect, when given, sets the series from elsewhere when the family is exposed (counts kept by another part). */
  constructor(name: string, help: string, labelNames: readonly string[], private readonly collect?: (c: CounterVec) => void) {
    super(name, help, labelNames, 'counter');
  }
  override expose(): string {
    this.collect?.(this);
    return super.expose();
  }
  protected make(): CounterSeries {
    return { value: 0 };
  }
  protected lines(labels: string, s: CounterSeries): string[] {
    return [`${this.name}${braces(labels)} ${goFloat(s.value)}`];
  }
}

export interface GaugeSeries {
  value: number;
}

export class GaugeVec extends Vec<GaugeSeries> {
  constructor(name: string, help: string, labelNames: readonly string[], private readonly collect?: (g: GaugeVec) => void) {
    super(name, help, labelNames, 'gauge');
  }
  protected make(): GaugeSeries {
    return { value: 0 };
  }
  protected lines(labels: string, s: GaugeSeries): string[] {
    return [`${this.name}${braces(labels)} ${goFloat(s.value)}`];
  }
  override expose(): string {
    this.collect?.(this);
    return super.expose();
  }
}

export class HistogramSeries {
  /** Observations per bucket, not cumulative; the last is +Inf's. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(v: number): void {
    const b = this.bounds;
    let i = 0;
    while (i < b.length && v > b[i]!) i++;
    this.counts[i]!++;
    this.sum += v;
    this.count++;
  }
}

export class HistogramVec extends Vec<HistogramSeries> {
  private readonly les: string[];

  constructor(name: string, help: string, labelNames: readonly string[], private readonly bounds: readonly number[]) {
    super(name, help, labelNames, 'histogram');
    this.les = [...bounds.map(goFloat), '+Inf'];
  }
  protected make(): HistogramSeries {
    return new HistogramSeries(this.bounds);
  }
  protected lines(labels: string, s: HistogramSeries): string[] {
    const sep = labels ? ',' : '';
    let cumulative = 0;
    const out = this.les.map((le, i) => {
      cumulative += s.counts[i]!;
      return `${this.name}_bucket{${labels}${sep}le="${le}"} ${goFloat(cumulative)}`;
    });
    out.push(`${this.name}_sum${braces(labels)} ${goFloat(s.sum)}`, `${this.name}_count${braces(labels)} ${goFloat(s.count)}`);
    return out;
  }
}

/** prometheus.ExponentialBuckets: start, start×factor, ... (count of them). */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  const out: number[] = [];
  for (let next = start, i = 0; i < count; i++, next *= factor) out.push(next);
  return out;
}

/** strconv.FormatFloat(x, 'g', -1, 64): the shortest digits, exponent form below 1e-4 and from 1e6. */
export function goFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa, e] = x.toExponential().split('e') as [string, string];
  const exp = Number(e);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(x);
}

const braces = (labels: string): string => (labels ? `{${labels}}` : '');
const escapeLabel = (v: string): string => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

function compareValues(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return 0;
}
