// capManagersManager: at most 10 Update managers are kept; the oldest are folded, per API version, into one
// "ancient-changes" entry, so objects written by many clients do not grow without bound.
import { managerIdentifier, type Managed } from '../managed-fields.js';

const MAX_UPDATE_MANAGERS = 10;
const OLD_UPDATES_MANAGER = 'ancient-changes';

const seconds = (t: string | undefined): number => (t ? Math.floor(Date.parse(t) / 1000) : 0);

export function capUpdateManagers(managed: Managed, max = MAX_UPDATE_MANAGERS): Managed {
  const updaters = [...managed.fields].filter(([, vs]) => !vs.applied).map(([id]) => id);
  if (updaters.length <= max) return managed;
  const fields = new Map(managed.fields);
  const times = new Map(managed.times);
  updaters.sort((a, b) => seconds(times.get(a)) - seconds(times.get(b)) || (a < b ? -1 : a > b ? 1 : 0));
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i]!;
    const vs = fields.get(id)!;
    const time = times.get(id);
    const bucket = managerIdentifier({ manager: OLD_UPDATES_MANAGER, operation: 'Update', apiVersion: vs.apiVersion });
    const first = firstOfVersion.get(vs.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(vs.apiVersion, id);
      continue;
    }
    if (!fields.has(bucket)) {
      // The first manager of this version becomes the bucket.
      fields.set(bucket, fields.get(first)!);
      fields.delete(first);
    }
    fields.set(bucket, { set: vs.set.union(fields.get(bucket)!.set), apiVersion: vs.apiVersion, applied: vs.applied });
    fields.delete(id);
    length--;
    times.set(bucket, time);
  }
  return { fields, times };
}
