// Cost of storing built-in kinds as protobuf on etcd (src/server/protobuf-storage.ts): encode (the stored
// JSON text to `k8s\0` protobuf) and decode (back to the same text) per ConfigMap, against what the etcd
// store did before (UTF-8 bytes of the JSON and back). Run: node --import tsx bench/storage-codec.ts
import { protobufStorageCodecs } from '../src/server/protobuf-storage.js';

const codec = protobufStorageCodecs()('/registry/configmaps/default/x')!;
const meta = (name: string) =>
  `"metadata":{"name":"${name}","namespace":"default","uid":"6c4f1f8e-2d1a-4a43-9d51-0c4b3f2f9a10","resourceVersion":"","creationTimestamp":"2026-11-26T17:00:00Z","labels":{"app":"web","tier":"frontend"},"managedFields":[{"manager":"kubectl-create","operation":"Update","apiVersion":"v1","time":"2026-11-26T17:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:a":{},"f:b":{}},"f:metadata":{"f:labels":{".":{},"f:app":{},"f:tier":{}}}}}]}`;
const small = `{"kind":"ConfigMap","apiVersion":"v1",${meta('small')},"data":{"a":"1","b":"two"}}`;
const cert = 'MIIC' + 'A'.repeat(1100);
const large = `{"kind":"ConfigMap","apiVersion":"v1",${meta('kube-root-ca.crt')},"data":{"a":"-----BEGIN CERTIFICATE-----\\n${cert}\\n-----END CERTIFICATE-----\\n","b":"x"}}`;

function time(label: string, n: number, fn: () => void): number {
  for (let i = 0; i < 2000; i++) fn();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  const us = Number(process.hrtime.bigint() - t0) / 1e3 / n;
  console.log(`${label.padEnd(44)} ${us.toFixed(2).padStart(7)} µs`);
  return us;
}

for (const [name, json] of [['small ConfigMap', small], ['ConfigMap with a 1.1 KB certificate', large]] as const) {
  const pb = codec.encode(json)!;
  if (codec.decode(pb) !== json) throw new Error('round trip differs');
  console.log(`${name}: ${json.length} B JSON, ${pb.length} B protobuf`);
  const n = 50_000;
  time('  encode (JSON text → k8s\\0 protobuf)', n, () => codec.encode(json));
  time('  decode (protobuf → the same JSON text)', n, () => codec.decode(pb));
  time('  before: Buffer.from(json) + toString()', n, () => Buffer.from(json, 'utf8').toString('utf8'));
}
