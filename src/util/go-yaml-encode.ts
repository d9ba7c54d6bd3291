// YAML output as kube writes it: sigs.k8s.io/yaml's JSONToYAML, which marshals with goyaml.v2. Map keys
// are sorted, sequences are not indented under their key, and a string is written plain when goyaml's
// YAML 1.1 resolver would read it back as a string; otherwise it is double-quoted (`"8"`, `"yes"`, `"y"`,
// `"2024-01-01T00:00:00Z"`, `"1:20"`, `""`). A string that cannot be plain for the syntax's sake
// (`a: b`, `#x`, ` lead`, `it's: x`) is single-quoted, as goyaml's emitter falls back to single quotes.
import { yamlModule as load } from './yaml.js';

type YamlModule = typeof import('yaml');

/** goyaml.v2's resolve table: what an unquoted scalar starting with each character might be. */
const MAP_VALUES = new Set([
  'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON',
  'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF',
  '', '~', 'null', 'Null', 'NULL',
  '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF', '<<',
]);
const GO_INT = /^[+-]?(?:0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;
const GO_UINT = /^\+?(?:0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;
const YAML_STYLE_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const GO_FLOAT_FROM_DOT = /^\.[0-9]+(?:[eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const TIMESTAMPS = [
  /^(\d{4})-(\d{1,2})-(\d{1,2})[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2})$/,
];

/** parseTimestamp: one of goyaml's allowed layouts, with time.Parse's range checks. */
function isTimestamp(s: string): boolean {
  for (const re of TIMESTAMPS) {
    const m = re.exec(s);
    if (!m) continue;
    const [y, mo, d, h = 0, mi = 0, se = 0] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)));
    const days = new Date(Date.UTC(y!, mo!, 0)).getUTCDate();
    return mo! >= 1 && mo! <= 12 && d! >= 1 && d! <= days && h < 24 && mi < 60 && se < 60;
  }
  return false;
}

/** Whether goyaml.v2's resolve reads the plain scalar as something other than a string. */
function resolvesToNonString(s: string): boolean {
  if (MAP_VALUES.has(s)) return true;
  const c = s[0]!;
  if (c === '.') return GO_FLOAT_FROM_DOT.test(s);
  if (c !== '+' && c !== '-' && (c < '0' || c > '9')) return false;
  if (isTimestamp(s)) return true;
  const plain = s.replaceAll('_', '');
  return GO_INT.test(plain) || GO_UINT.test(plain) || YAML_STYLE_FLOAT.test(plain) || /^-0b[01]+$/.test(plain);
}

/** encoder.stringv: double quotes when a plain scalar would not read back as the same string. */
const needsDoubleQuotes = (s: string): boolean => !s.includes('\n') && (resolvesToNonString(s) || BASE60_FLOAT.test(s));

/**
 * The emitter's fallback for a string that cannot be plain is single quotes ('' inside), unless it holds
 * characters only double quotes can carry. The yaml package would pick double quotes for one with an
 * apostrophe, so those are marked.
 */
function needsSingleQuotes(Y: YamlModule, s: string): boolean {
  if (!s.includes("'") || /[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]/.test(s)) return false;
  const out = Y.stringify(s, { lineWidth: 0 });
  return out.startsWith('"') || out.startsWith("'");
}

export function goYaml(value: unknown): string {
  const Y = load();
  const doc = new Y.Document(value, { sortMapEntries: true });
  Y.visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string') return;
      if (needsDoubleQuotes(node.value)) node.type = 'QUOTE_DOUBLE';
      else if (needsSingleQuotes(Y, node.value)) node.type = 'QUOTE_SINGLE';
    },
  });
  return doc.toString({ lineWidth: 0, indentSeq: false, singleQuote: true });
}
