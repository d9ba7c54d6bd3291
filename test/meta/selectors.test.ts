import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../src/api/status.js';
import { fieldErrorString } from '../../src/api/field-error.js';
import {
  SelectorError,
  fieldRequiresExactMatch,
  fieldSelectorString,
  formatLabelSelector,
  isEverythingLabels,
  labelSelectorAsSelector,
  labelSelectorString,
  matchFields,
  matchesLabels,
  newRequirement,
  parseFieldSelector,
  parseFieldSelectorOrThrow,
  parseLabelSelector,
  parseLabelSelectorOrThrow,
  transformFieldSelector,
  validateLabelSelector,
} from '../../src/registry/selectors.js';

const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const parseError = (s: string): string => {
  try {
    parseLabelSelectorOrThrow(s);
  } catch (e) {
    assert.ok(e instanceof SelectorError);
    return e.message;
  }
  assert.fail(`expected ${JSON.stringify(s)} not to parse`);
};

test('label selectors that parse round-trip through String() (apimachinery TestSelectorParse)', () => {
  for (const s of ['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= ', '!x', 'x>1', 'x>1,z<5']) {
    assert.equal(labelSelectorString(parseLabelSelectorOrThrow(s)), s.replaceAll(' ', ''), s);
  }
  for (const s of ['x=a||y=b', 'x==a==b', '!x=a', 'x<a']) assert.throws(() => parseLabelSelectorOrThrow(s), SelectorError, s);
});

test('parsing sorts requirements by key and set values', () => {
  assert.equal(labelSelectorString(parseLabelSelectorOrThrow('x=a,a=x')), 'a=x,x=a');
  assert.equal(labelSelectorString(parseLabelSelectorOrThrow('env in (prod, dev,prod), tier notin (a)')), 'env in (dev,prod),tier notin (a)');
  assert.equal(labelSelectorString(parseLabelSelectorOrThrow('k in (,a)')), 'k in (,a)');
  assert.equal(labelSelectorString(parseLabelSelectorOrThrow('k in (b,,a)')), 'k in (,a,b)');
  assert.equal(labelSelectorString(parseLabelSelectorOrThrow('k in (a,)')), 'k in (,a)');
  assert.equal(labelSelectorString(parseLabelSelectorOrThrow('k in ()')), 'k in ()');
  assert.equal(labelSelectorString(parseLabelSelectorOrThrow('notin=in')), 'notin=in');
  assert.equal(labelSelectorString(parseLabelSelectorOrThrow('a==b')), 'a==b');
});

test('label selector parse errors are word for word', () => {
  assert.equal(parseError('app:monolith'), `unable to parse requirement: <nil>: Invalid value: "app:monolith": ${NAME_PART_MSG}`);
  assert.equal(parseError('a b'), "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt");
  assert.equal(parseError('a=b c'), "found 'c', expected: ',' or 'end of string'");
  assert.equal(parseError('a=b,'), "found '', expected: identifier after ','");
  assert.equal(parseError(',a'), "found ',', expected: !, identifier, or 'end of string'");
  assert.equal(parseError('a in b'), "unable to parse requirement: found 'b' expected: '('");
  assert.equal(parseError('a in (b c)'), "unable to parse requirement: found 'c', expected: ',' or ')'");
  assert.equal(parseError('a in (='), "unable to parse requirement: found '=', expected: ',', ')' or identifier");
  assert.equal(parseError('a in (b,='), "unable to parse requirement: found '=', expected: ',', or identifier");
  // After ",," the parser wants another value: a trailing ",,)" does not parse.
  assert.equal(parseError('k in (,a,,)'), "unable to parse requirement: found ')', expected: ',', or identifier");
  assert.equal(parseError('a=('), "unable to parse requirement: found '(', expected: identifier");
  assert.equal(parseError('!'), "unable to parse requirement: found '', expected: identifier");
  assert.equal(parseError('!x=a'), "found '=', expected: ',' or 'end of string'");
  assert.equal(parseError('a=b$'), `unable to parse requirement: values[0][a]: Invalid value: "b$": ${LABEL_VALUE_MSG}`);
  assert.equal(
    parseError('a in (b$,c$)'),
    `unable to parse requirement: [values[0][a]: Invalid value: "b$": ${LABEL_VALUE_MSG}, values[1][a]: Invalid value: "c$": ${LABEL_VALUE_MSG}]`,
  );
  assert.equal(parseError('x<a'), `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`);
  assert.equal(
    parseError('a/b/c ?=? def'),
    `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
  );
});

test('parseLabelSelector answers a bad ?labelSelector= with 400 BadRequest', () => {
  try {
    parseLabelSelector('a b');
    assert.fail('expected an error');
  } catch (e) {
    assert.ok(e instanceof StatusError);
    assert.equal(e.code, 400);
    assert.equal(e.status.reason, 'BadRequest');
    assert.equal(e.status.message, "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt");
  }
});

test('label matching (apimachinery TestSelectorMatches)', () => {
  const yes = (s: string, ls: Record<string, string>): void => assert.ok(matchesLabels(parseLabelSelector(s), ls), `${s} ~ ${JSON.stringify(ls)}`);
  const no = (s: string, ls: Record<string, string>): void => assert.ok(!matchesLabels(parseLabelSelector(s), ls), `${s} !~ ${JSON.stringify(ls)}`);
  yes('', { x: 'y' });
  yes('x=y', { x: 'y' });
  yes('x=y,z=w', { x: 'y', z: 'w' });
  yes('x!=y,z!=w', { x: 'z', z: 'a' });
  yes('notin=in', { notin: 'in' });
  yes('x', { x: 'z' });
  yes('!x', { y: 'z' });
  yes('x>1', { x: '2' });
  yes('x<1', { x: '0' });
  no('x=z', {});
  no('x=y', { x: 'z' });
  no('x=y,z=w', { x: 'w', z: 'w' });
  no('x!=y,z!=w', { x: 'z', z: 'w' });
  no('x', { y: 'z' });
  no('!x', { x: 'z' });
  no('x>1', { x: '0' });
  no('x<1', { x: '2' });
  no('x>1', { x: 'abc' });
  yes('x in (a,b)', { x: 'b' });
  no('x in (a,b)', {});
  yes('x notin (a,b)', {});
  yes('x=', { x: '' });
  assert.ok(matchesLabels(parseLabelSelector('!x'), undefined));
});

test('newRequirement validation messages (nil path)', () => {
  const err = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      return (e as Error).message;
    }
    return '';
  };
  assert.equal(err(() => newRequirement('x', 'in', undefined)), "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty");
  assert.equal(err(() => newRequirement('x', '=', ['a', 'b'])), 'values: Invalid value: []string{"a", "b"}: exact-match compatibility requires one single value');
  assert.equal(err(() => newRequirement('x', 'exists', ['a'])), 'values: Invalid value: []string{"a"}: values set must be empty for exists and does not exist');
  assert.equal(err(() => newRequirement('a b', 'exists', [])), `key: Invalid value: "a b": ${NAME_PART_MSG}`);
  assert.equal(
    err(() => newRequirement('x', 'like', [])),
    'operator: Unsupported value: "like": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"',
  );
});

test('metav1.LabelSelector conversion and rendering', () => {
  assert.equal(labelSelectorAsSelector(null).nothing, true);
  assert.ok(!matchesLabels(labelSelectorAsSelector(null), {}));
  assert.ok(isEverythingLabels(labelSelectorAsSelector({})));
  const sel = labelSelectorAsSelector({
    matchLabels: { tier: 'web', app: 'shop' },
    matchExpressions: [
      { key: 'env', operator: 'In', values: ['prod', 'dev'] },
      { key: 'legacy', operator: 'DoesNotExist' },
      { key: 'zone', operator: 'Exists' },
    ],
  });
  assert.equal(labelSelectorString(sel), 'app=shop,env in (dev,prod),!legacy,tier=web,zone');
  assert.ok(matchesLabels(sel, { app: 'shop', tier: 'web', env: 'dev', zone: 'a' }));
  assert.ok(!matchesLabels(sel, { app: 'shop', tier: 'web', env: 'dev', zone: 'a', legacy: '' }));
  assert.throws(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'Like' }] }), { message: '"Like" is not a valid label selector operator' });
  assert.throws(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }), {
    message: "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
  });
  assert.equal(formatLabelSelector({}), '<none>');
  assert.equal(formatLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Like' }] }), '<error>');
  assert.equal(formatLabelSelector({ matchLabels: { a: 'b' } }), 'a=b');
});

test('validateLabelSelector', () => {
  const errs = validateLabelSelector(
    {
      matchLabels: { 'a b': 'c' },
      matchExpressions: [
        { key: 'k', operator: 'In', values: [] },
        { key: 'k', operator: 'Exists', values: ['x$'] },
        { key: 'k', operator: 'Like' },
      ],
    },
    'spec.selector',
  );
  assert.deepEqual(errs.map(fieldErrorString), [
    `spec.selector.matchLabels: Invalid value: "a b": ${NAME_PART_MSG}`,
    "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    `spec.selector.matchExpressions[1].values[0]: Invalid value: "x$": ${LABEL_VALUE_MSG}`,
    'spec.selector.matchExpressions[2].operator: Invalid value: "Like": not a valid selector operator',
  ]);
});

test('field selectors parse, escape, render and match', () => {
  const s = parseFieldSelector('metadata.namespace!=kube-system,metadata.name==a\\,b');
  assert.deepEqual(s.requirements, [
    { field: 'metadata.name', operator: '=', value: 'a,b' },
    { field: 'metadata.namespace', operator: '!=', value: 'kube-system' },
  ]);
  assert.equal(fieldSelectorString(s), 'metadata.name=a\\,b,metadata.namespace!=kube-system');
  assert.ok(matchFields(s, { 'metadata.name': 'a,b', 'metadata.namespace': 'default' }));
  assert.ok(!matchFields(s, { 'metadata.name': 'a,b', 'metadata.namespace': 'kube-system' }));
  assert.ok(!matchFields(s, {}));
  assert.equal(fieldRequiresExactMatch(s, 'metadata.name'), 'a,b');
  assert.equal(fieldRequiresExactMatch(s, 'metadata.namespace'), undefined);
  assert.deepEqual(parseFieldSelector('').requirements, []);
  assert.deepEqual(parseFieldSelector(',=,').requirements, []);
  assert.deepEqual(parseFieldSelector('a=').requirements, [{ field: 'a', operator: '=', value: '' }]);
  assert.ok(matchFields(parseFieldSelector('a='), {}));
});

test('field selector errors are word for word, 400 BadRequest from parseFieldSelector', () => {
  const err = (s: string): string => {
    try {
      parseFieldSelectorOrThrow(s);
    } catch (e) {
      return (e as Error).message;
    }
    return '';
  };
  assert.equal(err('a=b,c'), "invalid selector: 'a=b,c'; can't understand 'c'");
  assert.equal(err('a=b=c'), 'invalid field selector: unescaped character in value: 61');
  assert.equal(err('a=b\\x'), 'invalid field selector: invalid escape sequence: \\x');
  assert.equal(err('a=b\\'), 'invalid field selector: invalid escape sequence: \\');
  assert.throws(() => parseFieldSelector('nope'), (e: unknown) => e instanceof StatusError && e.code === 400 && e.message === "invalid selector: 'nope'; can't understand 'nope'");
});

test('transformFieldSelector rewrites terms and drops emptied ones', () => {
  const s = parseFieldSelector('metadata.name=a,spec.x!=b');
  const t = transformFieldSelector(s, (f, v) => (f === 'spec.x' ? ['', ''] : [f, v.toUpperCase()]));
  assert.deepEqual(t.requirements, [{ field: 'metadata.name', operator: '=', value: 'A' }]);
  assert.throws(
    () =>
      transformFieldSelector(s, (f) => {
        throw new Error(`field label not supported: ${f}`);
      }),
    { message: 'field label not supported: metadata.name' },
  );
});
