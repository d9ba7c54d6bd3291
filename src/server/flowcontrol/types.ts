// The parts of flowcontrol.apiserver.k8s.io/v1 FlowSchema and PriorityLevelConfiguration objects the
// dispatcher reads, as the stored (defaulted, validated) JSON holds them.

export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount' | string;
  user?: { name: string };
  group?: { name: string };
  serviceAccount?: { namespace: string; name: string };
}

export interface ResourcePolicyRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  clusterScope?: boolean;
  namespaces?: string[];
}

export interface NonResourcePolicyRule {
  verbs: string[];
  nonResourceURLs: string[];
}

export interface PolicyRulesWithSubjects {
  subjects: Subject[];
  resourceRules?: ResourcePolicyRule[];
  nonResourceRules?: NonResourcePolicyRule[];
}

export interface FlowSchema {
  metadata: { name: string; uid?: string };
  spec: {
    priorityLevelConfiguration: { name: string };
    matchingPrecedence?: number;
    distinguisherMethod?: { type: 'ByUser' | 'ByNamespace' | string };
    rules?: PolicyRulesWithSubjects[];
  };
}

export interface QueuingConfiguration {
  queues: number;
  handSize: number;
  queueLengthLimit: number;
}

export interface PriorityLevelConfiguration {
  metadata: { name: string; uid?: string };
  spec: {
    type: 'Exempt' | 'Limited' | string;
    limited?: {
      nominalConcurrencyShares?: number;
      limitResponse: { type: 'Queue' | 'Reject' | string; queuing?: QueuingConfiguration };
      lendablePercent?: number;
      borrowingLimitPercent?: number;
    };
    exempt?: { nominalConcurrencyShares?: number; lendablePercent?: number };
  };
}

export const EXEMPT = 'exempt';
export const CATCH_ALL = 'catch-all';
