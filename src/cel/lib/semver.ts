// Kubernetes' semver library (k8s.io/apiserver pkg/cel/library/semverlib.go,
// "kubernetes.Semver") at SemverVersion(1), which Kubernetes 1.33 enables: semver(),
// isSemver() (both optionally normalizing "v1.2" to "1.2.0"), comparisons and the version
// parts of `kubernetes.Semver`, with github.com/blang/semver/v4's parsing and ordering.

import type { FunctionDecl, Library } from '../decls.js';
import { BOOL, INT, STRING, opaque } from '../types.js';
import { CelError, OpaqueValue, type Val } from '../values.js';
import { badArg, global, goQuote, maybeNoSuchOverload, member, strconvRangeError, strconvSyntaxError, traversal } from './support.js';

export const SEMVER_TYPE = opaque('kubernetes.Semver');

type PreRelease = { num: bigint } | { str: string };

export interface Version {
  major: bigint;
  minor: bigint;
  patch: bigint;
  pre: PreRelease[];
  build: string[];
}

const MAX_UINT64 = (1n << 64n) - 1n;
const NUMBERS = /^[0-9]*$/;
const ALPHANUM = /^[0-9A-Za-z-]*$/;
const hasLeadingZeroes = (s: string): boolean => s.length > 1 && s[0] === '0';

/** strconv.ParseUint(s, 10, 64) on a string of digits. */
function parseUint(s: string): bigint | string {
  if (s === '') return strconvSyntaxError('ParseUint', s);
  const v = BigInt(s);
  return v > MAX_UINT64 ? strconvRangeError('ParseUint', s) : v;
}

function parseNumber(s: string, part: string): bigint | string {
  if (!NUMBERS.test(s)) return `Invalid character(s) found in ${part} number ${goQuote(s)}`;
  if (hasLeadingZeroes(s)) return `${part[0]!.toUpperCase()}${part.slice(1)} number must not contain leading zeroes ${goQuote(s)}`;
  return parseUint(s);
}

function parsePreRelease(s: string): PreRelease | string {
  if (s === '') return 'Prerelease is empty';
  if (NUMBERS.test(s)) {
    if (hasLeadingZeroes(s)) return `Numeric PreRelease version must not contain leading zeroes ${goQuote(s)}`;
    const n = parseUint(s);
    return typeof n === 'string' ? n : { num: n };
  }
  if (ALPHANUM.test(s)) return { str: s };
  return `Invalid character(s) found in prerelease ${goQuote(s)}`;
}

/** semver.Parse: the version, or blang/semver's error text. */
function parseSemver(s: string): Version | string {
  if (s === '') return 'Version string empty';
  const parts = splitN(s, '.', 3);
  if (parts.length !== 3) return 'No Major.Minor.Patch elements found';
  const major = parseNumber(parts[0]!, 'major');
  if (typeof major === 'string') return major;
  const minor = parseNumber(parts[1]!, 'minor');
  if (typeof minor === 'string') return minor;
  let patchStr = parts[2]!;
  let build: string[] = [];
  let pre: string[] = [];
  const plus = patchStr.indexOf('+');
  if (plus !== -1) {
    build = patchStr.slice(plus + 1).split('.');
    patchStr = patchStr.slice(0, plus);
  }
  const dash = patchStr.indexOf('-');
  if (dash !== -1) {
    pre = patchStr.slice(dash + 1).split('.');
    patchStr = patchStr.slice(0, dash);
  }
  const patch = parseNumber(patchStr, 'patch');
  if (typeof patch === 'string') return patch;
  const v: Version = { major, minor, patch, pre: [], build: [] };
  for (const p of pre) {
    const pr = parsePreRelease(p);
    if (typeof pr === 'string') return pr;
    v.pre.push(pr);
  }
  for (const b of build) {
    if (b === '') return 'Build meta data is empty';
    if (!ALPHANUM.test(b)) return `Invalid character(s) found in build meta data ${goQuote(b)}`;
    v.build.push(b);
  }
  return v;
}

/** strings.SplitN. */
function splitN(s: string, sep: string, n: number): string[] {
  const all = s.split(sep);
  return all.length <= n ? all : [...all.slice(0, n - 1), all.slice(n - 1).join(sep)];
}

/** normalizeAndParse: drops a leading "v" and leading zeros, fills in a missing minor or patch. */
function parseSemverNormalized(s: string): Version | string {
  if (s.startsWith('v')) s = s.slice(1);
  const parts = splitN(s, '.', 3).map((p) => {
    if (p.length <= 1) return p;
    p = p.replace(/^0+/, '');
    return p.length === 0 || !/^[0-9]/.test(p) ? '0' + p : p;
  });
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1]!)) return 'short version cannot contain PreRelease/Build meta data';
    while (parts.length < 3) parts.push('0');
  }
  return parseSemver(parts.join('.'));
}

const cmp = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);

function comparePre(a: PreRelease, b: PreRelease): number {
  if ('num' in a) return 'num' in b ? cmp(a.num, b.num) : -1;
  if ('num' in b) return 1;
  return a.str === b.str ? 0 : a.str > b.str ? 1 : -1;
}

/** Version.Compare: precedence ignores build metadata; a pre-release sorts first. */
function compareSemver(v: Version, o: Version): number {
  const c = cmp(v.major, o.major) || cmp(v.minor, o.minor) || cmp(v.patch, o.patch);
  if (c !== 0) return c;
  if (v.pre.length === 0 && o.pre.length === 0) return 0;
  if (v.pre.length === 0) return 1;
  if (o.pre.length === 0) return -1;
  for (let i = 0; i < v.pre.length && i < o.pre.length; i++) {
    const p = comparePre(v.pre[i]!, o.pre[i]!);
    if (p !== 0) return p;
  }
  return v.pre.length === o.pre.length ? 0 : v.pre.length < o.pre.length ? -1 : 1;
}

export class SemverValue extends OpaqueValue {
  readonly type = SEMVER_TYPE;

  constructor(readonly version: Version) {
    super();
  }

  equals(other: OpaqueValue): boolean {
    return other instanceof SemverValue && compareSemver(this.version, other.version) === 0;
  }

  override toString(): string {
    const v = this.version;
    let s = `${v.major}.${v.minor}.${v.patch}`;
    if (v.pre.length) s += '-' + v.pre.map((p) => ('num' in p ? p.num.toString() : p.str)).join('.');
    if (v.build.length) s += '+' + v.build.join('.');
    return s;
  }
}

function toSemver(args: readonly Val[]): Val {
  const bad = args.length === 2 ? badArg(args, 'string', 'boolean') : badArg(args, 'string');
  if (bad) return args.length === 2 && typeof args[0] === 'string' ? maybeNoSuchOverload(args[0]) : bad;
  const v = args[1] === true ? parseSemverNormalized(args[0] as string) : parseSemver(args[0] as string);
  return typeof v === 'string' ? new CelError(v) : new SemverValue(v);
}

function isSemver(args: readonly Val[]): Val {
  const bad = args.length === 2 ? badArg(args, 'string', 'boolean') : badArg(args, 'string');
  if (bad) return args.length === 2 && typeof args[0] === 'string' ? maybeNoSuchOverload(args[0]) : bad;
  const v = args[1] === true ? parseSemverNormalized(args[0] as string) : parseSemver(args[0] as string);
  return typeof v !== 'string';
}

/** types.Int(uint64): Go's conversion wraps above 2^63-1. */
const toInt = (v: bigint): bigint => BigInt.asIntN(64, v);

function part(f: (v: Version) => bigint): (args: readonly Val[]) => Val {
  return (args) => (args[0] instanceof SemverValue ? toInt(f(args[0].version)) : maybeNoSuchOverload(args[0]!));
}

function compare(f: (c: number) => Val): (args: readonly Val[]) => Val {
  return (args) => {
    if (!(args[0] instanceof SemverValue)) return maybeNoSuchOverload(args[0]!);
    if (!(args[1] instanceof SemverValue)) return maybeNoSuchOverload(args[0]);
    return f(compareSemver(args[0].version, args[1].version));
  };
}

/** Parsing is a string traversal. */
const parseCost = (args: readonly Val[]): number => traversal(args[0]!);

/** library.SemverLib(library.SemverVersion(version)). */
export function semverLibrary(version: number): Library {
  const semverOverloads = [global('string_to_semver', [STRING], SEMVER_TYPE, toSemver, parseCost)];
  const isSemverOverloads = [global('is_semver_string', [STRING], BOOL, isSemver, parseCost)];
  if (version >= 1) {
    semverOverloads.push(global('string_bool_to_semver', [STRING, BOOL], SEMVER_TYPE, toSemver, parseCost));
    isSemverOverloads.push(global('is_semver_string_bool', [STRING, BOOL], BOOL, isSemver, parseCost));
  }
  const functions: FunctionDecl[] = [
    { name: 'semver', overloads: semverOverloads },
    { name: 'isSemver', overloads: isSemverOverloads },
    { name: 'isGreaterThan', overloads: [member('semver_is_greater_than', [SEMVER_TYPE, SEMVER_TYPE], BOOL, compare((c) => c === 1))] },
    { name: 'isLessThan', overloads: [member('semver_is_less_than', [SEMVER_TYPE, SEMVER_TYPE], BOOL, compare((c) => c === -1))] },
    { name: 'compareTo', overloads: [member('semver_compare_to', [SEMVER_TYPE, SEMVER_TYPE], INT, compare((c) => BigInt(c)))] },
    { name: 'major', overloads: [member('semver_major', [SEMVER_TYPE], INT, part((v) => v.major))] },
    { name: 'minor', overloads: [member('semver_minor', [SEMVER_TYPE], INT, part((v) => v.minor))] },
    { name: 'patch', overloads: [member('semver_patch', [SEMVER_TYPE], INT, part((v) => v.patch))] },
  ];
  return { name: 'kubernetes.Semver', functions };
}

/** The semver library as Kubernetes 1.33 enables it: SemverLib(SemverVersion(1)). */
export const SEMVER_LIBRARY: Library = semverLibrary(1);
