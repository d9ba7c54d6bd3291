// Short names for field paths in tests, as structured-merge-diff's tests write them (MakePathOrDie,
// KeyByFields, NewValueInterface).
import { FieldSet, type Path } from '../../src/smd/set.js';
import { fieldElement, indexElement, keyElement, valueElement, type PathElement } from '../../src/smd/path-element.js';

/** Strings are fields, numbers indices, {k: {...}} keys, {v: x} values. */
export type Part = string | number | { k: Record<string, unknown> } | { v: unknown };

export const P = (...parts: Part[]): Path =>
  parts.map((p): PathElement => {
    if (typeof p === 'string') return fieldElement(p);
    if (typeof p === 'number') return indexElement(p);
    if ('k' in p) return keyElement(Object.entries(p.k).map(([name, value]) => ({ name, value })));
    return valueElement(p.v);
  });

export const S = (...paths: Path[]): FieldSet => FieldSet.of(...paths);
