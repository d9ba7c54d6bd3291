// Kubernetes' CIDR library (k8s.io/apiserver pkg/cel/library/cidr.go, "kubernetes.net.cidr"):
// cidr(), isCIDR() and the operations of `net.CIDR` over Go's netip.ParsePrefix. The prefix
// keeps its host bits (`ip()` returns them; `masked()` clears them).

import type { Library } from '../decls.js';
import { BOOL, INT, STRING, opaque, typeOf, type CelType } from '../types.js';
import { CelError, OpaqueValue, TypeValue, type Val } from '../values.js';
import { is4In6, masked, parsePrefix, prefixContains, prefixEqual, prefixOverlaps, prefixString, type Prefix } from './netip.js';
import { IP_TYPE, IpValue, toIp } from './ip.js';
import {
  STRING_TRAVERSAL_COST_FACTOR, actualSize, badArg, global, goQuote, maybeNoSuchOverload, member, traversal, type SizedOpaque,
} from './support.js';

export const CIDR_TYPE = opaque('net.CIDR');

export class CidrValue extends OpaqueValue implements SizedOpaque {
  readonly type = CIDR_TYPE;

  constructor(readonly prefix: Prefix) {
    super();
  }

  /** traits.Sizer: the prefix length in bytes, rounded up. */
  get celSize(): number {
    return Math.ceil(this.prefix.bits / 8);
  }

  equals(other: OpaqueValue): boolean {
    return other instanceof CidrValue && prefixEqual(this.prefix, other.prefix);
  }

  override toString(): string {
    return prefixString(this.prefix);
  }
}

const PARSE_ERROR = 'network address parse error during conversion from string: ';

/** parseCIDR: netip.ParsePrefix without IPv4-mapped IPv6 addresses. */
function parseCidr(raw: string): Prefix | string {
  const p = parsePrefix(raw);
  if (typeof p === 'string') return PARSE_ERROR + p;
  if (is4In6(p.addr)) return `IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`;
  return p;
}

/** cidr(): Kubernetes adds its prefix to parseCIDR's error, which already has it. */
function toCidr(s: string): CidrValue | CelError {
  const p = parseCidr(s);
  return typeof p === 'string' ? new CelError(PARSE_ERROR + p) : new CidrValue(p);
}

/** cidrContainsIP: a second argument that is not an IP (a failed parse included) is "no such
 * overload", reported for the receiver. */
function containsIp(cidr: Val, ip: Val): Val {
  if (!(cidr instanceof CidrValue)) return maybeNoSuchOverload(ip);
  if (!(ip instanceof IpValue)) return maybeNoSuchOverload(cidr);
  return prefixContains(cidr.prefix, ip.addr);
}

/** cidrContainsCIDR: the other prefix overlaps and is no wider. A failed parse travels on. */
function containsCidr(cidr: Val, other: Val): Val {
  if (!(cidr instanceof CidrValue)) return maybeNoSuchOverload(cidr);
  if (!(other instanceof CidrValue)) return maybeNoSuchOverload(other);
  return prefixOverlaps(cidr.prefix, other.prefix) && cidr.prefix.bits <= other.prefix.bits;
}

function accessor(id: string, result: CelType, f: (p: Prefix) => Val) {
  return member(id, [CIDR_TYPE], result, (args) => (args[0] instanceof CidrValue ? f(args[0].prefix) : maybeNoSuchOverload(args[0]!)));
}

const parseCost = (args: readonly Val[]): number => traversal(args[0]!);

/** Comparing two byte lists up to the CIDR's prefix length, plus parsing a string argument. */
function containsIpCost(args: readonly Val[]): number {
  const cidrSize = actualSize(args[0]!);
  let cost = Math.ceil((cidrSize + cidrSize) * STRING_TRAVERSAL_COST_FACTOR);
  if (typeof args[1] === 'string') cost += traversal(args[1]);
  return cost;
}

/** As containsIP, plus masking the base CIDR and comparing the prefix bits. */
function containsCidrCost(args: readonly Val[]): number {
  const cidrSize = actualSize(args[0]!);
  let cost = Math.ceil((cidrSize + cidrSize) * STRING_TRAVERSAL_COST_FACTOR);
  cost += Math.ceil(cidrSize * STRING_TRAVERSAL_COST_FACTOR) + 1;
  if (typeof args[1] === 'string') cost += traversal(args[1]);
  return cost;
}

export const CIDR_LIBRARY: Library = {
  name: 'kubernetes.net.cidr',
  functions: [
    { name: 'cidr', overloads: [global('string_to_cidr', [STRING], CIDR_TYPE, (a) => badArg(a, 'string') ?? toCidr(a[0] as string), parseCost)] },
    {
      name: 'containsIP',
      overloads: [
        member('cidr_contains_ip_string', [CIDR_TYPE, STRING], BOOL, (a) => containsIp(a[0]!, typeof a[1] === 'string' ? toIp(a[1]) : a[1]!), containsIpCost),
        member('cidr_contains_ip_ip', [CIDR_TYPE, IP_TYPE], BOOL, (a) => containsIp(a[0]!, a[1]!), containsIpCost),
      ],
    },
    {
      name: 'containsCIDR',
      overloads: [
        member('cidr_contains_cidr_string', [CIDR_TYPE, STRING], BOOL, (a) => containsCidr(a[0]!, typeof a[1] === 'string' ? toCidr(a[1]) : a[1]!), containsCidrCost),
        member('cidr_contains_cidr', [CIDR_TYPE, CIDR_TYPE], BOOL, (a) => containsCidr(a[0]!, a[1]!), containsCidrCost),
      ],
    },
    // A field access: nominal cost.
    { name: 'ip', overloads: [accessor('cidr_ip', IP_TYPE, (p) => new IpValue(p.addr))] },
    { name: 'prefixLength', overloads: [accessor('cidr_prefix_length', INT, (p) => BigInt(p.bits))] },
    { name: 'masked', overloads: [accessor('cidr_masked', CIDR_TYPE, (p) => new CidrValue(masked(p)))] },
    { name: 'isCIDR', overloads: [global('is_cidr', [STRING], BOOL, (a) => badArg(a, 'string') ?? typeof parseCidr(a[0] as string) !== 'string', parseCost)] },
    {
      name: 'string',
      overloads: [global('cidr_to_string', [CIDR_TYPE], STRING, (a) => (a[0] instanceof CidrValue ? prefixString(a[0].prefix) : maybeNoSuchOverload(a[0]!)))],
    },
  ],
  // cel.Types(CIDRType): `net.CIDR` names the type.
  idents: [{ name: 'net.CIDR', type: typeOf(CIDR_TYPE), value: new TypeValue(CIDR_TYPE) }],
};
