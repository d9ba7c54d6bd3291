// Validation of embedded resources (x-kubernetes-embedded-resource), as apiextensions'
// objectmeta.Validate does it for custom resources (not at the root, whose metadata the
// strategy validates): apiVersion and kind required and well-formed, metadata decodable as
// ObjectMeta and valid with path-segment names (an empty name reads as "fakename").
import { type FieldError, invalid, required } from '../api/field-error.js';
import { type StructuralNode, anyNode } from './compile-structural.js';
import { isDNS1035Label } from './names.js';
import { validateObjectMeta } from './objectmeta.js';
import { coerceObjectMeta } from './prune-objectmeta.js';

type JSONObject = Record<string, unknown>;
type Walk = (x: unknown, path: string, errs: FieldError[]) => void;

/** schema.ParseGroupVersion's error, if any. */
function parseGroupVersionError(gv: string): string | undefined {
  if (gv === '' || gv === '/') return undefined;
  return gv.split('/').length - 1 > 1 ? `unexpected GroupVersion string: ${gv}` : undefined;
}

const child = (path: string, k: string): string => (path === '' ? k : `${path}.${k}`);

function validateEmbeddedResource(x: JSONObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!Object.hasOwn(x, 'apiVersion')) errs.push(required(child(path, 'apiVersion'), 'must not be empty'));
  if (!Object.hasOwn(x, 'kind')) errs.push(required(child(path, 'kind'), 'must not be empty'));
  if (Object.hasOwn(x, 'apiVersion')) {
    const v = x.apiVersion;
    const p = child(path, 'apiVersion');
    if (typeof v !== 'string') errs.push(invalid(p, v, 'must be a string'));
    else if (v === '') errs.push(invalid(p, v, 'must not be empty'));
    else {
      const e = parseGroupVersionError(v);
      if (e !== undefined) errs.push(invalid(p, v, e));
    }
  }
  if (Object.hasOwn(x, 'kind')) {
    const v = x.kind;
    const p = child(path, 'kind');
    if (typeof v !== 'string') errs.push(invalid(p, v, 'must be a string'));
    else if (v === '') errs.push(invalid(p, v, 'must not be empty'));
    else {
      const msgs = isDNS1035Label(v.toLowerCase());
      if (msgs.length > 0) errs.push(invalid(p, v, 'may have mixed case, but should otherwise match: ' + msgs.join(',')));
    }
  }
  if (Object.hasOwn(x, 'metadata')) {
    const p = child(path, 'metadata');
    const r = coerceObjectMeta(x.metadata, { dropMalformedFields: false, returnUnknownFieldPaths: false, pathPrefix: p });
    if (r.error !== undefined) errs.push(invalid(p, x.metadata, r.error));
    else {
      const meta = { ...r.meta };
      if (!meta.name) meta.name = 'fakename';
      const namespaced = typeof meta.namespace === 'string' && meta.namespace !== '';
      errs.push(...validateObjectMeta(meta, { namespaced, nameValidator: 'pathSegment' }, p));
    }
  }
  return errs;
}

/** Compiles the embedded-resource walk; null when the schema has no embedded resources. */
export function compileEmbeddedValidation(s: StructuralNode): ((obj: unknown) => FieldError[]) | null {
  if (!anyNode(s, (n) => n.embeddedResource)) return null;
  const walk = compileWalk(s);
  return (obj) => {
    const errs: FieldError[] = [];
    walk(obj, '', errs);
    return errs;
  };
}

function compileWalk(s: StructuralNode): Walk {
  const props = new Map<string, Walk>();
  if (s.properties) {
    for (const [k, p] of s.properties) if (anyNode(p, (n) => n.embeddedResource)) props.set(k, compileWalk(p));
  }
  const ap = s.additionalProperties && anyNode(s.additionalProperties, (n) => n.embeddedResource) ? compileWalk(s.additionalProperties) : null;
  const apAny = s.additionalProperties != null; // additionalProperties present: other keys are map entries
  const items = s.items && anyNode(s.items, (n) => n.embeddedResource) ? compileWalk(s.items) : null;
  return (x, path, errs) => {
    if (x === null || typeof x !== 'object') return;
    if (Array.isArray(x)) {
      if (items !== null) for (let i = 0; i < x.length; i++) items(x[i], `${path}[${i}]`, errs);
      return;
    }
    const o = x as JSONObject;
    if (s.embeddedResource) errs.push(...validateEmbeddedResource(o, path));
    for (const k in o) {
      const w = props.get(k);
      if (w !== undefined) w(o[k], child(path, k), errs);
      else if (ap !== null && apAny && !s.properties?.has(k)) ap(o[k], `${path}[${k}]`, errs);
    }
  };
}
