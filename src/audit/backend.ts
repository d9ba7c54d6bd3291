// kube's audit.Backend: where events go once the filter has built them. Backends wrap each other as kube's
// options compose them (truncate → buffered/ignore-errors → log or webhook), and the filter hands each event
// to the union of the configured ones.

/** An audit.k8s.io/v1 Event as the filter builds it (plain JSON). */
export type AuditEvent = Record<string, unknown>;

export interface AuditBackend {
  /**
   * Takes events; false when they could not be stored (only blocking-strict backends say so, and then only
   * once the delegate has answered: a promise).
   */
  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean>;
  /** Sends what is still queued, waits for what is in flight. */
  shutdown(): Promise<void>;
  /** The plugin's name in error lines (kube's String()). */
  readonly name: string;
}

/** Resolves a mix of plain and promised answers, staying synchronous when none is a promise. */
function allOk(results: (boolean | Promise<boolean>)[]): boolean | Promise<boolean> {
  if (results.every((r) => typeof r === 'boolean')) return results.every(Boolean);
  return Promise.all(results).then((rs) => rs.every(Boolean));
}

/** audit.Union: every backend gets every event; the answer is false if any failed. */
export function unionBackend(backends: readonly AuditBackend[]): AuditBackend {
  if (backends.length === 1) return backends[0]!;
  return {
    name: `union[${backends.map((b) => b.name).join(',')}]`,
    processEvents: (events) => allOk(backends.map((b) => b.processEvents(events))),
    shutdown: async () => void (await Promise.all(backends.map((b) => b.shutdown()))),
  };
}

/** --audit-*-mode=blocking: the delegate is waited for, but its failures do not fail the request. */
export function ignoreErrorsBackend(delegate: AuditBackend): AuditBackend {
  return {
    name: `ignoreErrors<${delegate.name}>`,
    processEvents: (events) => {
      const r = delegate.processEvents(events);
      return typeof r === 'boolean' ? true : r.then(() => true);
    },
    shutdown: () => delegate.shutdown(),
  };
}

export type ErrorLog = (message: string) => void;
export const consoleErrorLog: ErrorLog = (m) => console.error(m);

/** audit.HandlePluginError's log line: the error, then one EventString per event lost. */
export function pluginErrorMessage(plugin: string, err: string, impacted: readonly AuditEvent[]): string {
  let msg = `Error in audit plugin '${plugin}' affecting ${impacted.length} audit events: ${err}\nImpacted events:\n`;
  for (const ev of impacted) msg += eventString(ev) + '\n';
  return msg;
}

/** audit.EventString: the one-line summary kube logs for a lost event (Go's %q quoting). */
export function eventString(ev: AuditEvent): string {
  const q = (s: unknown): string => JSON.stringify(String(s ?? ''));
  const user = (ev.user ?? {}) as { username?: string; groups?: string[] };
  const imp = ev.impersonatedUser as { username?: string; groups?: string[] } | undefined;
  const slice = (l: string[]): string => l.map((g) => JSON.stringify(g)).join(',');
  const username = user.username || '<none>';
  const groups = user.username && user.groups?.length ? slice(user.groups) : '<none>';
  const as = imp ? (imp.username ?? '') : '<self>';
  const asgroups = imp?.groups ? slice(imp.groups) : '<lookup>';
  const ref = ev.objectRef as { namespace?: string } | undefined;
  const status = ev.responseStatus as { code?: number } | undefined;
  const ips = ev.sourceIPs as string[] | undefined;
  return (
    `${String(ev.requestReceivedTimestamp ?? '')} AUDIT: id=${q(ev.auditID)} stage=${q(ev.stage)} ip=${q(ips?.[0] ?? '<unknown>')} ` +
    `method=${q(ev.verb)} user=${q(username)} groups=${q(groups)} as=${q(as)} asgroups=${q(asgroups)} ` +
    `user-agent=${q(ev.userAgent)} namespace=${q(ref?.namespace || '<none>')} uri=${q(ev.requestURI)} ` +
    `response="${status ? String(status.code ?? 0) : '<deferred>'}"`
  );
}
