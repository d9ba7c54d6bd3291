// core/v1 Event (short name ev): the event REST's strategy (no defaults, create on update, validation by
// the request's version), its printer and field selectors. Stored at /registry/events/, which
// events.k8s.io/v1 events share (src/apis/events/v1/event.ts); the server expires them (--event-ttl).
import type { KindDeclaration } from '../../kind.js';
import { reportStrictDecoding } from '../../../schema/unknown-fields.js';
import { Event, EventList } from './event-types.js';
import { eventSelectableFields, eventTable, fillGoZeros } from './event-shared.js';
import { validateEventCreate, validateEventUpdate } from './event-validation.js';

export const EVENTS_KEY_PREFIX = '/registry/events/';

export const eventKind: KindDeclaration = {
  served: {
    group: '',
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
    validate: (obj) => validateEventCreate(obj, 'core/v1'),
    prepareForUpdate: () => undefined,
    validateUpdate: (obj, old) => validateEventUpdate(obj, old, 'core/v1'),
  },
  table: eventTable(),
  selectableFields: eventSelectableFields,
  subresources: [],
};
