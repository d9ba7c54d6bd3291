// ValidateEventCreate / ValidateEventUpdate of kube's pkg/apis/core/validation/events.go, on the core form of
// an event (events.k8s.io objects are converted first), for the API version of the request: core/v1 keeps
// the legacy checks, events.k8s.io/v1 adds the strict ones. Then what rest.BeforeCreate/BeforeUpdate check of
// every object's metadata.
import type { FieldError } from '../../../api/field-error.js';
import { invalid, required } from '../../../api/field-error.js';
import { goRendered, goTimeString, validateObjectMeta, validateObjectMetaUpdate } from '../../../schema/objectmeta.js';
import { isDNS1123Subdomain, isQualifiedName } from '../../../schema/names.js';
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';
import { metaOf } from '../../../registry/store.js';
import { isDeepStrictEqual } from 'node:util';

const REPORTING_INSTANCE_LENGTH_LIMIT = 128;
const ACTION_LENGTH_LIMIT = 128;
const REASON_LENGTH_LIMIT = 128;
const NOTE_LENGTH_LIMIT = 1024;

export type EventRequestVersion = 'core/v1' | 'events.k8s.io/v1';

const str = (o: JSONObject, k: string): string => (typeof o[k] === 'string' ? (o[k] as string) : '');
const obj = (o: JSONObject, k: string): JSONObject => (isObject(o[k]) ? (o[k] as JSONObject) : {});
/** A metav1.Time or MicroTime field is zero when absent or null. */
const isZeroTime = (v: unknown): boolean => typeof v !== 'string' || v === '';
/** Go's len(): bytes. */
const byteLen = (s: string): number => Buffer.byteLength(s, 'utf8');

/** legacyValidateEvent: what every event must satisfy, whichever version it was written through. */
function legacyValidateEvent(ev: JSONObject): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = String(metaOf(ev).namespace ?? '');
  const involvedNamespace = str(obj(ev, 'involvedObject'), 'namespace');
  const mismatch = (): FieldError => invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace');
  if (isZeroTime(ev['eventTime'])) {
    // Events of the old API: the namespace must agree with the involved object's ("default" for cluster objects).
    if (involvedNamespace === '') {
      if (namespace !== '' && namespace !== 'default') errs.push(mismatch());
    } else if (namespace !== involvedNamespace) errs.push(mismatch());
  } else {
    if (involvedNamespace === '' && namespace !== 'default' && namespace !== 'kube-system') errs.push(mismatch());
    const controller = str(ev, 'reportingComponent');
    if (controller === '') errs.push(required('reportingController'));
    for (const msg of isQualifiedName(controller)) errs.push(invalid('reportingController', controller, msg));
    const instance = str(ev, 'reportingInstance');
    if (instance === '') errs.push(required('reportingInstance'));
    if (byteLen(instance) > REPORTING_INSTANCE_LENGTH_LIMIT) errs.push(invalid('reportingInstance', '', `can have at most ${REPORTING_INSTANCE_LENGTH_LIMIT} characters`));
    const action = str(ev, 'action');
    if (action === '') errs.push(required('action'));
    if (byteLen(action) > ACTION_LENGTH_LIMIT) errs.push(invalid('action', '', `can have at most ${ACTION_LENGTH_LIMIT} characters`));
    const reason = str(ev, 'reason');
    if (reason === '') errs.push(required('reason'));
    if (byteLen(reason) > REASON_LENGTH_LIMIT) errs.push(invalid('reason', '', `can have at most ${REASON_LENGTH_LIMIT} characters`));
    if (byteLen(str(ev, 'message')) > NOTE_LENGTH_LIMIT) errs.push(invalid('message', '', `can have at most ${NOTE_LENGTH_LIMIT} characters`));
  }
  for (const msg of isDNS1123Subdomain(namespace)) errs.push(invalid('namespace', namespace, msg));
  return errs;
}

function validateV1EventSeries(ev: JSONObject): FieldError[] {
  const errs: FieldError[] = [];
  const series = ev['series'];
  if (isObject(series)) {
    if (!(typeof series['count'] === 'number' && series['count'] >= 2)) errs.push(invalid('series.count', '', 'should be at least 2'));
    if (isZeroTime(series['lastObservedTime'])) errs.push(required('series.lastObservedTime'));
  }
  return errs;
}

/** ValidateEventCreate, then (when it passed) rest.BeforeCreate's metadata check with path-segment names. */
export function validateEventCreate(ev: JSONObject, version: EventRequestVersion): FieldError[] {
  const errs = legacyValidateEvent(ev);
  if (version === 'events.k8s.io/v1') {
    errs.push(...validateObjectMeta(metaOf(ev), { namespaced: true, nameValidator: 'dns1123Subdomain', coreFinalizerNames: true }, 'metadata'));
    errs.push(...validateV1EventSeries(ev));
    if (isZeroTime(ev['eventTime'])) errs.push(required('eventTime'));
    const type = str(ev, 'type');
    if (type !== 'Normal' && type !== 'Warning') errs.push(invalid('type', '', `has invalid value: ${type}`));
    if (!isZeroTime(ev['firstTimestamp'])) errs.push(invalid('firstTimestamp', '', 'needs to be unset'));
    if (!isZeroTime(ev['lastTimestamp'])) errs.push(invalid('lastTimestamp', '', 'needs to be unset'));
    if (typeof ev['count'] === 'number' && ev['count'] !== 0) errs.push(invalid('count', '', 'needs to be unset'));
    const source = obj(ev, 'source');
    if (str(source, 'component') !== '' || str(source, 'host') !== '') errs.push(invalid('source', '', 'needs to be unset'));
  }
  if (errs.length > 0) return errs;
  return validateObjectMeta(metaOf(ev), { namespaced: true, nameValidator: 'pathSegment' }, 'metadata');
}

/** %#v of a core.ObjectReference (the internal type), as field errors print a struct. */
function goObjectReference(ref: unknown): string {
  const q = (k: string): string => JSON.stringify(str(isObject(ref) ? ref : {}, k));
  return `core.ObjectReference{Kind:${q('kind')}, Namespace:${q('namespace')}, Name:${q('name')}, UID:${q('uid')}, APIVersion:${q('apiVersion')}, ResourceVersion:${q('resourceVersion')}, FieldPath:${q('fieldPath')}}`;
}

const goEventSource = (v: unknown): string => {
  const q = (k: string): string => JSON.stringify(str(isObject(v) ? v : {}, k));
  return `core.EventSource{Component:${q('component')}, Host:${q('host')}}`;
};

/** A stored time (UTC, whole or fractional seconds) as Go's Time.String() prints it; the zero time when unset. */
function goTime(v: unknown): string {
  const m = typeof v === 'string' ? /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(v) : null;
  if (!m) return goTimeString(undefined);
  const nanos = BigInt(Date.parse(`${m[1]!}Z`)) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0').slice(0, 9) || '0');
  return goTimeString(nanos);
}

type Kind = 'string' | 'int' | 'time' | 'reference' | 'source' | 'pointer';

/**
 * ValidateImmutableField: the new value when it differs from the old, printed as field.Error prints it
 * (strings quoted, integers bare, times by their String(), structs as %#v, a nil pointer as "null").
 */
function immutable(ev: JSONObject, old: JSONObject, key: string, path: string, kind: Kind): FieldError[] {
  const a = ev[key] ?? null;
  if (isDeepStrictEqual(a, old[key] ?? null)) return [];
  const rendered = (text: string): JSONObject => goRendered({ value: a } as JSONObject, text);
  const value =
    kind === 'string' ? (a ?? '') :
    kind === 'int' ? (a ?? 0) :
    kind === 'time' ? rendered(goTime(a)) :
    kind === 'source' ? rendered(goEventSource(a)) :
    a === null && kind === 'pointer' ? null :
    rendered(goObjectReference(a));
  return [invalid(path, value, 'field is immutable')];
}

/** rest.BeforeUpdate's common metadata checks, then ValidateEventUpdate. */
export function validateEventUpdate(ev: JSONObject, old: JSONObject, version: EventRequestVersion): FieldError[] {
  const errs = [
    ...validateObjectMeta(metaOf(ev), { namespaced: true, nameValidator: 'pathSegment' }, 'metadata'),
    ...validateObjectMetaUpdate(metaOf(ev), metaOf(old), 'metadata'),
    ...legacyValidateEvent(ev),
  ];
  if (version !== 'events.k8s.io/v1') return errs;
  errs.push(...validateObjectMetaUpdate(metaOf(ev), metaOf(old), 'metadata'));
  if (!isDeepStrictEqual(ev['series'] ?? null, old['series'] ?? null)) errs.push(...validateV1EventSeries(ev));
  // In kube's order, reason twice included.
  errs.push(
    ...immutable(ev, old, 'involvedObject', 'involvedObject', 'reference'),
    ...immutable(ev, old, 'reason', 'reason', 'string'),
    ...immutable(ev, old, 'message', 'message', 'string'),
    ...immutable(ev, old, 'source', 'source', 'source'),
    ...immutable(ev, old, 'firstTimestamp', 'firstTimestamp', 'time'),
    ...immutable(ev, old, 'lastTimestamp', 'lastTimestamp', 'time'),
    ...immutable(ev, old, 'count', 'count', 'int'),
    ...immutable(ev, old, 'reason', 'reason', 'string'),
    ...immutable(ev, old, 'type', 'type', 'string'),
    ...immutable(ev, old, 'eventTime', 'eventTime', 'time'),
    ...immutable(ev, old, 'action', 'action', 'string'),
    ...immutable(ev, old, 'related', 'related', 'pointer'),
    ...immutable(ev, old, 'reportingComponent', 'reportingController', 'string'),
    ...immutable(ev, old, 'reportingInstance', 'reportingInstance', 'string'),
  );
  return errs;
}
