// core/v1 Event and the core types events.k8s.io/v1 Event shares (ObjectReference, declared with
// LocalObjectReference; EventSource): Go structs
// with their json tags, generated.proto numbers and OpenAPI docs as k8s.io/api v0.33.
import { field as f, kindStruct, struct } from '../../../api/go-struct.js';
import { ListMeta } from '../../meta/v1/list-meta.js';
import { ObjectMeta } from '../../meta/v1/object-meta.js';
import { ObjectReference } from './object-reference.js';

export const CORE_V1 = 'io.k8s.api.core.v1';
const METADATA_DOC = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

export { ObjectReference };

export const EventSource = struct(
  'EventSource',
  [
    f(1, 'component', 'string', 'omit', { doc: 'Component from which the event is generated.' }),
    f(2, 'host', 'string', 'omit', { doc: 'Node name on which the event is generated.' }),
  ],
  { openapi: CORE_V1, doc: 'EventSource contains information for an event.' },
);

const EventSeries = struct(
  'EventSeries',
  [
    f(1, 'count', 'int32', 'omit', { doc: 'Number of occurrences in this series up to the last heartbeat time' }),
    f(2, 'lastObservedTime', 'microTime', 'omit', { doc: 'Time of the last occurrence observed' }),
  ],
  { openapi: CORE_V1, doc: 'EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time.' },
);

export const Event = kindStruct(
  'Event',
  [
    // Neither omitempty nor +optional: OpenAPI requires it, unlike most kinds' metadata.
    f(1, 'metadata', ObjectMeta, '', { go: 'ObjectMeta', doc: METADATA_DOC }),
    f(2, 'involvedObject', ObjectReference, '', { doc: 'The object that this event is about.' }),
    f(3, 'reason', 'string', 'omit', { doc: "This should be a short, machine understandable string that gives the reason for the transition into the object's current status." }),
    f(4, 'message', 'string', 'omit', { doc: 'A human-readable description of the status of this operation.' }),
    f(5, 'source', EventSource, 'omit', { doc: 'The component reporting this event. Should be a short machine understandable string.' }),
    f(6, 'firstTimestamp', 'time', 'omit', { doc: 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)' }),
    f(7, 'lastTimestamp', 'time', 'omit', { doc: 'The time at which the most recent occurrence of this event was recorded.' }),
    f(8, 'count', 'int32', 'omit', { doc: 'The number of times this event has occurred.' }),
    f(9, 'type', 'string', 'omit', { doc: 'Type of this event (Normal, Warning), new types could be added in the future' }),
    f(10, 'eventTime', 'microTime', 'omit', { doc: 'Time when this Event was first observed.' }),
    f(11, 'series', EventSeries, 'ptr omit', { doc: "Data about the Event series this event represents or nil if it's a singleton Event." }),
    f(12, 'action', 'string', 'omit', { doc: 'What action was taken/failed regarding to the Regarding object.' }),
    f(13, 'related', ObjectReference, 'ptr omit', { doc: 'Optional secondary object for more complex actions.' }),
    f(14, 'reportingComponent', 'string', 'opt', { go: 'ReportingController', doc: 'Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.' }),
    f(15, 'reportingInstance', 'string', 'opt', { doc: 'ID of the controller instance, e.g. `kubelet-xyzf`.' }),
  ],
  {
    openapi: CORE_V1,
    doc: 'Event is a report of an event somewhere in the cluster.  Events have a limited retention time and triggers and messages may evolve with time.  Event consumers should not rely on the timing of an event with a given Reason reflecting a consistent underlying trigger, or the continued existence of events with that Reason.  Events should be treated as informative, best-effort, supplemental data.',
  },
);

export const EventList = kindStruct(
  'EventList',
  [
    f(1, 'metadata', ListMeta, 'omit', { go: 'ListMeta', doc: 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds' }),
    f(2, 'items', Event, 'slice', { doc: 'List of events' }),
  ],
  { openapi: CORE_V1, doc: 'EventList is a list of events.' },
);
