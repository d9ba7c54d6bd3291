// events.k8s.io/v1 Event: the same stored objects as core/v1 events (/registry/events/, stored as core/v1),
// converted at the endpoint as kube's pkg/apis/events/v1 conversion does (regarding ↔ involvedObject,
// note ↔ message, reportingController ↔ reportingComponent, deprecated* ↔ the core fields), validated
// strictly (the request's version is events.k8s.io/v1), printed and selected through the core form.
import { field as f, kindStruct, struct } from '../../../api/go-struct.js';
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';
import { ListMeta } from '../../meta/v1/list-meta.js';
import { metadataField } from '../../meta/v1/object-meta.js';
import { reportStrictDecoding } from '../../../schema/unknown-fields.js';
import type { KindDeclaration } from '../../kind.js';
import { typedOrder } from '../../../registry/typed-order.js';
import { Event as CoreEvent, EventSource, ObjectReference } from '../../core/v1/event-types.js';
import { EVENTS_KEY_PREFIX } from '../../core/v1/event.js';
import { dropGoOmitted, eventSelectableFields, eventTable, fillGoZeros } from '../../core/v1/event-shared.js';
import { validateEventCreate, validateEventUpdate } from '../../core/v1/event-validation.js';

const EVENTS_V1 = 'io.k8s.api.events.v1';
const RESTRICTED = 'This field cannot be empty for new Events and it can have at most 128 characters.';
const COMPAT = 'is the deprecated field assuring backward compatibility with core.v1 Event type.';

const EventSeries = struct(
  'EventSeries',
  [
    f(1, 'count', 'int32', '', { doc: 'count is the number of occurrences in this series up to the last heartbeat time.' }),
    f(2, 'lastObservedTime', 'microTime', '', { doc: 'lastObservedTime is the time when last Event from the series was seen before last heartbeat.' }),
  ],
  {
    openapi: EVENTS_V1,
    doc: 'EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time. How often to update the EventSeries is up to the event reporters. The default event reporter in "k8s.io/client-go/tools/events/event_broadcaster.go" shows how this struct is updated on heartbeats and can guide customized reporter implementations.',
  },
);

export const Event = kindStruct(
  'Event',
  [
    metadataField("Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"),
    f(2, 'eventTime', 'microTime', '', { doc: 'eventTime is the time when this Event was first observed. It is required.' }),
    f(3, 'series', EventSeries, 'ptr omit', { doc: "series is data about the Event series this event represents or nil if it's a singleton Event." }),
    f(4, 'reportingController', 'string', 'omit', {
      doc: 'reportingController is the name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`. This field cannot be empty for new Events.',
    }),
    f(5, 'reportingInstance', 'string', 'omit', { doc: `reportingInstance is the ID of the controller instance, e.g. \`kubelet-xyzf\`. ${RESTRICTED}` }),
    f(6, 'action', 'string', 'omit', { doc: `action is what action was taken/failed regarding to the regarding object. It is machine-readable. ${RESTRICTED}` }),
    f(7, 'reason', 'string', 'omit', { doc: `reason is why the action was taken. It is human-readable. ${RESTRICTED}` }),
    f(8, 'regarding', ObjectReference, 'omit', {
      doc: "regarding contains the object this Event is about. In most cases it's an Object reporting controller implements, e.g. ReplicaSetController implements ReplicaSets and this event is emitted because it acts on some changes in a ReplicaSet object.",
    }),
    f(9, 'related', ObjectReference, 'ptr omit', {
      doc: 'related is the optional secondary object for more complex actions. E.g. when regarding object triggers a creation or deletion of related object.',
    }),
    f(10, 'note', 'string', 'omit', {
      doc: 'note is a human-readable description of the status of this operation. Maximal length of the note is 1kB, but libraries should be prepared to handle values up to 64kB.',
    }),
    f(11, 'type', 'string', 'omit', { doc: 'type is the type of this event (Normal, Warning), new types could be added in the future. It is machine-readable. This field cannot be empty for new Events.' }),
    f(12, 'deprecatedSource', EventSource, 'omit', { doc: `deprecatedSource ${COMPAT}` }),
    f(13, 'deprecatedFirstTimestamp', 'time', 'omit', { doc: `deprecatedFirstTimestamp ${COMPAT}` }),
    f(14, 'deprecatedLastTimestamp', 'time', 'omit', { doc: `deprecatedLastTimestamp ${COMPAT}` }),
    f(15, 'deprecatedCount', 'int32', 'omit', { doc: `deprecatedCount ${COMPAT}` }),
  ],
  {
    openapi: EVENTS_V1,
    doc: 'Event is a report of an event somewhere in the cluster. It generally denotes some state change in the system. Events have a limited retention time and triggers and messages may evolve with time.  Event consumers should not rely on the timing of an event with a given Reason reflecting a consistent underlying trigger, or the continued existence of events with that Reason.  Events should be treated as informative, best-effort, supplemental data.',
  },
);

const EventList = kindStruct(
  'EventList',
  [
    f(1, 'metadata', ListMeta, 'omit', { go: 'ListMeta', doc: 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata' }),
    f(2, 'items', Event, 'slice', { doc: 'items is a list of schema objects.' }),
  ],
  { openapi: EVENTS_V1, doc: 'EventList is a list of Event objects.' },
);

const coreOrder = typedOrder(CoreEvent);
const eventsOrder = typedOrder(Event);

/** events.k8s.io/v1 field ↔ core/v1 field, in events.k8s.io/v1 order; the others keep their names. */
const RENAMED: ReadonlyArray<readonly [string, string]> = [
  ['reportingController', 'reportingComponent'],
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

/** The series as the other version's Go struct encodes it: every field, zero or not. */
function convertSeries(series: unknown, to: 'core' | 'events'): JSONObject | undefined {
  if (!isObject(series)) return undefined;
  const out: JSONObject = {};
  const count = typeof series['count'] === 'number' ? series['count'] : 0;
  if (to === 'events' || count !== 0) out['count'] = count; // core's count is omitempty
  out['lastObservedTime'] = series['lastObservedTime'] ?? null;
  return out;
}

function convert(obj: JSONObject, from: 'core' | 'events', target: { kind: string; apiVersion: string }): JSONObject {
  const names = new Map(RENAMED.map(([ev, core]) => (from === 'events' ? [ev, core] : [core, ev])));
  const out: JSONObject = { kind: target.kind, apiVersion: target.apiVersion };
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'kind' || k === 'apiVersion') continue;
    out[names.get(k) ?? k] = k === 'series' ? convertSeries(v, from === 'events' ? 'core' : 'events') : v;
  }
  if (out['series'] === undefined) delete out['series'];
  const struct_ = from === 'events' ? CoreEvent : Event;
  dropGoOmitted(out, struct_);
  fillGoZeros(out, struct_);
  // Go struct order, as the converted object would encode (stored, or served).
  return from === 'events' ? coreOrder(out) : eventsOrder(out);
}

/** An events.k8s.io/v1 event in its stored (core/v1) form. */
export const eventsToCore = (obj: JSONObject): JSONObject => convert(obj, 'events', { kind: 'Event', apiVersion: 'v1' });
/** A stored (core/v1) event at events.k8s.io/v1. */
export const coreToEvents = (obj: JSONObject): JSONObject => convert(obj, 'core', { kind: 'Event', apiVersion: 'events.k8s.io/v1' });

/**
 * The field labels of events.k8s.io/v1 (AddFieldLabelConversionsForEvent of pkg/apis/events/v1), each the
 * core selectable field it stands for; involvedObject.* and reportingComponent are not among them.
 */
const FIELD_LABELS: ReadonlyArray<readonly [string, string]> = [
  ['reason', 'reason'],
  ['regarding.kind', 'involvedObject.kind'],
  ['regarding.namespace', 'involvedObject.namespace'],
  ['regarding.name', 'involvedObject.name'],
  ['regarding.uid', 'involvedObject.uid'],
  ['regarding.apiVersion', 'involvedObject.apiVersion'],
  ['regarding.resourceVersion', 'involvedObject.resourceVersion'],
  ['regarding.fieldPath', 'involvedObject.fieldPath'],
  ['reportingController', 'reportingComponent'],
  ['source', 'source'],
  ['type', 'type'],
  ['metadata.namespace', 'metadata.namespace'],
  ['metadata.name', 'metadata.name'],
];

function eventsSelectableFields(obj: JSONObject): Record<string, string> {
  const core = eventSelectableFields(eventsToCore(obj));
  return Object.fromEntries(FIELD_LABELS.map(([label, field]) => [label, core[field] ?? '']));
}

export const eventsV1Kind: KindDeclaration = {
  served: {
    group: 'events.k8s.io',
    version: 'v1',
    resource: 'events',
    singularName: 'event',
    kind: 'Event',
    listKind: 'EventList',
    namespaced: true,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['ev'],
    categories: [],
    subresources: {},
  },
  groupPriorityMinimum: 17750,
  // Stored as core/v1 Event: discovery's hash names that.
  storageGroup: '',
  storageVersion: 'v1',
  keyPrefix: EVENTS_KEY_PREFIX,
  object: Event,
  list: EventList,
  protobuf: true,
  strategy: {
    admitBody(obj, fieldValidation, warnings, decodeErrors = []) {
      reportStrictDecoding(decodeErrors, fieldValidation, warnings, 'Event', 'v1');
      fillGoZeros(obj, Event);
    },
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
    prepareForCreate: () => undefined,
    validate: (obj) => validateEventCreate(eventsToCore(obj), 'events.k8s.io/v1'),
    prepareForUpdate: () => undefined,
    validateUpdate: (obj, old) => validateEventUpdate(eventsToCore(obj), eventsToCore(old), 'events.k8s.io/v1'),
  },
  table: eventTable(eventsToCore),
  selectableFields: eventsSelectableFields,
  subresources: [],
  storage: { fromStorage: coreToEvents, toStorage: eventsToCore, object: CoreEvent },
};
