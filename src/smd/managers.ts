// Who owns which fields (structured-merge-diff's fieldpath.ManagedFields): per manager, its field set, the
// API version the set is expressed in, and whether it came from an apply.
import { FieldSet, pathString, type Path } from './set.js';

export interface VersionedSet {
  set: FieldSet;
  apiVersion: string;
  applied: boolean;
}

export type ManagedFields = Map<string, VersionedSet>;

export interface Conflict {
  manager: string;
  path: Path;
}

/** merge.Conflicts: one conflict is `conflict with "m": .spec.x`; several are listed per manager. */
export class ConflictError extends Error {
  constructor(readonly conflicts: readonly Conflict[]) {
    super(conflictsMessage(conflicts));
  }
}

function conflictsMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) return `conflict with ${JSON.stringify(conflicts[0]!.manager)}: ${pathString(conflicts[0]!.path)}`;
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c.path]);
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${JSON.stringify(manager)}:`);
    for (const p of byManager.get(manager)!) lines.push(`- ${pathString(p)}`);
  }
  return lines.join('\n');
}

/** ConflictsFromManagers: every path of every manager's conflicting set. */
export function conflictsFromManagers(sets: ManagedFields): Conflict[] {
  const out: Conflict[] = [];
  for (const [manager, vs] of sets) for (const path of vs.set.paths()) out.push({ manager, path });
  return out;
}
