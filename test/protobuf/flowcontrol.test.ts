// Protobuf bodies of the flowcontrol kinds (as client-go's typed clients send them): every field of a
// FlowSchema and a PriorityLevelConfiguration, a nil nominalConcurrencyShares written as encoding/json
// writes a nil pointer without omitempty (null, which defaulting then makes 30).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobufObject, type DecodeTarget } from '../../src/server/protobuf.js';
import { StatusError } from '../../src/api/status.js';
import { envelope, int, msg, str } from './wire-writer.js';

const FC = 'flowcontrol.apiserver.k8s.io/v1';
const FS: DecodeTarget = { apiVersion: FC, kind: 'FlowSchema' };
const PL: DecodeTarget = { apiVersion: FC, kind: 'PriorityLevelConfiguration' };

function decoded(kind: string, raw: number[], into: DecodeTarget): string {
  const r = decodeProtobufObject(envelope(FC, kind, raw), into);
  if (r instanceof StatusError) assert.fail(r.message);
  return JSON.stringify(r.object);
}

test('FlowSchema: spec with every rule and subject field, status conditions', () => {
  const raw = [
    ...msg(1, str(1, 'pb')),
    ...msg(
      2,
      msg(1, str(1, 'global-default')),
      int(2, 500),
      msg(3, str(1, 'ByUser')),
      msg(
        4,
        msg(1, str(1, 'ServiceAccount'), msg(4, str(1, 'default'), str(2, 'x'))),
        msg(1, str(1, 'User'), msg(2, str(1, 'u'))),
        msg(1, str(1, 'Group'), msg(3, str(1, 'g'))),
        msg(2, str(1, 'get'), str(2, ''), str(3, 'pods'), int(4, true), str(5, 'default')),
        msg(3, str(1, 'get'), str(6, '/healthz')),
      ),
    ),
    ...msg(3, msg(1, str(1, 'Dangling'), str(2, 'False'), str(4, 'Found'), str(5, 'm'))),
  ];
  assert.equal(
    decoded('FlowSchema', raw, FS),
    '{"kind":"FlowSchema","apiVersion":"flowcontrol.apiserver.k8s.io/v1","metadata":{"name":"pb","creationTimestamp":null},' +
      '"spec":{"priorityLevelConfiguration":{"name":"global-default"},"matchingPrecedence":500,"distinguisherMethod":{"type":"ByUser"},' +
      '"rules":[{"subjects":[{"kind":"ServiceAccount","serviceAccount":{"namespace":"default","name":"x"}},{"kind":"User","user":{"name":"u"}},{"kind":"Group","group":{"name":"g"}}],' +
      '"resourceRules":[{"verbs":["get"],"apiGroups":[""],"resources":["pods"],"clusterScope":true,"namespaces":["default"]}],' +
      '"nonResourceRules":[{"verbs":["get"],"nonResourceURLs":["/healthz"]}]}]},' +
      '"status":{"conditions":[{"type":"Dangling","status":"False","lastTransitionTime":null,"reason":"Found","message":"m"}]}}',
  );
});

test('PriorityLevelConfiguration: limited with queuing, an explicit zero share, a nil one', () => {
  const queued = [...msg(1, str(1, 'pb')), ...msg(2, str(1, 'Limited'), msg(2, int(1, 0), msg(2, str(1, 'Queue'), msg(2, int(1, 16), int(2, 4), int(3, 10))), int(3, 5), int(4, 20)))];
  assert.equal(
    decoded('PriorityLevelConfiguration', queued, PL),
    '{"kind":"PriorityLevelConfiguration","apiVersion":"flowcontrol.apiserver.k8s.io/v1","metadata":{"name":"pb","creationTimestamp":null},' +
      '"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":0,"limitResponse":{"type":"Queue","queuing":{"queues":16,"handSize":4,"queueLengthLimit":10}},"lendablePercent":5,"borrowingLimitPercent":20}},"status":{}}',
  );
  const reject = [...msg(1, str(1, 'pb')), ...msg(2, str(1, 'Limited'), msg(2, msg(2, str(1, 'Reject'))))];
  assert.match(decoded('PriorityLevelConfiguration', reject, PL), /"limited":\{"nominalConcurrencyShares":null,"limitResponse":\{"type":"Reject"\}\}/);
  const exempt = [...msg(1, str(1, 'exempt')), ...msg(2, str(1, 'Exempt'), msg(3, int(1, 7), int(2, 0)))];
  assert.match(decoded('PriorityLevelConfiguration', exempt, PL), /"spec":\{"type":"Exempt","exempt":\{"nominalConcurrencyShares":7,"lendablePercent":0\}\}/);
});
