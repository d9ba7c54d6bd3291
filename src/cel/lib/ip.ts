// Kubernetes' IP library (k8s.io/apiserver pkg/cel/library/ip.go, "kubernetes.net.ip"):
// ip(), isIP(), ip.isCanonical() and the accessors of `net.IP`, over Go's netip.ParseAddr.
// Kubernetes rejects IPv6 zones and IPv4-mapped IPv6 addresses.

import type { Library } from '../decls.js';
import { BOOL, INT, STRING, opaque, typeOf, type CelType } from '../types.js';
import { CelError, OpaqueValue, TypeValue, type Val } from '../values.js';
import {
  addrEqual, addrString, bitLen, is4In6, isGlobalUnicast, isLinkLocalMulticast, isLinkLocalUnicast, isLoopback, isUnspecified,
  parseAddr, type Addr,
} from './netip.js';
import { STRING_TRAVERSAL_COST_FACTOR, badArg, global, goQuote, maybeNoSuchOverload, member, traversal, type SizedOpaque } from './support.js';

export const IP_TYPE = opaque('net.IP');

export class IpValue extends OpaqueValue implements SizedOpaque {
  readonly type = IP_TYPE;

  constructor(readonly addr: Addr) {
    super();
  }

  /** traits.Sizer: the address length in bytes. */
  get celSize(): number {
    return Math.ceil(bitLen(this.addr) / 8);
  }

  equals(other: OpaqueValue): boolean {
    return other instanceof IpValue && addrEqual(this.addr, other.addr);
  }

  override toString(): string {
    return addrString(this.addr);
  }
}

/** parseIPAddr: netip.ParseAddr without zones or IPv4-mapped IPv6; the error is final text. */
function parseIp(raw: string): Addr | string {
  const addr = parseAddr(raw);
  if (typeof addr === 'string') return `IP Address ${goQuote(raw)} parse error during conversion from string: ${addr}`;
  if (addr.zone !== '') return `IP address ${goQuote(raw)} with zone value is not allowed`;
  if (is4In6(addr)) return `IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`;
  return addr;
}

export function toIp(s: string): IpValue | CelError {
  const a = parseIp(s);
  return typeof a === 'string' ? new CelError(a) : new IpValue(a);
}

/** Canonical when the string is what Addr.String() prints. */
function ipIsCanonical(s: string): boolean | CelError {
  const a = parseIp(s);
  return typeof a === 'string' ? new CelError(a) : addrString(a) === s;
}

function accessor(id: string, result: CelType, f: (a: Addr) => Val) {
  return member(id, [IP_TYPE], result, (args) => (args[0] instanceof IpValue ? f(args[0].addr) : maybeNoSuchOverload(args[0]!)));
}

const parseCost = (args: readonly Val[]): number => traversal(args[0]!);

export const IP_LIBRARY: Library = {
  name: 'kubernetes.net.ip',
  functions: [
    { name: 'ip', overloads: [global('string_to_ip', [STRING], IP_TYPE, (a) => badArg(a, 'string') ?? toIp(a[0] as string), parseCost)] },
    { name: 'family', overloads: [accessor('ip_family', INT, (a) => (a.is4 ? 4n : 6n))] },
    {
      name: 'ip.isCanonical',
      overloads: [
        // Parsing and then comparing with the original: twice the traversal.
        global('ip_is_canonical', [STRING], BOOL, (a) => badArg(a, 'string') ?? ipIsCanonical(a[0] as string), (a) => traversal(a[0]!, 2 * STRING_TRAVERSAL_COST_FACTOR)),
      ],
    },
    { name: 'isUnspecified', overloads: [accessor('ip_is_unspecified', BOOL, isUnspecified)] },
    { name: 'isLoopback', overloads: [accessor('ip_is_loopback', BOOL, isLoopback)] },
    { name: 'isLinkLocalMulticast', overloads: [accessor('ip_is_link_local_multicast', BOOL, isLinkLocalMulticast)] },
    { name: 'isLinkLocalUnicast', overloads: [accessor('ip_is_link_local_unicast', BOOL, isLinkLocalUnicast)] },
    { name: 'isGlobalUnicast', overloads: [accessor('ip_is_global_unicast', BOOL, isGlobalUnicast)] },
    { name: 'isIP', overloads: [global('is_ip', [STRING], BOOL, (a) => badArg(a, 'string') ?? typeof parseIp(a[0] as string) !== 'string', parseCost)] },
    {
      name: 'string',
      overloads: [global('ip_to_string', [IP_TYPE], STRING, (a) => (a[0] instanceof IpValue ? addrString(a[0].addr) : maybeNoSuchOverload(a[0]!)))],
    },
  ],
  // cel.Types(IPType): `net.IP` names the type.
  idents: [{ name: 'net.IP', type: typeOf(IP_TYPE), value: new TypeValue(IP_TYPE) }],
};
