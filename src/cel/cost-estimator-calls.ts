// The estimators Kubernetes plugs into cel-go's cost estimation for CRD rules:
// - apiextensions' sizeEstimator (pkg/apiserver/schema/cel/compilation.go), sizes
//   from the declared schema types along a field path;
// - k8s.io/apiserver pkg/cel/library CostEstimator.EstimateCallCost, which prices
//   Kubernetes library functions and some extension functions by function name;
// - cel-go ext.Sets' OverloadCostEstimate options.
// Changing any number here changes which CRDs the server accepts.

import type { CallEstimate, Range } from './decls.js';
import type { CelType } from './types.js';
import type { CallEstimator, CostNode, SizeEstimator } from './cost-estimator-types.js';
import {
  LIST_CREATE_BASE_COST,
  MAX_COST,
  REGEX_STRING_LENGTH_COST_FACTOR,
  STRING_TRAVERSAL_COST_FACTOR,
  STRUCT_CREATE_BASE_COST,
  addRange,
  fixed,
  floatToUint64,
  mulRange,
  mulRangeFactor,
  unionRange,
  wrapUint64,
} from './cost-estimator-math.js';

/** The size bound a declared type carries (ListType, MapType, ObjectType, sized string/bytes...). */
const maxElementsOf = (t: CelType): number => (t as { maxElements?: number }).maxElements ?? 0;

/**
 * apiextensions' sizeEstimator: walks a node's path from the declared type of the rule's scope
 * (`self`; the path's first element, the variable, is not looked at) and returns
 * `{0, maxElements}` of the type reached, 0 for types without a bound (numbers, objects...).
 * Paths through unknown fields, map keys by field name, or list indices give no estimate.
 */
export function declaredTypeSizeEstimator(root: CelType | undefined): SizeEstimator {
  return (node) => {
    const path = node.path;
    if (!root || !path || path.length === 0) return undefined;
    let t: CelType | undefined = root;
    for (let i = 1; i < path.length && t; i++) {
      const step = path[i]!;
      if (step === '@items' || step === '@values') t = t.kind === 'list' ? t.elem : t.kind === 'map' ? t.value : undefined;
      else if (step === '@keys') t = t.kind === 'map' ? t.key : undefined;
      else t = t.kind === 'object' ? t.fields.get(step)?.type : undefined;
    }
    return t ? { min: 0, max: maxElementsOf(t) } : undefined;
  };
}

// --- Kubernetes library estimates (pkg/cel/library/cost.go EstimateCallCost) -------

const traverse = (r: Range): Range => mulRangeFactor(r, STRING_TRAVERSAL_COST_FACTOR);
const ONE: CallEstimate = { cost: fixed(1) };

/** Type parameters as cel-go's Type.Parameters(). */
function typeParams(t: CelType): CelType[] {
  switch (t.kind) {
    case 'list':
      return [t.elem];
    case 'map':
      return [t.key, t.value];
    case 'opaque':
      return t.params;
    case 'type':
      return t.param ? [t.param] : [];
    default:
      return [];
  }
}

/** A list's element, with the list's path extended by `@items` so declared lengths apply. */
function listElementNode(list: CostNode): CostNode | undefined {
  const elem = typeParams(list.type)[0];
  if (!elem) return undefined;
  const path = list.path ? [...list.path, '@items'] : undefined;
  return { path, type: elem, expr: undefined, computedSize: undefined };
}

const isStringOrBytes = (t: CelType): boolean => t.kind === 'primitive' && (t.name === 'string' || t.name === 'bytes');

// A label or field selector: a list of requirements, each a struct and a values slice; the
// shortest repeatable requirement takes 2 characters.
function selectorCostEstimate(selectorLength: Range): Range {
  const parseCost = traverse(selectorLength);
  const requirementCount = mulRangeFactor(selectorLength, 0.5);
  const requirementCost = mulRangeFactor(requirementCount, LIST_CREATE_BASE_COST + STRUCT_CREATE_BASE_COST);
  return addRange(addRange(fixed(LIST_CREATE_BASE_COST), parseCost), requirementCost);
}

/** cel.MaxFormatSize and cel.MaxNameFormatRegexSize. */
const MAX_FORMAT_SIZE = 64;
const MAX_NAME_FORMAT_REGEX_SIZE = 128;

const O1_TYPES = new Set([
  'kubernetes.Quantity',
  'kubernetes.Semver',
  'kubernetes.authorization.Authorizer',
  'kubernetes.authorization.PathCheck',
  'kubernetes.authorization.GroupCheck',
  'kubernetes.authorization.ResourceCheck',
  'kubernetes.authorization.Decision',
  'net.IP',
  'net.CIDR',
]);

const typeName = (t: CelType): string | undefined => (t.kind === 'opaque' || t.kind === 'object' ? t.name : undefined);

/** cel-go Type.Equal: same kind, name and parameters (sizes and list semantics do not count). */
function sameType(a: CelType, b: CelType): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'primitive':
      return a.name === (b as typeof a).name;
    case 'list':
      return sameType(a.elem, (b as typeof a).elem);
    case 'map':
      return sameType(a.key, (b as typeof a).key) && sameType(a.value, (b as typeof a).value);
    case 'type': {
      const bp = (b as typeof a).param;
      return a.param === undefined || bp === undefined ? a.param === bp : sameType(a.param, bp);
    }
    case 'opaque': {
      const o = b as typeof a;
      return a.name === o.name && a.params.length === o.params.length && a.params.every((p, i) => sameType(p, o.params[i]!));
    }
    case 'object':
    case 'typeParam':
      return a.name === (b as typeof a).name;
    default:
      return true;
  }
}

/** Replacing substrings: the range of result sizes (TestSize in cost_test.go pins it down). */
function replaceResultSize(sz: Range, toReplace: Range, replaceWith: Range): Range {
  let countMin: number, countMax: number;
  let retainedMin = 0;
  let retainedMax = 0;
  // Longest result.
  if (toReplace.min === 0) {
    // Replacing "" surrounds every character with the replacement.
    countMax = sz.max < MAX_COST ? sz.max + 1 : sz.max;
    retainedMax = sz.max;
  } else if (replaceWith.max <= toReplace.min) {
    countMax = 0;
    retainedMax = sz.max;
  } else {
    countMax = floatToUint64(Math.ceil(sz.max / toReplace.min));
  }
  // Shortest result.
  if (toReplace.max === 0) {
    countMin = sz.min < MAX_COST ? sz.min + 1 : sz.min;
    retainedMin = sz.min;
  } else if (toReplace.max <= replaceWith.min) {
    countMin = 0;
    retainedMin = sz.min;
  } else {
    countMin = floatToUint64(Math.ceil(sz.min / toReplace.max));
  }
  return addRange(mulRange({ min: countMin, max: countMax }, replaceWith), { min: retainedMin, max: retainedMax });
}

/**
 * Kubernetes' EstimateCallCost. It keys on function names, so it also prices the extended
 * strings library (indexOf, replace, split, join, ...). In cel-go the receiver argument is always
 * a non-nil pointer, so "target != nil" checks always pass; calls that would dereference a
 * missing receiver never type-check in Kubernetes' environments and yield undefined here.
 */
export const kubernetesCallEstimator: CallEstimator = (fn, overloadId, target, args, sizeOf) => {
  switch (fn) {
    case 'check':
      // An authorization check: sized to allow only two per expression.
      return { cost: fixed(350000) };
    case 'serviceAccount':
    case 'path':
    case 'group':
    case 'resource':
    case 'subresource':
    case 'namespace':
    case 'name':
    case 'allowed':
    case 'reason':
    case 'error':
    case 'errored':
      return ONE;
    case 'fieldSelector':
    case 'labelSelector':
      if (args.length === 1) return { cost: selectorCostEstimate(sizeOf(args[0]!)) };
      break;
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf': {
      if (!target) break;
      const el = listElementNode(target);
      if (el) {
        // One per element compared, plus a traversal of string or bytes elements.
        let elCost = fixed(1);
        if (isStringOrBytes(el.type)) elCost = addRange(elCost, traverse(sizeOf(el)));
        return { cost: mulRange(sizeOf(target), elCost) };
      }
      // A string receiver (indexOf, lastIndexOf).
      return { cost: traverse(sizeOf(target)) };
    }
    case 'url':
    case 'jsonpatch.escapeKey':
      if (args.length === 1) {
        const sz = sizeOf(args[0]!);
        return { cost: traverse(sz), resultSize: sz };
      }
      break;
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
      if (target) {
        const sz = sizeOf(target);
        return { cost: traverse(sz), resultSize: sz };
      }
      break;
    case 'replace':
      if (target && args.length >= 2) {
        const sz = sizeOf(target);
        const size = replaceResultSize(sz, sizeOf(args[0]!), sizeOf(args[1]!));
        // The traversal plus building the result.
        return { cost: mulRangeFactor(sz, 2 * STRING_TRAVERSAL_COST_FACTOR), resultSize: size };
      }
      break;
    case 'split':
      if (target) {
        const sz = sizeOf(target);
        // Worst case: separator "" returns every character as an element, unless a literal limit says otherwise.
        let max = sz.max;
        const limit = args[1]?.expr;
        if (limit?.kind === 'literal' && limit.value.kind === 'int') max = wrapUint64(limit.value.value);
        return { cost: mulRangeFactor(sz, 2 * STRING_TRAVERSAL_COST_FACTOR), resultSize: { min: 0, max } };
      }
      break;
    case 'join':
      if (target) {
        let sz: Range = { min: 0, max: 0 };
        const listSize = sizeOf(target);
        const el = listElementNode(target);
        if (el) sz = mulRange(listSize, sizeOf(el));
        if (args.length > 0) {
          const sepSize = sizeOf(args[0]!);
          const separators = { min: listSize.min > 0 ? listSize.min - 1 : 0, max: listSize.max > 0 ? listSize.max - 1 : 0 };
          sz = addRange(sz, mulRange(sepSize, separators));
        }
        return { cost: traverse(sz), resultSize: sz };
      }
      break;
    case 'find':
    case 'findAll':
      if (target && args.length >= 1) {
        const sz = sizeOf(target);
        // One more than the string length so that an empty string still costs the regex;
        // each regex term assumed about 4 characters long.
        const strCost = traverse(addRange(sz, fixed(1)));
        const regexCost = mulRangeFactor(sizeOf(args[0]!), REGEX_STRING_LENGTH_COST_FACTOR);
        // Worst case: every character is a separate match.
        return { cost: mulRange(strCost, regexCost), resultSize: { min: 0, max: sz.max } };
      }
      break;
    case 'cidr':
    case 'isIP':
    case 'isCIDR':
    case 'quantity':
    case 'isQuantity':
    case 'semver':
    case 'isSemver':
      // Parsing is a string traversal.
      if (args.length >= 1) return { cost: traverse(sizeOf(args[0]!)) };
      break;
    case 'ip':
      if (args.length >= 1) {
        if (overloadId === 'cidr_ip') return ONE;
        return { cost: traverse(sizeOf(args[0]!)) };
      }
      // cidr.ip(): a field access.
      return ONE;
    case 'ip.isCanonical':
      // Parse, then compare with the original: twice the traversal.
      if (args.length >= 1) return { cost: mulRangeFactor(sizeOf(args[0]!), 2 * STRING_TRAVERSAL_COST_FACTOR) };
      break;
    case 'masked':
    case 'prefixLength':
    case 'family':
    case 'isUnspecified':
    case 'isLoopback':
    case 'isLinkLocalMulticast':
    case 'isLinkLocalUnicast':
    case 'isGlobalUnicast':
      return ONE;
    case 'containsIP':
      if (target && args.length >= 1) {
        // Comparing two 4- or 16-byte addresses.
        const sz = { min: 4, max: 16 };
        let cost = traverse(addRange(sz, sz));
        if (overloadId === 'cidr_contains_ip_string') cost = addRange(cost, traverse(sizeOf(args[0]!)));
        return { cost };
      }
      break;
    case 'containsCIDR':
      if (target && args.length >= 1) {
        const sz = { min: 4, max: 16 };
        let cost = traverse(addRange(sz, sz));
        // Masking the base CIDR and comparing the prefix bits.
        cost = addRange(cost, traverse(sz));
        cost = addRange(cost, fixed(1));
        if (overloadId === 'cidr_contains_cidr_string') cost = addRange(cost, traverse(sizeOf(args[0]!)));
        return { cost };
      }
      break;
    case 'validate':
      if (args.length >= 1) {
        return { cost: mulRangeFactor(traverse(sizeOf(args[0]!)), MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR) };
      }
      break;
    case 'format.named':
    case 'sign':
    case 'asInteger':
    case 'isInteger':
    case 'asApproximateFloat':
    case 'isGreaterThan':
    case 'isLessThan':
    case 'compareTo':
    case 'add':
    case 'sub':
    case 'major':
    case 'minor':
    case 'patch':
    case 'getScheme':
    case 'getHostname':
    case 'getHost':
    case 'getPort':
    case 'getEscapedPath':
    case 'getQuery':
      return ONE;
    case '_==_':
      if (args.length === 2) {
        const [lhs, rhs] = args as [CostNode, CostNode];
        if (!sameType(lhs.type, rhs.type)) break;
        const name = typeName(lhs.type);
        if (name === undefined) break;
        if (O1_TYPES.has(name)) return ONE;
        if (name === 'kubernetes.NamedFormat') return { cost: traverse({ min: 1, max: MAX_FORMAT_SIZE }) };
        if (name === 'kubernetes.URL') {
          // Kubernetes reads the right-hand size twice (sic).
          const size = rhs.computedSize ? unionRange(rhs.computedSize, rhs.computedSize) : fixed(1);
          return { cost: traverse({ min: 1, max: size.max }) };
        }
      }
      break;
  }
  return undefined;
};

// --- cel-go ext.Sets (OverloadCostEstimate) ------------------------------------

function setsEstimate(factor: number): CallEstimator {
  return (_fn, _id, _target, args, sizeOf) => {
    if (args.length !== 2) return undefined;
    const product = mulRange(sizeOf(args[0]!), sizeOf(args[1]!));
    return { cost: addRange(mulRangeFactor(product, factor), fixed(1)) };
  };
}

export const setsOverloadEstimators: ReadonlyMap<string, CallEstimator> = new Map([
  ['list_sets_contains_list', setsEstimate(1)],
  ['list_sets_intersects_list', setsEstimate(1)],
  // Equivalence may check containment both ways.
  ['list_sets_equivalent_list', setsEstimate(2)],
]);
