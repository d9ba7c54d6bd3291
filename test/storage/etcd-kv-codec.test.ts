// The hand-written etcd KV messages (src/storage/etcd-kv-codec.ts) against protobufjs reading and writing
// the same messages from etcd's own .proto files (the ones etcd3 ships): every request we encode decodes
// there to what we meant, and every response protobufjs encodes (unknown fields, large revisions and
// empty values included) decodes here to the same key-values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import protobuf from 'protobufjs';
import {
  decodeCompaction,
  decodeRange,
  decodeTxn,
  encodeCompaction,
  encodePut,
  encodeWatchCancel,
  encodeWatchCreate,
  decodeWatchResponse,
  encodeRange,
  encodeTxn,
  type EtcdKv,
  type RangeRequest,
  type TxnRequest,
} from '../../src/storage/etcd-kv-codec.js';
import { prng } from '../prng.js';

const protoDir = join(dirname(createRequire(import.meta.url).resolve('etcd3/package.json')), 'proto');
const root = new protobuf.Root().loadSync(join(protoDir, 'rpc.proto'), { keepCase: true });
const type = (name: string): protobuf.Type => root.lookupType(name);
const asObject = (t: protobuf.Type, bytes: Uint8Array): Record<string, unknown> =>
  t.toObject(t.decode(bytes), { longs: Number, enums: String, bytes: Buffer, defaults: false, oneofs: true }) as Record<string, unknown>;

/** The message inside our frame, checking the frame's 5-byte prefix. */
function unframe(frame: Buffer): Buffer {
  assert.equal(frame[0], 0, 'uncompressed');
  assert.equal(frame.readUInt32BE(1), frame.length - 5, 'length prefix');
  return frame.subarray(5);
}

const b = (s: string): Buffer => Buffer.from(s, 'utf8');

test('range requests decode in protobufjs to the fields we set, and nothing else', () => {
  const cases: Array<[RangeRequest, Record<string, unknown>]> = [
    [{ key: b('/registry/a') }, { key: b('/registry/a') }],
    [
      { key: b('/registry/'), range_end: b('/registry0'), limit: 500, revision: 2 ** 40 + 7, count_only: true },
      { key: b('/registry/'), range_end: b('/registry0'), limit: 500, revision: 2 ** 40 + 7, count_only: true },
    ],
    [{ key: b('\0'), limit: 0, revision: 0, count_only: false }, { key: b('\0') }],
  ];
  for (const [req, want] of cases) assert.deepEqual(asObject(type('etcdserverpb.RangeRequest'), unframe(encodeRange(req))), want);
});

test('transactions decode in protobufjs to the compares and operations we meant', () => {
  const value = Buffer.alloc(300_000, 0x61); // a nested length past three varint bytes
  const req: TxnRequest = {
    compare: [
      { key: b('compact_rev_key'), target: 'version', result: 'equal', revision: 4 },
      { key: b('/k'), target: 'create', result: 'equal', revision: 0 },
      { key: b('/k'), target: 'mod', result: 'equal', revision: 123_456_789_012 },
      { key: b('/k'), target: 'create', result: 'greater', revision: 0 },
    ],
    success: [{ put: { key: b('/k'), value, prev_kv: true } }, { delete: { key: b('/d'), prev_kv: true } }],
    failure: [{ range: { key: b('/k') } }],
  };
  const got = asObject(type('etcdserverpb.TxnRequest'), unframe(encodeTxn(req)));
  assert.deepEqual(got, {
    compare: [
      { key: b('compact_rev_key'), version: 4, target_union: 'version' },
      // Go's clients send the oneof's revision even at 0; so do we (protobufjs shows it present). The enum
      // names are etcd3's copy of the proto's.
      { key: b('/k'), target: 'Create', create_revision: 0, target_union: 'create_revision' },
      { key: b('/k'), target: 'Mod', mod_revision: 123_456_789_012, target_union: 'mod_revision' },
      { key: b('/k'), target: 'Create', result: 'Greater', create_revision: 0, target_union: 'create_revision' },
    ],
    success: [
      { request_put: { key: b('/k'), value, prev_kv: true }, request: 'request_put' },
      { request_delete_range: { key: b('/d'), prev_kv: true }, request: 'request_delete_range' },
    ],
    failure: [{ request_range: { key: b('/k') }, request: 'request_range' }],
  });
  assert.deepEqual(asObject(type('etcdserverpb.CompactionRequest'), unframe(encodeCompaction(987_654))), { revision: 987_654 });
  assert.deepEqual(asObject(type('etcdserverpb.PutRequest'), unframe(encodePut(b('/p'), b('v')))), { key: b('/p'), value: b('v') });
});

/** A key-value as protobufjs encodes one, with the fields we do not read set too. */
function pbKv(kv: EtcdKv, extra: { lease?: number } = {}): Record<string, unknown> {
  return { key: kv.key, value: kv.value, create_revision: kv.create_revision, mod_revision: kv.mod_revision, version: kv.version, lease: extra.lease ?? 0 };
}

const header = (revision: number): Record<string, unknown> => ({ cluster_id: '14841639068965178418', member_id: '10276657743932975437', revision, raft_term: 9 });

test('range and transaction responses written by protobufjs decode to the same key-values', () => {
  const next = prng(7);
  const rng = { int: (n: number): number => Math.floor(next() * n) };
  for (let round = 0; round < 200; round++) {
    const kvs: EtcdKv[] = Array.from({ length: rng.int(4) }, (_, i) => ({
      key: b(`/registry/things/ns/n${round}-${i}`),
      value: rng.int(5) === 0 ? Buffer.alloc(0) : Buffer.from(JSON.stringify({ n: rng.int(1e9), s: 'x'.repeat(rng.int(3000)) })),
      create_revision: 1 + rng.int(2 ** 45),
      mod_revision: 1 + rng.int(2 ** 45),
      version: 1 + rng.int(50),
    }));
    const revision = 1 + rng.int(2 ** 50);
    const rangeMsg = { header: header(revision), kvs: kvs.map((kv) => pbKv(kv, { lease: rng.int(2) ? 7 : 0 })), more: round % 2 === 0, count: kvs.length + rng.int(100) };
    const rangeType = type('etcdserverpb.RangeResponse');
    const got = decodeRange(Buffer.from(rangeType.encode(rangeType.fromObject(rangeMsg)).finish()));
    assert.deepEqual(got, { revision, kvs, more: rangeMsg.more, count: rangeMsg.count });

    const txnType = type('etcdserverpb.TxnResponse');
    const txnMsg = {
      header: header(revision),
      succeeded: round % 3 !== 0,
      responses: [
        { response_range: rangeMsg },
        { response_put: { header: header(revision), ...(kvs[0] && { prev_kv: pbKv(kvs[0]) }) } },
        { response_delete_range: { header: header(revision), deleted: kvs.length, prev_kvs: kvs.map((kv) => pbKv(kv)) } },
      ],
    };
    const txn = decodeTxn(Buffer.from(txnType.encode(txnType.fromObject(txnMsg)).finish()));
    assert.equal(txn.revision, revision);
    assert.equal(txn.succeeded, txnMsg.succeeded);
    assert.deepEqual(txn.responses[0], { range: { revision, kvs, more: rangeMsg.more, count: rangeMsg.count } });
    assert.deepEqual(txn.responses[1], { put: kvs[0] ? { prev_kv: kvs[0] } : {} });
    assert.deepEqual(txn.responses[2], { delete: { deleted: kvs.length, prev_kvs: kvs } });
  }
  const compaction = type('etcdserverpb.CompactionResponse');
  assert.equal(decodeCompaction(Buffer.from(compaction.encode(compaction.fromObject({ header: header(42) })).finish())), 42);
});

test('a truncated response is an error, not a short answer', () => {
  const rangeType = type('etcdserverpb.RangeResponse');
  const whole = Buffer.from(rangeType.encode(rangeType.fromObject({ header: header(5), kvs: [pbKv({ key: b('/a'), value: b('{}'), create_revision: 2, mod_revision: 5, version: 2 })] })).finish());
  for (let cut = 1; cut < whole.length; cut++) {
    // A cut that happens to end on a field boundary is a valid shorter message; any other must throw.
    try {
      decodeRange(whole.subarray(0, cut));
    } catch (err) {
      assert.match((err as Error).message, /^etcd response: /);
    }
  }
  assert.throws(() => decodeRange(whole.subarray(0, whole.length - 1)), /etcd response: truncated/);
});

test('watch requests decode in protobufjs as meant, and watch responses from protobufjs decode here', () => {
  const watchRequest = type('etcdserverpb.WatchRequest');
  assert.deepEqual(asObject(watchRequest, unframe(encodeWatchCreate({ key: b('/registry/'), range_end: b('/registry0'), start_revision: 2 ** 33, watch_id: 12 }))), {
    create_request: { key: b('/registry/'), range_end: b('/registry0'), start_revision: 2 ** 33, prev_kv: true, watch_id: 12 },
    request_union: 'create_request',
  });
  assert.deepEqual(asObject(watchRequest, unframe(encodeWatchCancel(12))), { cancel_request: { watch_id: 12 }, request_union: 'cancel_request' });

  const watchResponse = type('etcdserverpb.WatchResponse');
  const encode = (o: Record<string, unknown>): Buffer => Buffer.from(watchResponse.encode(watchResponse.fromObject(o)).finish());
  const kv = { key: b('/registry/a'), value: b('{"a":1}'), create_revision: 3, mod_revision: 9, version: 4 };
  const prev = { ...kv, value: b('{"a":0}'), mod_revision: 7, version: 3 };
  assert.deepEqual(
    decodeWatchResponse(encode({ header: header(9), watch_id: 12, events: [{ type: 'Put', kv: pbKv(kv), prev_kv: pbKv(prev) }, { type: 'Delete', kv: { key: kv.key, mod_revision: 10 } }] })),
    {
      watch_id: 12,
      created: false,
      canceled: false,
      compact_revision: 0,
      cancel_reason: '',
      events: [
        { type: 'put', kv, prev_kv: prev },
        { type: 'delete', kv: { key: kv.key, value: Buffer.alloc(0), create_revision: 0, mod_revision: 10, version: 0 } },
      ],
    },
  );
  // A refused create (watch id -1 as etcd sends it: ten bytes of varint) and a compaction's cancel.
  const refused = decodeWatchResponse(encode({ header: header(9), watch_id: -1, created: true, canceled: true, cancel_reason: 'etcdserver: no leader' }));
  assert.equal(refused.created, true);
  assert.equal(refused.canceled, true);
  assert.equal(refused.cancel_reason, 'etcdserver: no leader');
  assert.ok(refused.watch_id > 2 ** 53, 'no watch has that id');
  assert.deepEqual(decodeWatchResponse(encode({ header: header(20), watch_id: 3, canceled: true, compact_revision: 15 })), {
    watch_id: 3,
    created: false,
    canceled: true,
    compact_revision: 15,
    cancel_reason: '',
    events: [],
  });
});
