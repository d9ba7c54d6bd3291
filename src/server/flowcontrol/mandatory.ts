// The mandatory configuration the dispatcher imagines while no stored object stands in for it: kube's
// bootstrap exempt and catch-all priority levels and flow schemas.
import { MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS } from '../../apis/flowcontrol/v1/bootstrap.js';
import type { JSONObject } from '../../util/json.js';
import type { MandatoryConfiguration } from './dispatcher.js';
import type { FlowSchema, PriorityLevelConfiguration } from './types.js';

const named = (list: readonly JSONObject[], name: string): JSONObject => {
  const found = list.find((o) => (o['metadata'] as { name?: string }).name === name);
  if (!found) throw new Error(`no mandatory flow-control object ${name}`);
  return found;
};

export function mandatoryFlowControlConfiguration(): MandatoryConfiguration {
  return {
    exemptLevel: named(MANDATORY_PRIORITY_LEVELS, 'exempt') as unknown as PriorityLevelConfiguration,
    catchAllLevel: named(MANDATORY_PRIORITY_LEVELS, 'catch-all') as unknown as PriorityLevelConfiguration,
    exemptSchema: named(MANDATORY_FLOW_SCHEMAS, 'exempt') as unknown as FlowSchema,
    catchAllSchema: named(MANDATORY_FLOW_SCHEMAS, 'catch-all') as unknown as FlowSchema,
  };
}
