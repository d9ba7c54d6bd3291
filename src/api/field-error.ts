// Field errors as k8s.io/apimachinery/pkg/util/validation/field renders them:
// `<field>: <Type>: <value>: <detail>`, and as Status causes.

type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

/** Sentinel: render the error without a value, as field.OmitValueType does. */
export const OMIT_VALUE: unique symbol = Symbol('omitValue');

export interface FieldError {
  type: FieldErrorType;
  field: string;
  badValue?: unknown;
  detail: string;
  /** The field is the root path, field.NewPath(""): the message still has its `: ` (`: Too long: ...`). */
  root?: true;
}

const typeText: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

export const required = (field: string, detail = ''): FieldError => ({ type: 'FieldValueRequired', field, detail });
export const invalid = (field: string, badValue: unknown, detail = ''): FieldError => ({ type: 'FieldValueInvalid', field, badValue, detail });
export const forbidden = (field: string, detail = ''): FieldError => ({ type: 'FieldValueForbidden', field, detail });
export const duplicate = (field: string, badValue: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, badValue, detail: '' });
export const notFound = (field: string, badValue: unknown): FieldError => ({ type: 'FieldValueNotFound', field, badValue, detail: '' });
export const internalError = (field: string, err: string): FieldError => ({ type: 'InternalError', field, detail: err });
export const typeInvalid = (field: string, badValue: unknown, detail = ''): FieldError => ({ type: 'FieldValueTypeInvalid', field, badValue, detail });
export const tooMany = (field: string, actual: number, max: number): FieldError => ({
  type: 'FieldValueTooMany',
  field,
  badValue: actual,
  detail: max >= 0 ? `must have at most ${max} items` : 'has too many items',
});
export const tooLong = (field: string, _value: unknown, max: number): FieldError => ({
  type: 'FieldValueTooLong',
  field,
  badValue: OMIT_VALUE,
  detail: max >= 0 ? `may not be more than ${max} bytes` : 'value is too long',
});
export function notSupported(field: string, badValue: unknown, valid: readonly string[]): FieldError {
  const detail = valid.length > 0 ? 'supported values: ' + valid.map(goQuote).join(', ') : '';
  return { type: 'FieldValueNotSupported', field, badValue, detail };
}

/** Go's %q for strings (close enough: JSON escapes for control characters). */
export function goQuote(s: string): string {
  return JSON.stringify(s).replace(/\\u00([0-7][0-9a-f])/g, (_m, h: string) => `\\x${h}`);
}

/** Go's %v for values: numbers and booleans bare, strings quoted, others in a Go-like form. */
/** Values that carry their own Go rendering (timestamps, typed slices, structs) under this symbol. */
export const GO_VALUE = Symbol.for('crd-apiserver.goValue');

export function goValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'object' && GO_VALUE in v) return String((v as Record<symbol, unknown>)[GO_VALUE]);
  switch (typeof v) {
    case 'string':
      return goQuote(v);
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(v);
    default:
      if (Array.isArray(v)) return `[]interface {}{${v.map(goValue).join(', ')}}`;
      return `map[string]interface {}{${Object.entries(v as object)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, x]) => `${goQuote(k)}:${goValue(x)}`)
        .join(', ')}}`;
  }
}

/** The part after the field path: `Invalid value: "x": detail`. */
export function errorBody(e: FieldError): string {
  let s = typeText[e.type];
  const omit =
    e.type === 'FieldValueRequired' ||
    e.type === 'FieldValueForbidden' ||
    e.type === 'FieldValueTooLong' ||
    e.type === 'InternalError' ||
    e.badValue === OMIT_VALUE;
  // A nil value is printed as the string "null", quotes included (field.Error.ErrorBody).
  if (!omit) s += ': ' + (e.badValue === null || e.badValue === undefined ? '"null"' : goValue(e.badValue));
  if (e.detail) s += ': ' + e.detail;
  return s;
}

export function fieldErrorString(e: FieldError): string {
  return e.field || e.root ? `${e.field}: ${errorBody(e)}` : errorBody(e);
}

/** utilerrors aggregate of a field error list, duplicates dropped. */
export function aggregate(errs: readonly FieldError[]): string {
  const msgs = [...new Set(errs.map(fieldErrorString))];
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
}
