// What the store asks of a CRD's conversion, and how services named by webhook client configs are reached.
import type { JSONObject } from '../util/json.js';

/**
 * Converts custom resources, each at any version of the CRD's group, to `desiredAPIVersion`
 * (`<group>/<version>`), keeping their order. Objects already at that version come back as they are.
 * Failures are StatusErrors as kube-apiserver reports them.
 */
export type ConvertObjects = (objects: readonly JSONObject[], desiredAPIVersion: string) => Promise<JSONObject[]>;

/** Where a webhook's `service` reference is reached; TLS still verifies the name `<name>.<namespace>.svc`. */
export interface ServiceEndpoint {
  host: string;
  port: number;
}

/** Resolves a service reference to a network address (the kube-apiserver's service resolver). */
export type ServiceResolver = (service: { namespace: string; name: string; port: number }) => ServiceEndpoint;

/** The default: the cluster DNS name `<name>.<namespace>.svc` at the service port. */
export const defaultServiceResolver: ServiceResolver = (s) => ({ host: `${s.name}.${s.namespace}.svc`, port: s.port });
