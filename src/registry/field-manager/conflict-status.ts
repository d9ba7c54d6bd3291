// The 409 an apply gets when it would change fields other managers own (fieldmanager's NewConflictError):
// a FieldManagerConflict cause per field, and a message naming each manager as kube prints it.
import { StatusError, type StatusCause } from '../../api/status.js';
import type { Conflict } from '../../smd/managers.js';
import { pathString, type Path } from '../../smd/set.js';
import type { ManagedFieldsEntry } from '../managed-fields.js';

/** printManager: the manager's name, its subresource, and for updates the API version it used. */
export function printManager(id: string): string {
  let e: ManagedFieldsEntry;
  try {
    e = JSON.parse(id) as ManagedFieldsEntry;
  } catch {
    return JSON.stringify(id);
  }
  let out = JSON.stringify(e.manager ?? '');
  if (e.subresource) out += ` with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === 'Update') return e.time ? `${out} using ${e.apiVersion ?? ''} at ${e.time}` : `${out} using ${e.apiVersion ?? ''}`;
  return out;
}

function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) {
    const c = conflicts[0]!;
    return `Apply failed with 1 conflict: conflict with ${printManager(c.manager)}: ${pathString(c.path)}`;
  }
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c.path]);
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${printManager(manager)}:`);
    for (const p of byManager.get(manager)!) lines.push(`- ${pathString(p)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** errors.NewApplyConflict: 409 Conflict with no object details but the causes. */
export function applyConflict(conflicts: readonly Conflict[]): StatusError {
  const causes: StatusCause[] = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.manager)}`, field: pathString(c.path) }));
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: conflictMessage(conflicts), reason: 'Conflict', details: { causes }, code: 409 });
}
