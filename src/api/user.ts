// Who is making a request, as authentication establishes it (k8s.io/apiserver user.Info). Lives here, low in
// the folder order, because the registry and admission receive it with every write.
export interface UserInfo {
  name: string;
  groups: string[];
  uid?: string;
  /** Further attributes an authenticator (or an Impersonate-Extra-* header) attaches, keyed by lower-case name. */
  extra?: Record<string, string[]>;
}
