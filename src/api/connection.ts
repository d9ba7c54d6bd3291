// How a client reaches a server, as a kubeconfig's current context gives it: the server URL and the
// credentials (PEM text). The command line's API client and the audit webhook backend both take it.
export interface Connection {
  server: string;
  ca?: string;
  cert?: string;
  key?: string;
  token?: string;
  insecureSkipTLSVerify?: boolean;
}
