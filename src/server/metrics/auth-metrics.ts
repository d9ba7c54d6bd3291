// The authentication and authorization filters' metrics under kube 1.33's names (k8s.io/apiserver
// pkg/endpoints/filters/metrics.go, which gives them no apiserver_ prefix): attempts and latency by result, and
// authenticated requests by a coarse user category; and each authorizer's decisions
// (pkg/authorization/metrics: apiserver_authorization_decisions_total).
import type { Decision, RequestAttributes } from '../../auth/authorize.js';
import { CounterVec, exponentialBuckets, HistogramVec, type CounterSeries, type HistogramSeries } from './vec.js';

export type AuthenticationResult = 'success' | 'failure' | 'error';
export type AuthorizationResult = 'allowed' | 'denied' | 'no-opinion' | 'error';

const BUCKETS = exponentialBuckets(0.001, 2, 15);

/** kube's compressUsername: a few well-known names as they are, an e-mail address "email_id", anyone else "other". */
export function compressUsername(name: string): string {
  if (['admin', 'client', 'kube_proxy', 'kubelet', 'system:serviceaccount:kube-system:default'].includes(name)) return name;
  return name.includes('@') ? 'email_id' : 'other';
}

export class AuthMetrics {
  private readonly userRequests = new CounterVec('authenticated_user_requests', '[ALPHA] Counter of authenticated requests broken out by username.', ['username']);
  private readonly authnAttempts = new CounterVec('authentication_attempts', '[ALPHA] Counter of authenticated attempts.', ['result']);
  private readonly authnDuration = new HistogramVec('authentication_duration_seconds', '[ALPHA] Authentication duration in seconds broken out by result.', ['result'], BUCKETS);
  private readonly authzAttempts = new CounterVec(
    'authorization_attempts_total',
    "[ALPHA] Counter of authorization attempts broken down by result. It can be either 'allowed', 'denied', 'no-opinion' or 'error'.",
    ['result'],
  );
  private readonly authzDuration = new HistogramVec('authorization_duration_seconds', '[ALPHA] Authorization duration in seconds broken out by result.', ['result'], BUCKETS);
  private readonly decisions = new CounterVec(
    'apiserver_authorization_decisions_total',
    '[ALPHA] Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision.',
    ['decision', 'name', 'type'],
  );
  // The few label values each takes, with their series found once.
  private readonly authn = new Map<string, { count: CounterSeries; duration: HistogramSeries }>();
  private readonly authz = new Map<string, { count: CounterSeries; duration: HistogramSeries }>();
  private readonly users = new Map<string, CounterSeries>();

  get families(): ReadonlyArray<{ name: string; expose(): string }> {
    return [this.userRequests, this.authnAttempts, this.authnDuration, this.authzAttempts, this.authzDuration, this.decisions];
  }

  /**
   * An authorizer whose terminal decisions are counted (kube's InstrumentedAuthorizer). Ours never deny
   * outright: RBAC and AlwaysDeny have no opinion, which is not counted; an allow is.
   */
  instrumented(type: string, name: string, authorize: (attrs: RequestAttributes) => Decision): (attrs: RequestAttributes) => Decision {
    let allowed: CounterSeries | undefined;
    return (attrs) => {
      const d = authorize(attrs);
      if (d.allowed) (allowed ??= this.decisions.with('allowed', name, type)).value++;
      return d;
    };
  }

  /** One request through the authentication filter (recordAuthenticationMetrics); the user when it succeeded. */
  authentication(result: AuthenticationResult, seconds: number, user?: string): void {
    let s = this.authn.get(result);
    if (!s) this.authn.set(result, (s = { count: this.authnAttempts.with(result), duration: this.authnDuration.with(result) }));
    s.count.value++;
    s.duration.observe(seconds);
    if (user === undefined) return;
    let u = this.users.get(user);
    if (!u) {
      u = this.userRequests.with(compressUsername(user));
      // Only the few fixed names are kept by name: any other maps to the shared series on each request.
      if (this.users.size < 1000) this.users.set(user, u);
    }
    u.value++;
  }

  /** One request through the authorization filter (recordAuthorizationMetrics). */
  authorization(result: AuthorizationResult, seconds: number): void {
    let s = this.authz.get(result);
    if (!s) this.authz.set(result, (s = { count: this.authzAttempts.with(result), duration: this.authzDuration.with(result) }));
    s.count.value++;
    s.duration.observe(seconds);
  }
}
