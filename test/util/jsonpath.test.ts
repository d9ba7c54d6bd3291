// Kubernetes JSONPath: the cases of client-go's parser_test.go and jsonpath_test.go (v0.33), with
// Go structs turned into the JSON maps the apiserver evaluates (map keys print sorted, as json.Marshal
// prints maps), plus the Go value semantics printer columns depend on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonPath, JsonPathError, JsonPathParseError, compileJsonPath, type JsonPathNode } from '../../src/util/jsonpath.js';
import { parseTemplate } from '../../src/util/jsonpath-parser.js';
import { goFormatFloat } from '../../src/util/jsonpath-values.js';

const run = (template: string, input: unknown, allowMissingKeys = false): string => compileJsonPath(template, { allowMissingKeys }).execute(input);

function failure(template: string, input: unknown, allowMissingKeys = false): string {
  try {
    const out = run(template, input, allowMissingKeys);
    return `no error: ${JSON.stringify(out)}`;
  } catch (e) {
    assert.ok(e instanceof JsonPathError || e instanceof JsonPathParseError, String(e));
    return (e as Error).message;
  }
}

// ---------------------------------------------------------------- parser_test.go

/** The nodes in the order collectNode visits them, as Go's Node.String() prints them. */
function collect(node: JsonPathNode, out: string[] = []): string[] {
  switch (node.type) {
    case 'list':
      out.push('NodeList');
      for (const n of node.nodes) collect(n, out);
      break;
    case 'filter':
      out.push(`NodeFilter: NodeList ${node.operator} NodeList`);
      collect(node.left, out);
      collect(node.right, out);
      break;
    case 'union':
      out.push('NodeUnion');
      for (const n of node.nodes) collect(n, out);
      break;
    case 'text':
      out.push(`NodeText: ${node.text}`);
      break;
    case 'field':
      out.push(`NodeField: ${node.name}`);
      break;
    case 'identifier':
      out.push(`NodeIdentifier: ${node.name}`);
      break;
    case 'array':
      out.push(`NodeArray: [${node.params.map((p) => `{${p.value} ${p.known} ${p.derived}}`).join(' ')}]`);
      break;
    case 'int':
      out.push(`NodeInt: ${node.value}`);
      break;
    case 'float':
      out.push(`NodeFloat: ${node.value.toFixed(6)}`);
      break;
    case 'bool':
      out.push(`NodeBool: ${node.value}`);
      break;
    case 'wildcard':
      out.push('NodeWildcard');
      break;
    case 'recursive':
      out.push('NodeRecursive');
      break;
  }
  return out;
}

const parsed = (text: string): string[] => collect(parseTemplate(text)).slice(1);
const L = 'NodeList';
const F = (name: string): string => `NodeField: ${name}`;
const T = (text: string): string => `NodeText: ${text}`;
const A = (...p: Array<[number, boolean, boolean]>): string => `NodeArray: [${p.map(([v, k, d]) => `{${v} ${k} ${d}}`).join(' ')}]`;
const FILTER = (op: string): string => `NodeFilter: NodeList ${op} NodeList`;
const U = [0, false, false] as [number, boolean, boolean];

test('parser: node trees of parser_test.go', () => {
  const cases: Array<[string, string, string[]]> = [
    ['plain', 'hello jsonpath', [T('hello jsonpath')]],
    ['variable', 'hello {.jsonpath}', [T('hello '), L, F('jsonpath')]],
    ['arrayfiled', "hello {['jsonpath']}", [T('hello '), L, F('jsonpath')]],
    ['quote', '{"{"}', [L, T('{')]],
    ['array', '{[1:3]}', [L, A([1, true, false], [3, true, false], U)]],
    ['allarray', '{.book[*].author}', [L, F('book'), A(U, U, U), F('author')]],
    ['wildcard', '{.bicycle.*}', [L, F('bicycle'), 'NodeWildcard']],
    ['filter', '{[?(@.price<3)]}', [L, FILTER('<'), L, F('price'), L, 'NodeInt: 3']],
    ['recursive', '{..}', [L, 'NodeRecursive']],
    ['recurField', '{..price}', [L, 'NodeRecursive', F('price')]],
    ['arraydict', "{['book.price']}", [L, F('book'), F('price')]],
    [
      'union',
      "{['bicycle.price', 3, 'book.price']}",
      [L, 'NodeUnion', L, F('bicycle'), F('price'), L, A([3, true, false], [4, true, true], U), L, F('book'), F('price')],
    ],
    ['range', '{range .items}{.name},{end}', [L, 'NodeIdentifier: range', F('items'), L, F('name'), T(','), L, 'NodeIdentifier: end']],
    [
      'paired parentheses in quotes',
      '{[?(@.status.nodeInfo.osImage == "()")]}',
      [L, FILTER('=='), L, F('status'), F('nodeInfo'), F('osImage'), L, T('()')],
    ],
    [
      'paired parentheses in double quotes and with double quotes escape',
      '{[?(@.status.nodeInfo.osImage == "(\\"\\")")]}',
      [L, FILTER('=='), L, F('status'), F('nodeInfo'), F('osImage'), L, T('("")')],
    ],
    ['unregular parentheses in double quotes', '{[?(@.test == "())(")]}', [L, FILTER('=='), L, F('test'), L, T('())(')]],
    ['plain text in single quotes', "{[?(@.status.nodeInfo.osImage == 'Linux')]}", [L, FILTER('=='), L, F('status'), F('nodeInfo'), F('osImage'), L, T('Linux')]],
    ['test filter suffix', '{[?(@.status.nodeInfo.osImage == "{[()]}")]}', [L, FILTER('=='), L, F('status'), F('nodeInfo'), F('osImage'), L, T('{[()]}')]],
    ['double inside single', `{[?(@.status.nodeInfo.osImage == "''")]}`, [L, FILTER('=='), L, F('status'), F('nodeInfo'), F('osImage'), L, T("''")]],
    ['single inside double', `{[?(@.status.nodeInfo.osImage == '""')]}`, [L, FILTER('=='), L, F('status'), F('nodeInfo'), F('osImage'), L, T('""')]],
    [
      'single containing escaped single',
      "{[?(@.status.nodeInfo.osImage == '\\\\\\'')]}",
      [L, FILTER('=='), L, F('status'), F('nodeInfo'), F('osImage'), L, T("\\'")],
    ],
    ['negative index slice, equals a[len-5] to a[len-1]', '{[-5:]}', [L, A([-5, true, false], U, U)]],
    ['negative index slice, equals a[len-1]', '{[-1]}', [L, A([-1, true, false], [0, true, true], U)]],
    ['negative index slice, equals a[1] to a[len-1]', '{[1:-1]}', [L, A([1, true, false], [-1, true, false], U)]],
  ];
  for (const [name, text, nodes] of cases) assert.deepEqual(parsed(text), nodes, name);
});

test('parser: literals, escapes and identifiers', () => {
  assert.deepEqual(parsed('{3.5}'), [L, 'NodeFloat: 3.500000']);
  assert.deepEqual(parsed('{-7}'), [L, 'NodeInt: -7']);
  assert.deepEqual(parsed('{true}{false}'), [L, 'NodeBool: true', L, 'NodeBool: false']);
  assert.deepEqual(parsed('{.a.b\\.c}'), [L, F('a'), F('b.c')]);
  assert.deepEqual(parsed('{$.a}'), [L, F('a')]);
  assert.deepEqual(parsed('{...a}'), [L, 'NodeRecursive', F('a')]);
  assert.deepEqual(parsed('{..[0]}'), [L, 'NodeRecursive', A([0, true, false], [1, true, true], U)]);
  assert.deepEqual(parsed('{"a\\tb\\u00e9\\x41"}'), [L, T('a\tbéA')]);
  assert.deepEqual(parsed('a}b'), [T('a}b')]);
  // Only single quotes make a bracketed key; its dots still separate fields.
  assert.deepEqual(parsed("{['a b']}"), [L, F('a'), 'NodeIdentifier: b']);
  assert.deepEqual(parsed('{[ 1 , 2 ]}'), [L, 'NodeUnion', L, A([1, true, false], [2, true, true], U), L, A([2, true, false], [3, true, true], U)]);
  assert.deepEqual(parsed('{[::2]}'), [L, A(U, U, [2, true, false])]);
  assert.deepEqual(parsed('{[?(@.x)]}'), [L, FILTER('exists'), L, F('x'), L]);
});

test('parser: errors of parser_test.go and more, with kube messages', () => {
  const cases: Array<[string, string]> = [
    ['{.hello', 'unclosed action'],
    ['{*}', "unrecognized character in action: U+002A '*'"],
    ['{+12.3.0}', 'cannot parse number +12.3.0'],
    ['{[1}', 'unterminated array'],
    ['{[?(.price]}', 'unterminated filter'],
    ['{........}', 'invalid multiple recursive descent'],
    ['{\\\\\\}', "unrecognized character in action: U+005C '\\'"],
    ['{"abc}', 'unterminated quoted string'],
    ['{[-]}', 'array index - is not a number'],
    ['{[a]}', 'invalid array index a'],
    ['{["a"]}', 'invalid array index "a"'],
    ['{[99999999999999999999]}', 'array index 99999999999999999999 is not a number'],
    ['{[?(@.b == 1)}', 'unclosed array expect ]'],
    ["{'a\\q'}", "unquote string 'a\\q' error invalid syntax"],
    ['{"\\ud800"}', 'unquote string "\\ud800" error invalid syntax'],
    ['{\t.a}', 'unrecognized character in action: U+0009'],
    ['{.a\n}', 'unclosed action'],
    ['{[0,a]}', 'invalid array index a'],
    ['{..*}', "unrecognized character in action: U+002A '*'"],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => parseTemplate(text), (e: unknown) => e instanceof JsonPathParseError && e.message === message, text);
  }
});

// ---------------------------------------------------------------- jsonpath_test.go

test('TestTypesInput', () => {
  const types = {
    bools: [true, false, true, false],
    integers: [1, 2, 3, 4],
    floats: [1.0, 2.2, 3.3, 4.0],
    strings: ['one', 'two', 'three', 'four'],
    interfaces: [true, 'one', 1, 1.1],
    maps: [
      { name: 'one', value: 1 },
      { name: 'two', value: 2.02 },
      { name: 'three', value: 3.03 },
      { name: 'four', value: 4.04 },
    ],
  };
  const cases: Array<[string, string]> = [
    ['{ .bools }', '[true,false,true,false]'],
    ['{ .bools[0] }', 'true'],
    ['{ .bools[-1] }', 'false'],
    ['{ .bools[0:2] }', 'true false'],
    ['{ .bools[:2] }', 'true false'],
    ['{ .bools[:4:2] }', 'true true'],
    ['{ .integers }', '[1,2,3,4]'],
    ['{ .integers[0] }', '1'],
    ['{ .integers[-2] }', '3'],
    ['{ .integers[0:2] }', '1 2'],
    ['{ .integers[:2] }', '1 2'],
    ['{ .integers[:4:2] }', '1 3'],
    ['{ .floats }', '[1,2.2,3.3,4]'],
    ['{ .floats[0] }', '1'],
    ['{ .floats[-2] }', '3.3'],
    ['{ .floats[0:2] }', '1 2.2'],
    ['{ .floats[:2] }', '1 2.2'],
    ['{ .floats[:4:2] }', '1 3.3'],
    ['{ .strings }', '["one","two","three","four"]'],
    ['{ .strings[0] }', 'one'],
    ['{ .strings[-2] }', 'three'],
    ['{ .strings[0:2] }', 'one two'],
    ['{ .strings[:2] }', 'one two'],
    ['{ .strings[:4:2] }', 'one three'],
    ['{ .interfaces }', '[true,"one",1,1.1]'],
    ['{ .interfaces[0] }', 'true'],
    ['{ .interfaces[-2] }', '1'],
    ['{ .interfaces[0:2] }', 'true one'],
    ['{ .interfaces[:2] }', 'true one'],
    ['{ .interfaces[:4:2] }', 'true 1'],
    ['{ .maps }', '[{"name":"one","value":1},{"name":"two","value":2.02},{"name":"three","value":3.03},{"name":"four","value":4.04}]'],
    ['{ .maps[0] }', '{"name":"one","value":1}'],
    ['{ .maps[-2] }', '{"name":"three","value":3.03}'],
    ['{ .maps[0:2] }', '{"name":"one","value":1} {"name":"two","value":2.02}'],
    ['{ .maps[:2] }', '{"name":"one","value":1} {"name":"two","value":2.02}'],
    ['{ .maps[::2] }', '{"name":"one","value":1} {"name":"three","value":3.03}'],
    ['{ .maps[1::2] }', '{"name":"two","value":2.02} {"name":"four","value":4.04}'],
  ];
  for (const [template, expect] of cases) assert.equal(run(template, types), expect, template);
});

const storeData = {
  Book: [
    { Category: 'reference', Author: 'Nigel Rees', Title: 'Sayings of the Centurey', Price: 8.95 },
    { Category: 'fiction', Author: 'Evelyn Waugh', Title: 'Sword of Honour', Price: 12.99 },
    { Category: 'fiction', Author: 'Herman Melville', Title: 'Moby Dick', Price: 8.99 },
  ],
  Bicycle: [
    { Color: 'red', Price: 19.95, IsNew: true },
    { Color: 'green', Price: 20.01, IsNew: false },
  ],
  Name: 'jsonpath',
  Labels: { engieer: 10, 'web/html': 15, 'k8s-app': 20 },
  Employees: { jason: 'manager', dan: 'clerk' },
};

test('TestStructInput (the store as JSON maps)', () => {
  const cases: Array<[string, unknown, string]> = [
    ['hello jsonpath', null, 'hello jsonpath'],
    ['{..}', [1, 2, 3], '[1,2,3]'],
    ['{[?(@<5)]}', [2, 6, 3, 7], '2 3'],
    ['{"{"}', null, '{'],
    ['{[1,3,4]}', [0, 1, 2, 3, 4], '1 3 4'],
    ['{[0:2]}', ['Monday', 'Tudesday'], 'Monday Tudesday'],
    ['hello {.Name}', storeData, 'hello jsonpath'],
    ['{$.Labels.web/html}', storeData, '15'],
    ['{$.Employees.jason}', storeData, 'manager'],
    ['{$.Employees.dan}', storeData, 'clerk'],
    ['{.Labels.k8s-app}', storeData, '20'],
    ['{.Bicycle[*].Color}', storeData, 'red green'],
    ['{.Book[*].Author}', storeData, 'Nigel Rees Evelyn Waugh Herman Melville'],
    ['{range .Bicycle[*]}{ "{" }{ @.* }{ "} " }{end}', storeData, '{red 19.95 true} {green 20.01 false} '],
    ['{..Price}', storeData, '8.95 12.99 8.99 19.95 20.01'],
    ['{...Price}', storeData, '8.95 12.99 8.99 19.95 20.01'],
    ['{.Bicycle}', storeData, '[{"Color":"red","IsNew":true,"Price":19.95},{"Color":"green","IsNew":false,"Price":20.01}]'],
    ['{range .Bicycle[*]}{ @ }{ " " }{end}', storeData, '{"Color":"red","IsNew":true,"Price":19.95} {"Color":"green","IsNew":false,"Price":20.01} '],
    ['{.Book[-1:]}', storeData, '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}'],
    ['{..Book[2]}', storeData, '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}'],
    ['{.Bicycle[?(@.IsNew==true)]}', storeData, '{"Color":"red","IsNew":true,"Price":19.95}'],
  ];
  for (const [template, input, expect] of cases) assert.equal(run(template, input), expect, template);
  assert.throws(() => parseTemplate('{............................................................Price}'), JsonPathParseError);

  assert.equal(run('{.hello}', storeData, true), '');
  assert.equal(run('before-{.hello}after', storeData, true), 'before-after');

  assert.equal(failure('{hello}', storeData), 'unrecognized identifier hello');
  assert.equal(failure('{.hello}', storeData), 'hello is not found');
  assert.equal(failure('{.Labels[0]}', storeData), 'map[string]interface {} is not array or slice');
  assert.equal(failure('{.Book[?(@.Price<>10)]}', storeData), 'unrecognized filter operator <>');
  assert.equal(failure('{range .Labels.*}{@}{end}{end}', storeData), 'not in range, nothing to end');
});

test('TestJSONInput', () => {
  const points = JSON.parse(`[
    {"id": "i1", "x":4, "y":-5},
    {"id": "i2", "x":-2, "y":-5, "z":1},
    {"id": "i3", "x":  8, "y":  3 },
    {"id": "i4", "x": -6, "y": -1 },
    {"id": "i5", "x":  0, "y":  2, "z": 1 },
    {"id": "i6", "x":  1, "y":  4 },
    {"id": "i7", "x":  null, "y":  4 }
  ]`);
  assert.equal(run('{[?(@.z)].id}', points), 'i2 i5');
  assert.equal(run("{[0]['id']}", points), 'i1');
  assert.equal(run("{[-1]['x']}", points), 'null');
});

const nodesData = {
  kind: 'List',
  items: [
    {
      kind: 'None',
      metadata: { name: '127.0.0.1', labels: { 'kubernetes.io/hostname': '127.0.0.1' } },
      status: { capacity: { cpu: '4' }, ready: true, addresses: [{ type: 'LegacyHostIP', address: '127.0.0.1' }] },
    },
    {
      kind: 'None',
      metadata: { name: '127.0.0.2', labels: { 'kubernetes.io/hostname': '127.0.0.2' } },
      status: {
        capacity: { cpu: '8' },
        ready: false,
        addresses: [
          { type: 'LegacyHostIP', address: '127.0.0.2' },
          { type: 'another', address: '127.0.0.3' },
        ],
      },
    },
  ],
  users: [
    { name: 'myself', user: {} },
    { name: 'e2e', user: { username: 'admin', password: 'secret' } },
  ],
};

test('TestKubernetes', () => {
  const cases: Array<[string, string]> = [
    ['{range .items[*]}{.metadata.name}, {end}{.kind}', '127.0.0.1, 127.0.0.2, List'],
    ['{range .items[*]}{.metadata.name}{"\\t"}{end}', '127.0.0.1\t127.0.0.2\t'],
    ['{.items[*].status.addresses[*].address}', '127.0.0.1 127.0.0.2 127.0.0.3'],
    ['{range .items[*]}{range .status.addresses[*]}{.address}, {end}{end}', '127.0.0.1, 127.0.0.2, 127.0.0.3, '],
    ['{.items[*].metadata.name}', '127.0.0.1 127.0.0.2'],
    ["{.items[*]['metadata.name', 'status.capacity']}", '127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}'],
    ['{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}', '[127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] '],
    ['{.users[?(@.name=="e2e")].user.password}', 'secret'],
    ['{.items[0].metadata.labels.kubernetes\\.io/hostname}', '127.0.0.1'],
    ['{.items[?(@.metadata.labels.kubernetes\\.io/hostname=="127.0.0.1")].kind}', 'None'],
    ['{.items[?(@..ready==true)].metadata.name}', '127.0.0.1'],
  ];
  for (const [template, expect] of cases) assert.equal(run(template, nodesData), expect, template);
  // Go visits maps in random order; the test sorts, and so does this one.
  assert.deepEqual(run('{..name}', nodesData).split(' ').sort(), ['127.0.0.1', '127.0.0.2', 'e2e', 'myself']);
});

test('TestEmptyRange', () => {
  const empty = { items: [] };
  assert.equal(run('{range .items[*]}{.metadata.name}{end}', empty, true), '');
  assert.equal(run('{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}', empty, true), '');
});

test('TestNestedRanges', () => {
  const another = [{ name: 'value1' }, { name: 'value2' }];
  const data = {
    items: [
      { metadata: { name: 'pod1' }, spec: { containers: [{ name: 'foo', another }, { name: 'bar', another }] } },
      { metadata: { name: 'pod2' }, spec: { containers: [{ name: 'baz', another }] } },
    ],
  };
  assert.equal(run('{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}', data), 'pod1:foo,bar,+pod2:baz,+');
  assert.equal(
    run('{range .items[*]}{.metadata.name}{"~"}{range @.spec.containers[*]}{.name}{":"}{range @.another[*]}{.name}{","}{end}{"+"}{end}{"#"}{end}', data),
    'pod1~foo:value1,value2,+bar:value1,value2,+#pod2~baz:value1,value2,+#',
  );
  assert.equal(
    run('{range .items[*]}{.metadata.name}{"\\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\\n"}{end}', data),
    'pod1\tfoo bar \tfoo bar \npod2\tbaz \tbaz \n',
  );
});

test('TestFilterPartialMatchesSometimesMissingAnnotations', () => {
  const data = {
    kind: 'List',
    items: [
      { kind: 'Pod', metadata: { name: 'pod1', annotations: { color: 'blue' } } },
      { kind: 'Pod', metadata: { name: 'pod2' } },
      { kind: 'Pod', metadata: { name: 'pod3', annotations: { color: 'green' } } },
      { kind: 'Pod', metadata: { name: 'pod4', annotations: { color: 'blue' } } },
    ],
  };
  const template = '{.items[?(@.metadata.annotations.color=="blue")].metadata.name}';
  assert.equal(run(template, data, true), 'pod1 pod4');
  assert.equal(failure(template, data, false), 'annotations is not found');
});

const containers = (n: number): unknown => ({
  apiVersion: 'v1',
  kind: 'Pod',
  spec: { containers: Array.from({ length: n }, (_, i) => ({ image: 'radial/busyboxplus:curl', name: `fake${i}` })) },
});

test('TestNegativeIndex', () => {
  const data = containers(4);
  const ok: Array<[string, string]> = [
    ['{.spec.containers[0].name}', 'fake0'],
    ['{.spec.containers[0:0].name}', ''],
    ['{.spec.containers[0:-1].name}', 'fake0 fake1 fake2'],
    ['{.spec.containers[-1].name}', 'fake3'],
    ['{.spec.containers[-1:].name}', 'fake3'],
    ['{.spec.containers[-2].name}', 'fake2'],
    ['{.spec.containers[-2:].name}', 'fake2 fake3'],
    ['{.spec.containers[-3].name}', 'fake1'],
    ['{.spec.containers[-4].name}', 'fake0'],
    ['{.spec.containers[-4:].name}', 'fake0 fake1 fake2 fake3'],
    ['{.spec.containers[5:5].name}', ''],
    ['{.spec.containers[-5:-5].name}', ''],
  ];
  for (const [template, expect] of ok) assert.equal(run(template, data), expect, template);
  assert.equal(failure('{.spec.containers[-1:0].name}', data), 'starting index 3 is greater than ending index 0');
  assert.equal(failure('{.spec.containers[-5].name}', data), 'array index out of bounds: index -1, length 4');
  assert.equal(failure('{.spec.containers[3:1].name}', data), 'starting index 3 is greater than ending index 1');
  assert.equal(failure('{.spec.containers[-1:-2].name}', data), 'starting index 3 is greater than ending index 2');
  assert.equal(failure('{.spec.containers[4].name}', data), 'array index out of bounds: index 4, length 4');
  assert.equal(failure('{.spec.containers[1:9].name}', data), 'array index out of bounds: index 8, length 4');
});

test('TestRunningPodsJSONPathOutput', () => {
  const data = {
    kind: 'List',
    items: [
      { kind: 'Pod', metadata: { name: 'pod1' }, status: { phase: 'Running' } },
      { kind: 'Pod', metadata: { name: 'pod2' }, status: { phase: 'Running' } },
      { kind: 'Pod', metadata: { name: 'pod3' }, status: { phase: 'Running' } },
      { resourceVersion: '' },
    ],
  };
  assert.equal(
    run('{range .items[?(.status.phase=="Running")]}{.metadata.name}{" is Running\\n"}{end}', data, true),
    'pod1 is Running\npod2 is Running\npod3 is Running\n',
  );
});

test('TestStep', () => {
  const data = containers(6);
  const ok: Array<[string, string]> = [
    ['{.spec.containers[0:].name}', 'fake0 fake1 fake2 fake3 fake4 fake5'],
    ['{.spec.containers[0:6:].name}', 'fake0 fake1 fake2 fake3 fake4 fake5'],
    ['{.spec.containers[0:6:1].name}', 'fake0 fake1 fake2 fake3 fake4 fake5'],
    ['{.spec.containers[1:4:2].name}', 'fake1 fake3'],
    ['{.spec.containers[1:4:3].name}', 'fake1'],
    ['{.spec.containers[1:4:4].name}', 'fake1'],
    ['{.spec.containers[0:6:2].name}', 'fake0 fake2 fake4'],
    ['{.spec.containers[0:6:3].name}', 'fake0 fake3'],
    ['{.spec.containers[0:6:5].name}', 'fake0 fake5'],
    ['{.spec.containers[0:6:6].name}', 'fake0'],
  ];
  for (const [template, expect] of ok) assert.equal(run(template, data), expect, template);
  assert.equal(failure('{.spec.containers[0:6:0].name}', data), 'step must be > 0');
  assert.equal(failure('{.spec.containers[0:6:-1].name}', data), 'step must be > 0');
});

// ---------------------------------------------------------------- Go value semantics

test('filters compare as text/template does: int against float is an error, strings bytewise', () => {
  const items = { items: [{ n: 1, s: 'b' }, { n: 2, s: 'a' }, { n: 3, s: 'é' }] };
  assert.equal(run('{.items[?(@.n>=2)].n}', items), '2 3');
  assert.equal(run('{.items[?(@.n<=2)].n}', items), '1 2');
  assert.equal(run('{.items[?(@.n!=2)].n}', items), '1 3');
  assert.equal(run('{.items[?(@.n>1)].n}', items), '2 3');
  assert.equal(run('{.items[?(@.s<"b")].s}', items), 'a');
  assert.equal(run('{.items[?(@.s>"z")].s}', items), 'é');
  assert.equal(run('{.items[?(@.s==@.s)].n}', items), '1 2 3');
  assert.equal(failure('{.items[?(@.n==1.0)].n}', items), 'incompatible types for comparison');
  assert.equal(failure('{.items[?(@.n=="1")].n}', items), 'incompatible types for comparison');
  assert.equal(failure('{.items[?(@.n<true)].n}', items), 'incompatible types for comparison');
  assert.equal(failure('{[?(@.b<true)]}', [{ b: false }]), 'invalid type for comparison');
  assert.equal(failure('{[?(@.x==1)]}', [{ x: null }]), 'invalid type for comparison');
  assert.equal(failure('{[?(@.x==1)]}', [{ x: { a: 1 } }]), 'invalid type for comparison');
  assert.equal(run('{[?(@.x==1.5)].x}', [{ x: 1.5 }, { x: 2.5 }]), '1.5');
  assert.equal(failure('{.a[?(@.x)]}', { a: { x: 1 } }), 'map[x:1] is not array or slice and cannot be filtered');
  assert.equal(failure('{.a[?(@.x)]}', { a: null }), '<nil> is not array or slice and cannot be filtered');
  assert.equal(failure('{[?(@..x==1)]}', [{ x: 1, y: { x: 1 } }]), 'can only compare one element at a time');
  // A left side that errors still counts for an exists filter when the failing step handed values back.
  assert.equal(run('{[?(@.a[5])].id}', [{ id: 'short', a: [1] }, { id: 'none' }], true), 'short');
});

test('printing: Go formatting of scalars, JSON for maps and slices', () => {
  const d = { big: 1e6, small: 0.000015, mid: 123456.5, neg: -2.5, nil: null, s: 'hé', m: { b: '<&>', a: [1, 2.5] } };
  assert.equal(run('{.big} {.small} {.mid} {.neg} {.nil}', d), '1000000 1.5e-05 123456.5 -2.5 null');
  assert.equal(run('{3.0} {7} {true} {"x"}', d), '3 7 true x');
  assert.equal(run('{.m}', d), '{"a":[1,2.5],"b":"\\u003c\\u0026\\u003e"}');
  // Wildcarding a string yields its UTF-8 bytes.
  assert.equal(run('{.s.*}', d), '104 195 169');
  assert.equal(run('{@}', 'x'), 'x');
  assert.equal(run('{@}', null), '<no value>');
  assert.equal(failure('{.}', d), ' is not found');
  assert.deepEqual(
    [1e21, 1.5e300, 1234567.5, 100000.5, 0.0001, 0.00001, 2 ** 70].map(goFormatFloat),
    ['1e+21', '1.5e+300', '1.2345675e+06', '100000.5', '0.0001', '1e-05', '1.1805916207174113e+21'],
  );
});

test('recursive descent and wildcards', () => {
  const d = { a: { x: 1, b: { x: 2 } }, c: [{ x: 3 }], x: 0 };
  assert.equal(run('{..x}', d), '0 1 2 3');
  assert.equal(run('{.a.*}', d), '1 {"x":2}');
  assert.equal(run('{.c[*].x}', d), '3');
  assert.equal(run('{..c[0].x}', d), '3');
  assert.equal(run('{.a.b.x.*}', d), '');
  // Null values are skipped by field, index and wildcard steps.
  assert.equal(run('{.n.x}{.n[0]}{.n.*}', { n: null }, true), '');
});

test('findResults: one result set per text and action; a range adds one per item', () => {
  const p = compileJsonPath('a{.x}b{range .l[*]}{@}{end}', { allowMissingKeys: true });
  assert.deepEqual(p.findResults({ x: 1, l: ['p', 'q'] }), [['a'], [1], ['b'], ['p'], ['q']]);
  assert.throws(() => new JsonPath('col').findResults({}), (e: unknown) => e instanceof JsonPathError && e.message === 'col is an incomplete jsonpath template');
});

test('a range leaves the template starting after it for later evaluations, as client-go does', () => {
  const p = compileJsonPath('{range .items[*]}{.name},{end}');
  const data = { name: 'top', items: [{ name: 'a' }, { name: 'b' }] };
  assert.equal(p.execute(data), 'a,b,');
  assert.throws(() => p.execute(data), (e: unknown) => e instanceof JsonPathError && e.message === 'not in range, nothing to end');
});
