// The two shortcuts of the apply path: a JSON apply body read with JSON.parse must give what the YAML
// parser gives (and leave to it whatever it might read differently), and compareStrings must order as
// Go's strings.Compare does (UTF-8 bytes) without encoding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeApplyPatch } from '../../src/registry/patch.js';
import { parseKubeYaml } from '../../src/util/yaml.js';
import { compareStrings } from '../../src/smd/value-order.js';
import { StatusError } from '../../src/api/status.js';

const patchOf = (body: string): unknown => {
  const d = decodeApplyPatch(body);
  assert.ok(!(d instanceof StatusError), `decoding failed: ${d instanceof StatusError ? d.message : ''}`);
  return d.patch;
};

test('a JSON apply body decodes as the YAML parser reads it', () => {
  const bodies = [
    '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a","labels":{"x":"y"}},"spec":{"replicas":3,"image":"img:v1.2.3"}}',
    '  \n{"a": 1e3, "b": 1.5, "c": -0, "d": 12345678901234567890, "f": 1E+2, "g": 0.1e-2, "h": [1, {"<<": {"z": 1}}]}\n',
    '{"e": "x\\/y\\u00e9\\ud83d\\ude00\\n\\t\\"", "yes": "no", "on": true, "n": null, "empty": {}, "list": []}',
    '{"a": 1, "a": 2}',
    '{"nested": {"deep": [[{"k": "v"}], [], [null, false, "0x10", "010"]]}}',
  ];
  for (const b of bodies) assert.deepEqual(patchOf(b), parseKubeYaml(b), b);
});

test('what JSON.parse cannot take, or might read differently, still goes through YAML', () => {
  // YAML that is not JSON.
  assert.deepEqual(patchOf('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  on: yes\n'), parseKubeYaml('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  on: yes\n'));
  // Flow YAML that JSON refuses: unquoted keys and values, a trailing comma, a comment after the object.
  assert.deepEqual(patchOf('{a: yes, b: 1,}'), { a: true, b: 1 });
  assert.deepEqual(patchOf('{"a": 1} # comment'), { a: 1 });
  // Numbers out of range and characters YAML refuses (raw C1 controls, which JSON takes) are the YAML
  // parser's to judge: the outcome is its.
  for (const body of ['{"a": 1e400}', '{"a": -1e400}', '{"a": "\u0086"}', '{"a": "\u007f"}', '\ufeff{"a": 1}']) {
    let viaYaml: unknown;
    try {
      viaYaml = parseKubeYaml(body);
    } catch {
      viaYaml = undefined;
    }
    const d = decodeApplyPatch(body);
    if (viaYaml === undefined) assert.ok(d instanceof StatusError, `${JSON.stringify(body)} is refused as YAML refuses it`);
    else assert.deepEqual(d instanceof StatusError ? d.message : d.patch, viaYaml, JSON.stringify(body));
  }
  // Not an object.
  const arr = decodeApplyPatch('[1, 2]');
  assert.ok(arr instanceof StatusError);
  assert.match(arr.message, /cannot unmarshal array into Go value of type map\[string\]interface \{\}/);
});

test('compareStrings orders as the UTF-8 bytes do', () => {
  const ref = (a: string, b: string): number => Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const alphabet = ['a', 'b', 'A', 'z', '0', '.', '\u00e9', '\u0100', '\ud7ff', '\ue000', '\uffff', '\ud83d\ude00', '\ud800\udc00', '\ud83d', '\ude00', ''];
  // A fixed pseudo-random sequence (xorshift), so a failure reproduces.
  let seed = 0x2545f491;
  const rand = (n: number): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  const word = (): string => Array.from({ length: rand(5) }, () => alphabet[rand(alphabet.length)]).join('');
  for (let i = 0; i < 50_000; i++) {
    const a = word();
    const b = rand(3) === 0 ? a + word() : word();
    assert.equal(compareStrings(a, b), ref(a, b), JSON.stringify([a, b]));
    assert.equal(compareStrings(b, a), ref(b, a), JSON.stringify([b, a]));
  }
  assert.equal(compareStrings('\uffff', '\ud83d\ude00'), -1, 'above the BMP sorts after U+FFFF in UTF-8');
  assert.equal(compareStrings('f:spec', 'f:spec'), 0);
  assert.equal(compareStrings('f:metadata', 'f:spec'), -1);
});
