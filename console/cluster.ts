// What the console knows of the server: discovery, and the CRDs (kept by a watch, which also tells when
// discovery changes). Without permission to read CRDs, discovery is polled instead.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.ts';
import { CRD_PATH, type Crd } from './crd.ts';
import { discover, type GroupInfo } from './discovery.ts';
import { listWatch } from './live.ts';

export interface Cluster {
  groups?: GroupInfo[];
  /** By CRD name (<plural>.<group>); undefined when they cannot be read. */
  crds?: Map<string, Crd>;
  /** Discovery failed: 401/403 show the login form. */
  error?: ApiError;
}

const POLL_MS = 15_000;

export function useCluster(session: number): Cluster {
  const [state, setState] = useState<Cluster>({});
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    const ctl = new AbortController();
    let crds: Map<string, Crd> | undefined;
    const refresh = async (): Promise<void> => {
      try {
        const groups = await discover();
        if (!ctl.signal.aborted) setState((s) => ({ ...s, groups, error: undefined }));
      } catch (e) {
        if (!ctl.signal.aborted) setState((s) => ({ ...s, error: e instanceof ApiError ? e : new ApiError(0, String(e)) }));
        throw e;
      }
    };
    // Several CRD events in a row (created, then established) are one rediscovery.
    const soon = (): void => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void refresh().catch(() => undefined), 200);
    };
    const publish = (): void => setState((s) => ({ ...s, crds: new Map(crds) }));
    void (async () => {
      try {
        await refresh();
      } catch {
        return;
      }
      await listWatch<{ items: Crd[]; metadata?: { resourceVersion?: string } }, Crd>({
        path: CRD_PATH,
        accept: 'application/json',
        signal: ctl.signal,
        onList: (list) => {
          crds = new Map(list.items.map((c) => [c.metadata.name, c]));
          publish();
          soon();
        },
        onEvent: (e) => {
          crds ??= new Map();
          if (e.type === 'DELETED') crds.delete(e.object.metadata.name);
          else crds.set(e.object.metadata.name, e.object);
          publish();
          soon();
        },
        onError: () => {
          // No access to CRDs: built-in schemas only, and discovery polled for new kinds.
          const poll = (): void => {
            if (ctl.signal.aborted) return;
            void refresh()
              .catch(() => undefined)
              .finally(() => (timer.current = setTimeout(poll, POLL_MS)));
          };
          timer.current = setTimeout(poll, POLL_MS);
        },
      });
    })();
    return () => {
      ctl.abort();
      clearTimeout(timer.current);
    };
  }, [session]);
  return state;
}
