// The `yaml` package as the server uses it. (It was loaded on first use; other modules import it at start-up
// anyway, and the command line's bundle holds it, compiled from V8's code cache: see src/util/code-cache.ts.)
import * as yaml from 'yaml';

type YamlModule = typeof yaml;

/** The `yaml` package itself (for callers that build documents). */
export const yamlModule = (): YamlModule => yaml;

export const parseYaml: YamlModule['parse'] = yaml.parse;
export const stringifyYaml: YamlModule['stringify'] = yaml.stringify;
export const isYamlParseError = (e: unknown): e is InstanceType<YamlModule['YAMLParseError']> => e instanceof yaml.YAMLParseError;

/** Tags of the `yaml` package's YAML 1.1 schema that goyaml.v2 does not resolve plain scalars to. */
const NOT_GOYAML_V2 = new Set(['TIME']);
const TIMESTAMP = 'tag:yaml.org,2002:timestamp';
const BINARY = 'tag:yaml.org,2002:binary';

type Tags = Parameters<Extract<NonNullable<import('yaml').SchemaOptions['customTags']>, (...a: never[]) => unknown>>[0];

/** goyaml.v2's yamlStyleFloat, for a value Number reads as ±Infinity; a RegExp in shape (the yaml package calls test). */
const GO_YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const OUT_OF_RANGE_FLOAT = { test: (s: string): boolean => GO_YAML_FLOAT.test(s) && !Number.isFinite(Number(s)) } as unknown as RegExp;

/**
 * goyaml.v2's resolve table, on the `yaml` package's YAML 1.1 schema: y/Y/yes/Yes/YES/on/On/ON/true/True/TRUE
 * and their negatives are booleans, 0b/0x/0o/0-prefixed integers; unlike that schema, sexagesimal numbers and
 * timestamps stay strings (goyaml.v2 hands timestamps to interface{} values as strings), and !!binary is the
 * string of its bytes. Keys resolve like values (`n:` is the key "false", as sigs.k8s.io/yaml writes a bool key).
 */
function goyamlV2Tags(tags: Tags): Tags {
  const kept = tags.filter((t) => {
    const tag = typeof t === 'string' ? t : t.tag;
    const format = typeof t === 'string' ? undefined : (t as { format?: string }).format;
    return tag !== TIMESTAMP && tag !== BINARY && !(format !== undefined && NOT_GOYAML_V2.has(format));
  });
  return [
    // goyaml.v2 resolves a float-looking plain scalar beyond float64's range (ParseFloat's ErrRange, where
    // JavaScript reads Infinity) to the string it is written as: tried before the number tags.
    { tag: 'tag:yaml.org,2002:str', default: true, test: OUT_OF_RANGE_FLOAT, resolve: (s: string) => s },
    ...kept,
    // A !!binary scalar is its decoded bytes as a string.
    { tag: BINARY, resolve: (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'base64').toString('utf8') },
    // strconv.ParseInt(s, 0, 64) also reads Go's 0o prefix.
    {
      tag: 'tag:yaml.org,2002:int',
      default: true,
      test: /^[-+]?0o[0-7_]+$/,
      resolve: (s: string) => {
        const sign = s.startsWith('-') ? -1 : 1;
        return sign * parseInt(s.replace(/^[-+]?0o/, '').replace(/_/g, ''), 8);
      },
    },
  ];
}

/**
 * A request body as kube reads YAML (sigs.k8s.io/yaml over goyaml.v2, YAML 1.1 scalars), duplicate keys
 * resolved to the last one (the strict pass reports them separately).
 */
export function parseKubeYaml(text: string): unknown {
  return int64s(yaml.parse(text, { ...KUBE_YAML_OPTIONS, intAsBigInt: true }));
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Integers as JSON decoding holds them (see json-int64.ts): goyaml's int64s reach kube's JSON decoder as
 * exact digits, larger ones become float64s. Safe integers are numbers, the rest of int64 bigints.
 */
function int64s(v: unknown): unknown {
  if (typeof v === 'bigint') {
    const n = Number(v);
    return Number.isSafeInteger(n) || v < INT64_MIN || v > INT64_MAX ? n : v;
  }
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = int64s(v[i]);
  } else {
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) o[k] = int64s(o[k]);
  }
  return v;
}

/** The options of parseKubeYaml, for callers that need the document itself (duplicate keys, positions). */
export const KUBE_YAML_OPTIONS = { schema: 'yaml-1.1', customTags: goyamlV2Tags, merge: true, uniqueKeys: false, intAsBigInt: false } as const;
