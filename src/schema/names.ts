// Name and label validators with the messages of k8s.io/apimachinery/pkg/util/validation
// and pkg/api/validation (path segment names, generateName prefixes). Each returns the list of
// problems, empty when the value is valid.
import { randomInt } from 'node:crypto';

/** Go's len(): strings are measured in UTF-8 bytes. */
const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

const maxLenError = (length: number): string => `must be no more than ${length} characters`;

/** validation.RegexError: `msg (e.g. 'a',  or 'b', regex used for validation is 're')`. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

const emptyError = (): string => 'must be non-empty';

const qnameCharFmt = '[A-Za-z0-9]';
const qnameExtCharFmt = '[-A-Za-z0-9_.]';
const qualifiedNameFmt = `(${qnameCharFmt}${qnameExtCharFmt}*)?${qnameCharFmt}`;
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const qualifiedNameMaxLength = 63;
const qualifiedNameRe = new RegExp(`^${qualifiedNameFmt}$`);

const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MAX_LENGTH = 63;
const labelValueRe = new RegExp(`^${labelValueFmt}$`);

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelErrMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_LABEL_MAX_LENGTH = 63;
const dns1123LabelRe = new RegExp(`^${dns1123LabelFmt}$`);

const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelErrMsg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const DNS1035_LABEL_MAX_LENGTH = 63;
const dns1035LabelRe = new RegExp(`^${dns1035LabelFmt}$`);

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!dns1123SubdomainRe.test(value)) errs.push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, 'example.com'));
  return errs;
}

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!dns1123LabelRe.test(value)) {
    // A valid subdomain that is not a valid label can only be failing on its dots.
    if (dns1123SubdomainRe.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  }
  return errs;
}

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1035_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1035_LABEL_MAX_LENGTH));
  if (!dns1035LabelRe.test(value)) errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'));
  return errs;
}

/**
 * A valid qualified name, ASCII only (so characters are bytes): the subdomain prefix and '/', then the name
 * part. What it takes the checks below take too, and a name it does not take is checked by them.
 */
const validQualifiedNameRe = new RegExp(`^(?:${dns1123SubdomainFmt}/)?${qualifiedNameFmt}$`);

/** A "qualified name": an optional DNS subdomain prefix and '/', then a name part of at most 63 characters. */
export function isQualifiedName(value: string): string[] {
  // Label and annotation keys, finalizers: nearly always valid, accepted by one match.
  if (validQualifiedNameRe.test(value)) {
    // Matched, it has at most one '/', after the prefix.
    const slash = value.indexOf('/');
    if (slash <= DNS1123_SUBDOMAIN_MAX_LENGTH && value.length - slash - 1 <= qualifiedNameMaxLength) return [];
  }
  return qualifiedNameErrors(value);
}

/** isQualifiedName's checks one by one, with their messages. */
export function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push('prefix part ' + emptyError());
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => 'prefix part ' + m));
  } else {
    errs.push(
      'a qualified name ' +
        regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc') +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    );
    return errs;
  }
  if (name.length === 0) errs.push('name part ' + emptyError());
  else if (byteLength(name) > qualifiedNameMaxLength) errs.push('name part ' + maxLenError(qualifiedNameMaxLength));
  if (!qualifiedNameRe.test(name)) errs.push('name part ' + regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc'));
  return errs;
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > LABEL_VALUE_MAX_LENGTH) errs.push(maxLenError(LABEL_VALUE_MAX_LENGTH));
  if (!labelValueRe.test(value)) errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}

const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const configMapKeyRe = new RegExp(`^${configMapKeyFmt}$`);

/** validation.IsConfigMapKey: a key of a ConfigMap's or a Secret's data (a file name when mounted). */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!configMapKeyRe.test(value)) errs.push(regexError(configMapKeyErrMsg, configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name'));
  // hasChDirPrefix: a mounted key may not climb out of its directory.
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/** path.IsValidPathSegmentName: the name must be safe as one URL path segment. */
export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return isValidPathSegmentPrefix(name);
}

/** path.IsValidPathSegmentPrefix: as above, but '.' and '..' may still grow a suffix. */
function isValidPathSegmentPrefix(name: string): string[] {
  const errs: string[] = [];
  for (const bad of ['/', '%']) if (name.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
}

/** A ValidateNameFunc: `prefix` is true when a random suffix will be appended (generateName). */
export type NameValidateFn = (name: string, prefix: boolean) => string[];

// apimachinery's maskTrailingDash drops the last TWO characters before appending "a"; kept as is.
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? name.slice(0, -2) + 'a' : name;
}

export const nameIsDNSSubdomain: NameValidateFn = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
export const nameIsDNSLabel: NameValidateFn = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
export const nameIsDNS1035Label: NameValidateFn = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);
export const validatePathSegmentName: NameValidateFn = (name, prefix) =>
  prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name);
/** Namespace names are DNS labels. */
export const validateNamespaceName: NameValidateFn = nameIsDNSLabel;

export type NameValidatorKind = 'dns1123Subdomain' | 'dns1123Label' | 'dns1035Label' | 'pathSegment';

export function nameValidatorFor(kind: NameValidatorKind | NameValidateFn): NameValidateFn {
  if (typeof kind === 'function') return kind;
  switch (kind) {
    case 'dns1123Subdomain':
      return nameIsDNSSubdomain;
    case 'dns1123Label':
      return nameIsDNSLabel;
    case 'dns1035Label':
      return nameIsDNS1035Label;
    case 'pathSegment':
      return validatePathSegmentName;
  }
}

// names.SimpleNameGenerator: base truncated to 58 bytes, then 5 random characters from utilrand's alphabet.
const GENERATED_SUFFIX_LENGTH = 5;
const MAX_GENERATED_NAME_LENGTH = 63 - GENERATED_SUFFIX_LENGTH;
const RAND_ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/** The name the apiserver generates from metadata.generateName. */
export function generateNameFrom(base: string, random: (n: number) => number = randomInt): string {
  const bytes = Buffer.from(base, 'utf8');
  const truncated = bytes.length > MAX_GENERATED_NAME_LENGTH ? bytes.subarray(0, MAX_GENERATED_NAME_LENGTH).toString('utf8') : base;
  let suffix = '';
  for (let i = 0; i < GENERATED_SUFFIX_LENGTH; i++) suffix += RAND_ALPHANUMS[random(RAND_ALPHANUMS.length)];
  return truncated + suffix;
}
