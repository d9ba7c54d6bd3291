import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  GoJsonError,
  RawJson,
  type GoType,
  goAny,
  goJsonCompact,
  goJsonMarshal,
  goJsonSyntaxError,
  goMap,
  goString,
  goUnmarshal,
  rawShape,
} from '../../src/util/go-json.js';

const syntax = (s: string | Uint8Array): string | undefined => goJsonSyntaxError(typeof s === 'string' ? Buffer.from(s) : s);

test('syntax errors carry encoding/json messages', () => {
  assert.equal(syntax('{"a":[1,{"b":null}],"c":-1.5e+3}'), undefined);
  assert.equal(syntax(' "x" '), undefined);
  assert.equal(syntax(''), 'unexpected end of JSON input');
  assert.equal(syntax('{"a":'), 'unexpected end of JSON input');
  assert.equal(syntax('"abc'), 'unexpected end of JSON input');
  assert.equal(syntax('{"a":1,}'), "invalid character '}' looking for beginning of object key string");
  assert.equal(syntax('{"a" 1}'), "invalid character '1' after object key");
  assert.equal(syntax('{"a":1 "b"}'), `invalid character '"' after object key:value pair`);
  assert.equal(syntax('[1 2]'), "invalid character '2' after array element");
  assert.equal(syntax('{"a":1}x'), "invalid character 'x' after top-level value");
  assert.equal(syntax("'a'"), "invalid character '\\'' looking for beginning of value");
  assert.equal(syntax('{bad'), "invalid character 'b' looking for beginning of object key string");
  assert.equal(syntax('"\u0001"'), "invalid character '\\x01' in string literal");
  assert.equal(syntax('"\n"'), "invalid character '\\n' in string literal");
  assert.equal(syntax('"\\q"'), "invalid character 'q' in string escape code");
  assert.equal(syntax('"\\u12g4"'), "invalid character 'g' in \\u hexadecimal character escape");
  assert.equal(syntax('01'), "invalid character '1' after top-level value");
  assert.equal(syntax('-x'), "invalid character 'x' in numeric literal");
  assert.equal(syntax('1.x'), "invalid character 'x' after decimal point in numeric literal");
  assert.equal(syntax('1ex'), "invalid character 'x' in exponent of numeric literal");
  assert.equal(syntax('trUe'), "invalid character 'U' in literal true (expecting 'u')");
  assert.equal(syntax('fals'), "invalid character ' ' in literal false (expecting 'e')");
  assert.equal(syntax('nul'), "invalid character ' ' in literal null (expecting 'l')");
  // Bytes are quoted one at a time: the first byte of "é" reads as U+00C3.
  assert.equal(syntax('é'), "invalid character 'Ã' looking for beginning of value");
  assert.equal(syntax(Buffer.from([0x80])), "invalid character '\\u0080' looking for beginning of value");
  assert.equal(syntax('['.repeat(10001)), "invalid character '[' exceeded max depth");
});

const opType: GoType = { kind: 'struct', name: 'handlers.jsonPatchOp', short: 'jsonPatchOp', fields: { op: goString, value: goAny } };

test('type errors name the Go type, and struct fields by Struct.field', () => {
  assert.throws(() => goUnmarshal('[1]', goMap), new GoJsonError('json: cannot unmarshal array into Go value of type map[string]interface {}'));
  assert.throws(() => goUnmarshal('"s"', goMap), { message: 'json: cannot unmarshal string into Go value of type map[string]interface {}' });
  assert.throws(() => goUnmarshal('true', goMap), { message: 'json: cannot unmarshal bool into Go value of type map[string]interface {}' });
  assert.throws(() => goUnmarshal('2', goMap), { message: 'json: cannot unmarshal number into Go value of type map[string]interface {}' });
  assert.throws(() => goUnmarshal('[{"op":{}}]', { kind: 'slice', name: '[]handlers.jsonPatchOp', elem: opType }), {
    message: 'json: cannot unmarshal object into Go struct field jsonPatchOp.op of type string',
  });
  // Syntax errors anywhere win over type errors.
  assert.throws(() => goUnmarshal('[1,', goMap), (e: unknown) => e instanceof GoJsonError && e.syntax && e.message === 'unexpected end of JSON input');
  assert.equal(goUnmarshal('null', goMap).value, null);
});

test('strict decoding reports duplicate and unknown fields with their paths, once each', () => {
  const r = goUnmarshal('{"a":{"x":1,"x":2},"l":[{"k":1,"k":1}],"a":3}', goMap, { strict: true });
  assert.deepEqual(r.value, { a: 3, l: [{ k: 1 }] });
  assert.deepEqual(r.strictErrors, ['duplicate field "a.x"', 'duplicate field "l[0].k"', 'duplicate field "a"']);
  const ops = goUnmarshal('[{"op":"add","Op":"x","op":"y"},{"op":"a","op":"b"}]', { kind: 'slice', name: '[]x', elem: opType }, { strict: true });
  assert.deepEqual(ops.strictErrors, ['unknown field "[0].Op"', 'duplicate field "[0].op"', 'duplicate field "[1].op"']);
  assert.deepEqual(goUnmarshal('{"a":1,"a":2}', goMap).strictErrors, []);
});

test('raw maps keep member text as json.RawMessage does', () => {
  const v = goUnmarshal('{"op":"add", "value": { "a" : 1.0 },"n":null}', { kind: 'rawMap', name: 'jsonpatch.Operation' }).value as Record<string, RawJson | null>;
  assert.ok(v.op instanceof RawJson);
  assert.equal(v.op.text, '"add"');
  assert.equal(v.value!.text, '{ "a" : 1.0 }');
  assert.equal(v.n, null);
  const shape = rawShape(v.value!);
  assert.equal(shape.kind, 'object');
  assert.equal(shape.kind === 'object' && shape.entries.get('a')!.text, '1.0');
  assert.deepEqual(rawShape(new RawJson(' [1, null] ')), { kind: 'array', items: [new RawJson('1'), null] });
  assert.deepEqual(rawShape(new RawJson('"x"')), { kind: 'scalar' });
});

test('goJsonMarshal matches json.Marshal: sorted keys, HTML-safe escapes', () => {
  assert.equal(goJsonMarshal({ b: 1, a: ['<x>', '&', 'é', '\u2028', 'q"\\\n\t\u0001'], c: null, d: 1.5, e: true }), '{"a":["\\u003cx\\u003e","\\u0026","é","\\u2028","q\\"\\\\\\n\\t\\u0001"],"b":1,"c":null,"d":1.5,"e":true}');
  assert.equal(goJsonCompact(' { "a" : [ 1 , "b c" ] } '), '{"a":[1,"b c"]}');
});
