// Kubernetes' format library (k8s.io/apiserver pkg/cel/library/format.go, "kubernetes.format"):
// named string formats as `kubernetes.NamedFormat` values (`format.dns1123Label()`,
// `format.named("uuid")`), and `<format>.validate(<string>)`, which is optional.none() for a
// valid string and otherwise the list of apimachinery's validation messages.

import type { FunctionDecl, Library } from '../decls.js';
import { STRING, listOf, opaque, optionalOf } from '../types.js';
import { OpaqueValue, Optional, type Val } from '../values.js';
import { formatChecker } from '../../schema/formats.js';
import {
  isQualifiedName, isValidLabelValue, nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain,
} from '../../schema/names.js';
import { parseRequestURI } from './go-url.js';
import { REGEX_STRING_LENGTH_COST_FACTOR, STRING_TRAVERSAL_COST_FACTOR, actualSize, badArg, global, maybeNoSuchOverload, member } from './support.js';

export const NAMED_FORMAT_TYPE = opaque('kubernetes.NamedFormat');

export class NamedFormat extends OpaqueValue {
  readonly type = NAMED_FORMAT_TYPE;

  constructor(
    /** The Go Format's Name (what equality compares). */
    readonly name: string,
    readonly validate: (s: string) => string[],
    /** Size of the regex (or an equivalent estimate) the format checks with, for runtime cost. */
    readonly maxRegexSize: number,
  ) {
    super();
  }

  equals(other: OpaqueValue): boolean {
    return other instanceof NamedFormat && other.name === this.name;
  }
}

/** A kube-openapi strfmt check with a fixed message. */
function strfmt(format: string, message: string): (s: string) => string[] {
  const check = formatChecker(format);
  if (!check) throw new Error(`unknown string format ${format}`);
  return (s) => (check(s) ? [] : [message]);
}

// Regex size estimates (github.com/asaskevich/govalidator base64 and URL patterns; strfmt's
// UUIDPattern and DateTimePattern lengths).
const BASE64_LENGTH = 84;
const URL_LENGTH = 1103;
const UUID_PATTERN_LENGTH = 70;
const DATE_TIME_PATTERN_LENGTH = 71;

/** library.ConstantFormats, by CEL name. */
export const CONSTANT_FORMATS: ReadonlyMap<string, NamedFormat> = new Map([
  ['dns1123Label', new NamedFormat('DNS1123Label', (s) => nameIsDNSLabel(s, false), 30)],
  ['dns1123Subdomain', new NamedFormat('DNS1123Subdomain', (s) => nameIsDNSSubdomain(s, false), 60)],
  ['dns1035Label', new NamedFormat('DNS1035Label', (s) => nameIsDNS1035Label(s, false), 30)],
  ['qualifiedName', new NamedFormat('QualifiedName', isQualifiedName, 60)],
  ['dns1123LabelPrefix', new NamedFormat('DNS1123LabelPrefix', (s) => nameIsDNSLabel(s, true), 30)],
  ['dns1123SubdomainPrefix', new NamedFormat('DNS1123SubdomainPrefix', (s) => nameIsDNSSubdomain(s, true), 60)],
  ['dns1035LabelPrefix', new NamedFormat('DNS1035LabelPrefix', (s) => nameIsDNS1035Label(s, true), 30)],
  ['labelValue', new NamedFormat('LabelValue', isValidLabelValue, 40)],
  [
    'uri',
    new NamedFormat('URI', (s) => {
      const u = parseRequestURI(s);
      return 'error' in u ? [u.error] : [];
    }, URL_LENGTH),
  ],
  ['uuid', new NamedFormat('uuid', strfmt('uuid', 'does not match the UUID format'), UUID_PATTERN_LENGTH)],
  ['byte', new NamedFormat('byte', strfmt('byte', 'invalid base64'), BASE64_LENGTH)],
  ['date', new NamedFormat('date', strfmt('date', 'invalid date'), DATE_TIME_PATTERN_LENGTH)],
  ['datetime', new NamedFormat('datetime', strfmt('datetime', 'invalid datetime'), DATE_TIME_PATTERN_LENGTH)],
]);

function validate(args: readonly Val[]): Val {
  const [f, s] = args as [Val, Val];
  if (!(f instanceof NamedFormat)) return maybeNoSuchOverload(f);
  if (typeof s !== 'string') return maybeNoSuchOverload(s);
  const errs = f.validate(s);
  return errs.length === 0 ? Optional.NONE : new Optional(errs);
}

/** A regex match of the string against the format's (estimated) regex. */
function validateCost(args: readonly Val[]): number {
  const f = args[0];
  if (!(f instanceof NamedFormat)) return 1;
  const strCost = Math.ceil((1 + actualSize(args[1]!)) * STRING_TRAVERSAL_COST_FACTOR);
  return strCost * Math.ceil(f.maxRegexSize * REGEX_STRING_LENGTH_COST_FACTOR);
}

const functions: FunctionDecl[] = [
  { name: 'validate', overloads: [member('format-validate', [NAMED_FORMAT_TYPE, STRING], optionalOf(listOf(STRING)), validate, validateCost)] },
  {
    name: 'format.named',
    overloads: [
      global('format-named', [STRING], optionalOf(NAMED_FORMAT_TYPE), (a) => {
        const bad = badArg(a, 'string');
        if (bad) return bad;
        const f = CONSTANT_FORMATS.get(a[0] as string);
        return f ? new Optional(f) : Optional.NONE;
      }),
    ],
  },
];
for (const [name, f] of CONSTANT_FORMATS) {
  functions.push({ name: `format.${name}`, overloads: [global(`format.${name}`, [], NAMED_FORMAT_TYPE, () => f)] });
}

export const FORMAT_LIBRARY: Library = { name: 'kubernetes.format', functions };
