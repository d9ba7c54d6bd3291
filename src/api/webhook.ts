// Where a webhook is reached (admissionregistration's and apiextensions' WebhookClientConfig have this
// shape): a URL, or a Service in the cluster, and the CA bundle its serving certificate chains to.
export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  /** Defaults to 443. */
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  /** base64 of PEM bytes, as JSON carries []byte. */
  caBundle?: string;
}

