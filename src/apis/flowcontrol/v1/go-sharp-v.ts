// Go's %#v of an internal flowcontrol value, which field errors print for struct-valued bad values (a
// mandatory object's spec, a distinguisher method). Nested pointers print as addresses, as Go does; ours
// are made up, Go's differ on every run anyway.
import type { GoField, GoStruct } from '../../../api/go-struct.js';
import { goQuote } from '../../../api/field-error.js';

type Json = Record<string, unknown>;
const PKG = 'flowcontrol';
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The Go name of a field: its declared one, or the JSON name capitalised. */
const goName = (f: GoField): string => f.go ?? f.json.charAt(0).toUpperCase() + f.json.slice(1);

let nextAddress = 0xc000a3c000;
const address = (): string => `0x${(nextAddress += 0x30).toString(16)}`;

function elemTypeName(f: GoField): string {
  if (typeof f.type === 'object') return `${PKG}.${f.type.name}`;
  return f.type === 'bool' ? 'bool' : f.type === 'int32' ? 'int32' : f.type === 'int64' ? 'int64' : 'string';
}

function scalar(f: GoField, v: unknown): string {
  if (f.type === 'bool') return v === true ? 'true' : 'false';
  if (f.type === 'int32' || f.type === 'int64') return typeof v === 'number' ? String(v) : '0';
  return goQuote(typeof v === 'string' ? v : '');
}

function elem(f: GoField, v: unknown): string {
  return typeof f.type === 'object' ? goSharpV(f.type, isObject(v) ? v : {}) : scalar(f, v);
}

function fieldValue(f: GoField, v: unknown): string {
  const t = elemTypeName(f);
  if (f.slice) {
    if (!Array.isArray(v)) return `[]${t}(nil)`;
    return `[]${t}{${v.map((x) => elem(f, x)).join(', ')}}`;
  }
  if (f.pointer) return v === undefined || v === null ? `(*${t})(nil)` : `(*${t})(${address()})`;
  return elem(f, v);
}

/** %#v of `value` as the internal type of struct `s`. */
export function goSharpV(s: GoStruct, value: Json): string {
  return `${PKG}.${s.name}{${s.fields.map((f) => `${goName(f)}:${fieldValue(f, value[f.json])}`).join(', ')}}`;
}
