// Kubernetes' IP and CIDR libraries (pkg/cel/library/ip.go, cidr.go and their _test.go cases)
// over Go's net/netip parsing, through the declared overloads.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IP_LIBRARY as IP, IpValue } from '../../src/cel/lib/ip.js';
import { CIDR_LIBRARY as CIDR, CidrValue } from '../../src/cel/lib/cidr.js';
import { TypeValue, type Val } from '../../src/cel/values.js';
import { celEquals } from '../../src/cel/value-ops.js';
import { assertError, call, cost } from './lib-support.js';

const ip = (s: string): Val => call(IP, 'string_to_ip', s);
const cidr = (s: string): Val => call(CIDR, 'string_to_cidr', s);

describe('ip (ip_test.go)', () => {
  it('parses IPv4 and IPv6 addresses', () => {
    assert.ok(ip('192.168.0.1') instanceof IpValue);
    assert.ok(ip('2001:db8::68') instanceof IpValue);
    assertError(ip('192.168.0.1.0'), 'IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long');
    assertError(ip('2001:db8:::68'),
      'IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")');
    assert.equal(call(IP, 'is_ip', '192.168.0.1'), true);
    assert.equal(call(IP, 'is_ip', '192.168.0.1.0'), false);
    assert.equal(call(IP, 'is_ip', '2001:db8::68'), true);
    assert.equal(call(IP, 'is_ip', '2001:db8:::68'), false);
  });

  it('reports netip.ParseAddr errors', () => {
    const e = (s: string) => (ip(s) as { message: string }).message.replace(/^.*conversion from string: /, '');
    assert.equal(e(''), 'ParseAddr(""): unable to parse IP');
    assert.equal(e('1.2.3'), 'ParseAddr("1.2.3"): IPv4 address too short');
    assert.equal(e('1.2.3.04'), 'ParseAddr("1.2.3.04"): IPv4 field has octet with leading zero');
    assert.equal(e('1.2.3.256'), 'ParseAddr("1.2.3.256"): IPv4 field has value >255');
    assert.equal(e('1..2.3'), 'ParseAddr("1..2.3"): IPv4 field must have at least one digit (at ".2.3")');
    assert.equal(e('1.2.3.x'), 'ParseAddr("1.2.3.x"): unexpected character (at "x")');
    assert.equal(e('%eth0'), 'ParseAddr("%eth0"): missing IPv6 address');
    assert.equal(e('fe80::1%'), 'ParseAddr("fe80::1%"): zone must be a non-empty string');
    assert.equal(e('1:2:3:4:5:6:7'), 'ParseAddr("1:2:3:4:5:6:7"): address string too short');
    assert.equal(e('1::2::3'), 'ParseAddr("1::2::3"): multiple :: in address (at ":3")');
    assert.equal(e('1:2:3:4:5:6:7:8::'), 'ParseAddr("1:2:3:4:5:6:7:8::"): the :: must expand to at least one field of zeros');
    assert.equal(e('12345::'), 'ParseAddr("12345::"): IPv6 field has value >=2^16 (at "12345::")');
    assert.equal(e('1:2'), 'ParseAddr("1:2"): address string too short');
    assert.equal(e('::1.2.3.04'), 'ParseAddr("::1.2.3.04"): IPv4 field has octet with leading zero');
    assert.equal(e('1:2:3.4.5.6'), 'ParseAddr("1:2:3.4.5.6"): embedded IPv4 address must replace the final 2 fields of the address (at "3.4.5.6")');
  });

  it('rejects zones and IPv4-mapped IPv6', () => {
    assertError(ip('fe80::1%eth0'), 'IP address "fe80::1%eth0" with zone value is not allowed');
    assertError(ip('::ffff:1.2.3.4'), 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed');
    assert.equal(call(IP, 'is_ip', '::ffff:1.2.3.4'), false);
  });

  it('is canonical when printed as netip prints it', () => {
    assert.equal(call(IP, 'ip_is_canonical', '127.0.0.1'), true);
    assertError(call(IP, 'ip_is_canonical', '127.0.0.1.0'),
      'IP Address "127.0.0.1.0" parse error during conversion from string: ParseAddr("127.0.0.1.0"): IPv4 address too long');
    assert.equal(call(IP, 'ip_is_canonical', '2001:db8::68'), true);
    assert.equal(call(IP, 'ip_is_canonical', '2001:DB8::68'), false);
    assert.equal(call(IP, 'ip_is_canonical', '2001:db8:0:0:0:0:0:68'), false);
    assert.equal(call(IP, 'ip_to_string', ip('2001:0db8:0000:0000:0001:0000:0000:0001')), '2001:db8::1:0:0:1');
    assert.equal(call(IP, 'ip_to_string', ip('1:0:1:0:1:0:1:0')), '1:0:1:0:1:0:1:0');
    assert.equal(call(IP, 'ip_to_string', ip('::')), '::');
    assert.equal(call(IP, 'ip_to_string', ip('::1.2.3.4')), '::102:304');
    assert.equal(call(IP, 'ip_to_string', ip('192.168.0.1')), '192.168.0.1');
  });

  it('classifies addresses', () => {
    assert.equal(call(IP, 'ip_family', ip('192.168.0.1')), 4n);
    assert.equal(call(IP, 'ip_family', ip('2001:db8::68')), 6n);
    const is = (id: string, s: string) => call(IP, id, ip(s));
    assert.equal(is('ip_is_unspecified', '0.0.0.0'), true);
    assert.equal(is('ip_is_unspecified', '127.0.0.1'), false);
    assert.equal(is('ip_is_unspecified', '::'), true);
    assert.equal(is('ip_is_unspecified', '::1'), false);
    assert.equal(is('ip_is_loopback', '127.0.0.1'), true);
    assert.equal(is('ip_is_loopback', '1.2.3.4'), false);
    assert.equal(is('ip_is_loopback', '::1'), true);
    assert.equal(is('ip_is_loopback', '2001:db8::abcd'), false);
    assert.equal(is('ip_is_link_local_multicast', '224.0.0.1'), true);
    assert.equal(is('ip_is_link_local_multicast', '224.0.1.1'), false);
    assert.equal(is('ip_is_link_local_multicast', 'ff02::1'), true);
    assert.equal(is('ip_is_link_local_multicast', 'fd00::1'), false);
    assert.equal(is('ip_is_link_local_unicast', '169.254.169.254'), true);
    assert.equal(is('ip_is_link_local_unicast', '192.168.0.1'), false);
    assert.equal(is('ip_is_link_local_unicast', 'fe80::1'), true);
    assert.equal(is('ip_is_link_local_unicast', 'fd80::1'), false);
    assert.equal(is('ip_is_global_unicast', '192.168.0.1'), true);
    assert.equal(is('ip_is_global_unicast', '255.255.255.255'), false);
    assert.equal(is('ip_is_global_unicast', '2001:db8::abcd'), true);
    assert.equal(is('ip_is_global_unicast', 'ff00::1'), false);
  });

  it('equality, type identifier, sizes and costs', () => {
    assert.equal(celEquals(ip('192.168.0.1'), ip('192.168.0.1')), true);
    assert.equal(celEquals(ip('192.168.0.1'), ip('192.168.0.2')), false);
    assert.equal(celEquals(ip('::ffff'), ip('0.0.255.255')), false);
    const ident = IP.idents!.find((i) => i.name === 'net.IP')!;
    assert.ok(ident.value instanceof TypeValue);
    assert.equal((ip('1.2.3.4') as IpValue).celSize, 4);
    assert.equal((ip('::1') as IpValue).celSize, 16);
    assert.equal(cost(IP, 'string_to_ip', '192.168.100.100'), 2);
    assert.equal(cost(IP, 'ip_is_canonical', '192.168.100.100'), 3);
    assert.equal(cost(IP, 'ip_is_loopback', ip('::1')), 1);
  });
});

describe('cidr (cidr_test.go)', () => {
  it('parses prefixes, keeping host bits', () => {
    assert.ok(cidr('192.168.0.0/24') instanceof CidrValue);
    assertError(cidr('192.168.0.0/'),
      'network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""');
    assertError(cidr('2001:db8::/'),
      'network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("2001:db8::/"): bad bits after slash: ""');
    const e = (s: string) => (cidr(s) as { message: string }).message.replace(/^(network address parse error during conversion from string: )+/, '');
    assert.equal(e('192.168.0.0'), `netip.ParsePrefix("192.168.0.0"): no '/'`);
    assert.equal(e('192.168.0.0/33'), 'netip.ParsePrefix("192.168.0.0/33"): prefix length out of range');
    assert.equal(e('192.168.0.0/024'), 'netip.ParsePrefix("192.168.0.0/024"): bad bits after slash: "024"');
    assert.equal(e('192.168.0.0/+8'), 'netip.ParsePrefix("192.168.0.0/+8"): bad bits after slash: "+8"');
    assert.equal(e('fe80::%eth0/64'), 'netip.ParsePrefix("fe80::%eth0/64"): IPv6 zones cannot be present in a prefix');
    assert.equal(e('1.2.3/8'), 'netip.ParsePrefix("1.2.3/8"): ParseAddr("1.2.3"): IPv4 address too short');
    assertError(cidr('::ffff:1.2.3.0/120'), 'network address parse error during conversion from string: IPv4-mapped IPv6 address "::ffff:1.2.3.0/120" is not allowed');
    assert.equal(call(CIDR, 'is_cidr', '192.168.0.0/24'), true);
    assert.equal(call(CIDR, 'is_cidr', '192.168.0.0'), false);
  });

  it('containsIP and containsCIDR', () => {
    const c4 = cidr('192.168.0.0/24');
    assert.equal(call(CIDR, 'cidr_contains_ip_ip', c4, ip('192.168.0.1')), true);
    assert.equal(call(CIDR, 'cidr_contains_ip_ip', c4, ip('192.168.1.1')), false);
    assert.equal(call(CIDR, 'cidr_contains_ip_string', c4, '192.168.0.1'), true);
    assert.equal(call(CIDR, 'cidr_contains_ip_string', c4, '192.168.1.1'), false);
    assert.equal(call(CIDR, 'cidr_contains_cidr', c4, cidr('192.168.0.0/25')), true);
    assert.equal(call(CIDR, 'cidr_contains_cidr', c4, cidr('192.168.0.1/32')), true);
    assert.equal(call(CIDR, 'cidr_contains_cidr', c4, cidr('192.168.0.0/23')), false);
    assert.equal(call(CIDR, 'cidr_contains_cidr', c4, cidr('192.169.0.1/32')), false);
    assert.equal(call(CIDR, 'cidr_contains_cidr_string', c4, '192.168.0.0/25'), true);
    assert.equal(call(CIDR, 'cidr_contains_cidr_string', c4, '192.168.0.0/23'), false);
    const c6 = cidr('2001:db8::/32');
    assert.equal(call(CIDR, 'cidr_contains_ip_ip', c6, ip('2001:db8::1')), true);
    assert.equal(call(CIDR, 'cidr_contains_ip_ip', c6, ip('2001:dc8::1')), false);
    assert.equal(call(CIDR, 'cidr_contains_ip_string', c6, '2001:db8::1'), true);
    assert.equal(call(CIDR, 'cidr_contains_ip_string', c6, '2001:dc8::1'), false);
    assert.equal(call(CIDR, 'cidr_contains_cidr', c6, cidr('2001:db8::/33')), true);
    assert.equal(call(CIDR, 'cidr_contains_cidr', c6, cidr('2001:db8::/31')), false);
    assert.equal(call(CIDR, 'cidr_contains_cidr_string', c6, '2001:db8::/33'), true);
    assert.equal(call(CIDR, 'cidr_contains_cidr_string', c6, '2001:db8::/31'), false);
    // Families never mix; a host-bits prefix still contains its network.
    assert.equal(call(CIDR, 'cidr_contains_ip_ip', cidr('0.0.0.0/0'), ip('::1')), false);
    assert.equal(call(CIDR, 'cidr_contains_ip_ip', cidr('0.0.0.0/0'), ip('8.8.8.8')), true);
    assert.equal(call(CIDR, 'cidr_contains_cidr', cidr('10.1.2.3/8'), cidr('10.200.0.0/16')), true);
    // A string that is not an IP is "no such overload" (k8s reports the receiver); a bad CIDR string's error travels.
    assertError(call(CIDR, 'cidr_contains_ip_string', c4, 'nope'), 'no such overload');
    assertError(call(CIDR, 'cidr_contains_cidr_string', c4, 'nope'), /no '\/'/);
  });

  it('ip, masked, prefixLength, string and type', () => {
    assert.equal(call(IP, 'ip_to_string', call(CIDR, 'cidr_ip', cidr('192.168.0.1/24'))), '192.168.0.1');
    assert.equal(celEquals(call(CIDR, 'cidr_ip', cidr('192.168.0.0/24')), ip('192.168.0.0')), true);
    assert.equal(celEquals(call(CIDR, 'cidr_ip', cidr('2001:db8::/32')), ip('2001:db8::')), true);
    assert.equal(celEquals(call(CIDR, 'cidr_masked', cidr('192.168.0.1/24')), cidr('192.168.0.0/24')), true);
    assert.equal(celEquals(call(CIDR, 'cidr_masked', cidr('2001:db8:1::/32')), cidr('2001:db8::/32')), true);
    assert.equal(celEquals(cidr('192.168.0.1/24'), cidr('192.168.0.0/24')), false);
    assert.equal(call(CIDR, 'cidr_prefix_length', cidr('192.168.0.0/24')), 24n);
    assert.equal(call(CIDR, 'cidr_prefix_length', cidr('2001:db8::/32')), 32n);
    assert.equal(call(CIDR, 'cidr_to_string', cidr('192.168.0.0/24')), '192.168.0.0/24');
    assert.equal(call(CIDR, 'cidr_to_string', cidr('2001:0DB8::/32')), '2001:db8::/32');
    assert.ok(CIDR.idents!.some((i) => i.name === 'net.CIDR'));
  });

  it('costs (library/cost.go)', () => {
    const c4 = cidr('192.168.0.0/24');
    assert.equal((c4 as CidrValue).celSize, 3);
    // ceil(6 × 0.1) + ceil(11 × 0.1) for the string
    assert.equal(cost(CIDR, 'cidr_contains_ip_string', c4, '192.168.0.1'), 3);
    assert.equal(cost(CIDR, 'cidr_contains_ip_ip', c4, ip('192.168.0.1')), 1);
    // ceil(6 × 0.1) + ceil(3 × 0.1) + 1
    assert.equal(cost(CIDR, 'cidr_contains_cidr', c4, cidr('192.168.0.0/25')), 3);
    assert.equal(cost(CIDR, 'cidr_contains_cidr_string', cidr('2001:db8::/128'), '2001:db8::/128'), 4 + 2 + 1 + 2);
    assert.equal(cost(CIDR, 'string_to_cidr', '192.168.0.0/24'), 2);
    assert.equal(cost(CIDR, 'cidr_masked', c4), 1);
  });
});
