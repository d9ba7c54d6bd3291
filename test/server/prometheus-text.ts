// A minimal reader of the Prometheus text exposition format (0.0.4), for tests: families with their HELP and
// TYPE, and every sample with its labels. It refuses what the format does not allow, so a malformed
// exposition fails the test rather than being half read.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SUFFIXES = ['_bucket', '_sum', '_count'];

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const family = (name: string): Family => {
    let f = families.get(name);
    if (!f) families.set(name, (f = { name, help: '', type: 'untyped', samples: [] }));
    return f;
  };
  const lines = text.split('\n');
  if (lines.at(-1) !== '') throw new Error('the exposition must end with a newline');
  for (const [i, line] of lines.slice(0, -1).entries()) {
    const where = `line ${i + 1}: ${line}`;
    if (line.startsWith('# HELP ')) {
      const rest = line.slice(7);
      const sp = rest.indexOf(' ');
      const name = sp < 0 ? rest : rest.slice(0, sp);
      if (!NAME.test(name)) throw new Error(`bad metric name, ${where}`);
      family(name).help = sp < 0 ? '' : rest.slice(sp + 1).replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const [name, type] = line.slice(7).split(' ');
      if (!name || !NAME.test(name) || !['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(type ?? '')) throw new Error(`bad TYPE, ${where}`);
      const f = family(name);
      if (f.samples.length > 0) throw new Error(`TYPE after samples, ${where}`);
      f.type = type as Family['type'];
      continue;
    }
    if (line.startsWith('#') || line.trim() === '') continue;
    const s = parseSample(line, where);
    const base = families.has(s.name) ? s.name : (SUFFIXES.map((x) => (s.name.endsWith(x) ? s.name.slice(0, -x.length) : '')).find((b) => b && families.has(b)) ?? s.name);
    family(base).samples.push(s);
  }
  return families;
}

function parseSample(line: string, where: string): Sample {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{)?/.exec(line);
  if (!m) throw new Error(`bad sample, ${where}`);
  const name = m[1]!;
  let at = name.length;
  const labels: Record<string, string> = {};
  if (m[2]) {
    at++;
    while (line[at] !== '}') {
      const lm = /^([a-zA-Z_][a-zA-Z0-9_]*)="/.exec(line.slice(at));
      if (!lm) throw new Error(`bad label at ${at}, ${where}`);
      at += lm[0].length;
      let value = '';
      for (;;) {
        const c = line[at++];
        if (c === undefined) throw new Error(`unterminated label value, ${where}`);
        if (c === '"') break;
        if (c === '\\') {
          const e = line[at++];
          value += e === 'n' ? '\n' : e === '\\' ? '\\' : e === '"' ? '"' : (() => { throw new Error(`bad escape, ${where}`); })();
        } else value += c;
      }
      if (lm[1]! in labels) throw new Error(`repeated label ${lm[1]}, ${where}`);
      labels[lm[1]!] = value;
      if (line[at] === ',') at++;
      else if (line[at] !== '}') throw new Error(`expected , or }, ${where}`);
    }
    at++;
  }
  const rest = line.slice(at).trim().split(/\s+/);
  if (line[at] !== ' ' || rest.length < 1 || rest.length > 2) throw new Error(`bad value, ${where}`);
  const raw = rest[0]!;
  const value = raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : raw === 'NaN' ? NaN : Number(raw);
  if (Number.isNaN(value) && raw !== 'NaN') throw new Error(`bad value (NaN is spelt "NaN"), ${where}`);
  return { name, labels, value };
}

/** The samples of a name whose labels include all of these. */
export function samples(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): Sample[] {
  const base = [name, ...SUFFIXES.filter((x) => name.endsWith(x)).map((x) => name.slice(0, -x.length))].find((b) => families.has(b));
  return (base ? families.get(base)!.samples : []).filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The sum of those samples' values (0 when there are none). */
export const total = (families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number => samples(families, name, labels).reduce((n, s) => n + s.value, 0);
