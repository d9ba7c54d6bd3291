// kube's v1 defaulting of flowcontrol objects (pkg/apis/flowcontrol/v1/defaults.go), as the decoder applies
// it to every body and stored object: mutates plain v1 JSON in place.
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';

export const FLOW_SCHEMA_DEFAULT_MATCHING_PRECEDENCE = 1000;
export const DEFAULT_HAND_SIZE = 8;
export const DEFAULT_QUEUES = 64;
export const DEFAULT_QUEUE_LENGTH_LIMIT = 50;
export const DEFAULT_NOMINAL_CONCURRENCY_SHARES = 30;

const unset = (v: unknown): boolean => v === undefined || v === null;
/** A Go int32 field that decodes to 0 (absent, null or 0). */
const zero = (v: unknown): boolean => unset(v) || v === 0;

/** SetObjectDefaults_FlowSchema: matchingPrecedence 0 becomes 1000. */
export function setFlowSchemaDefaults(obj: JSONObject): void {
  if (!isObject(obj['spec'])) obj['spec'] = {};
  const spec = obj['spec'] as JSONObject;
  if (zero(spec['matchingPrecedence'])) spec['matchingPrecedence'] = FLOW_SCHEMA_DEFAULT_MATCHING_PRECEDENCE;
}

/**
 * SetObjectDefaults_PriorityLevelConfiguration: a limited level's nil nominalConcurrencyShares is 30 (an
 * explicit 0 stays: v1 keeps "jail" levels), nil lendablePercent 0, and its queuing's zero values 64 / 8 / 50;
 * an exempt level's nil shares and lendablePercent 0. Only the pointers that are set are defaulted into.
 */
export function setPriorityLevelDefaults(obj: JSONObject): void {
  if (!isObject(obj['spec'])) obj['spec'] = {};
  const spec = obj['spec'] as JSONObject;
  const limited = spec['limited'];
  if (isObject(limited)) {
    if (unset(limited['nominalConcurrencyShares'])) limited['nominalConcurrencyShares'] = DEFAULT_NOMINAL_CONCURRENCY_SHARES;
    if (unset(limited['lendablePercent'])) limited['lendablePercent'] = 0;
    const response = limited['limitResponse'];
    const queuing = isObject(response) ? response['queuing'] : undefined;
    if (isObject(queuing)) {
      if (zero(queuing['handSize'])) queuing['handSize'] = DEFAULT_HAND_SIZE;
      if (zero(queuing['queues'])) queuing['queues'] = DEFAULT_QUEUES;
      if (zero(queuing['queueLengthLimit'])) queuing['queueLengthLimit'] = DEFAULT_QUEUE_LENGTH_LIMIT;
    }
  }
  const exempt = spec['exempt'];
  if (isObject(exempt)) {
    if (unset(exempt['nominalConcurrencyShares'])) exempt['nominalConcurrencyShares'] = 0;
    if (unset(exempt['lendablePercent'])) exempt['lendablePercent'] = 0;
  }
}
