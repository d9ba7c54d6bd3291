// kube-apiserver caches successful token authentications for 10 seconds (its token authenticators sit behind
// pkg/authentication/token/cache with TokenSuccessCacheTTL 10s, failures uncached): a ServiceAccount token
// seen recently is answered without looking the ServiceAccount up again, and so, as on kube, stays good for
// up to that long after the ServiceAccount is deleted.
import type { UserInfo } from '../api/user.js';

/** kube-apiserver's TokenSuccessCacheTTL. */
export const TOKEN_SUCCESS_CACHE_TTL_MS = 10_000;
const MAX_ENTRIES = 4096;

export class TokenCache {
  private entries = new Map<string, { user: UserInfo; until: number }>();

  constructor(private readonly ttlMs = TOKEN_SUCCESS_CACHE_TTL_MS) {}

  get(token: string, now: number): UserInfo | undefined {
    const e = this.entries.get(token);
    if (!e) return undefined;
    if (e.until > now) return e.user;
    this.entries.delete(token);
    return undefined;
  }

  set(token: string, user: UserInfo, now: number): void {
    if (this.ttlMs <= 0) return;
    // Oldest first out: a Map iterates in insertion order.
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, { user, until: now + this.ttlMs });
  }
}
