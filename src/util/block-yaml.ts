// A reader for the YAML that Go's sigs.k8s.io/yaml writes (kube's testdata files): block mappings and
// sequences by indentation, plain, single- and double-quoted scalars, `null`, `{}` and `[]`. The `yaml`
// package reads it too, but takes ~120 ms (300 ms cold) for the bootstrap policy at every start; this takes
// a few. Anything outside that subset throws: the files it reads are checked against `yaml` in the tests.

interface Line {
  indent: number;
  text: string;
  no: number;
}

const SEQ_ITEM = /^-( |$)/;

function scalar(raw: string, no: number): unknown {
  const s = raw.trim();
  if (s.startsWith('"')) {
    if (!s.endsWith('"') || s.length < 2) throw new Error(`line ${no}: unterminated double-quoted scalar`);
    return JSON.parse(s) as unknown;
  }
  if (s.startsWith("'")) {
    if (!s.endsWith("'") || s.length < 2) throw new Error(`line ${no}: unterminated single-quoted scalar`);
    return s.slice(1, -1).replaceAll("''", "'");
  }
  if (s === 'null' || s === '~' || s === '') return null;
  if (s === '{}') return {};
  if (s === '[]') return [];
  if (s === 'true' || s === 'false') return s === 'true';
  if (/^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(s)) return Number(s);
  if (/^[[{&*!|>%@`#]/.test(s) || s.includes(' #')) throw new Error(`line ${no}: unsupported YAML: ${s}`);
  return s;
}

/** `key: value` or `key:`; the key plain or double-quoted. */
function splitKey(text: string, no: number): [string, string] {
  if (text.startsWith('"')) {
    const end = text.indexOf('":');
    if (end < 0) throw new Error(`line ${no}: expected a mapping key`);
    return [JSON.parse(text.slice(0, end + 1)) as string, text.slice(end + 2)];
  }
  const m = /^([^:]*(?::[^ :][^:]*)*):(?: |$)/.exec(text);
  if (!m) throw new Error(`line ${no}: expected a mapping key`);
  return [m[1]!, text.slice(m[0].length)];
}

class Reader {
  private i = 0;
  constructor(private readonly lines: Line[]) {}

  private peek(): Line | undefined {
    return this.lines[this.i];
  }

  node(indent: number): unknown {
    const line = this.peek();
    if (!line || line.indent < indent) return null;
    return SEQ_ITEM.test(line.text) ? this.sequence(line.indent) : this.mapping(line.indent);
  }

  private sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    for (let line = this.peek(); line && line.indent === indent && SEQ_ITEM.test(line.text); line = this.peek()) {
      const rest = line.text.slice(2);
      if (rest.trim() === '') {
        this.i++;
        out.push(this.node(indent + 1));
      } else if (SEQ_ITEM.test(rest) || /^("[^"]*"|[^'"\s][^:]*(?::[^ :][^:]*)*):( |$)/.test(rest)) {
        // A mapping or sequence that starts on the item's line: read it as if that line were indented past the dash.
        this.lines[this.i] = { indent: indent + 2, text: rest, no: line.no };
        out.push(this.node(indent + 2));
      } else {
        this.i++;
        out.push(scalar(rest, line.no));
      }
    }
    return out;
  }

  private mapping(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (let line = this.peek(); line && line.indent === indent && !SEQ_ITEM.test(line.text); line = this.peek()) {
      const [key, rest] = splitKey(line.text, line.no);
      this.i++;
      if (rest.trim() !== '') {
        out[key] = scalar(rest, line.no);
        continue;
      }
      const next = this.peek();
      // A sequence under a key may sit at the key's own indentation, as Go's marshaller writes it.
      if (next && (next.indent > indent || (next.indent === indent && SEQ_ITEM.test(next.text)))) out[key] = this.node(next.indent);
      else out[key] = null;
    }
    return out;
  }

  done(): void {
    const line = this.peek();
    if (line) throw new Error(`line ${line.no}: unexpected indentation`);
  }
}

/** Parse one document of that subset. */
export function parseBlockYaml(text: string): unknown {
  const lines: Line[] = [];
  text.split('\n').forEach((raw, n) => {
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) return;
    if (raw.includes('\t')) throw new Error(`line ${n + 1}: tabs are not supported`);
    const indent = raw.length - raw.trimStart().length;
    lines.push({ indent, text: raw.trimEnd().slice(indent), no: n + 1 });
  });
  const reader = new Reader(lines);
  const out = reader.node(0);
  reader.done();
  return out;
}
