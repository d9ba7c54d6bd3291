// metadata.managedFields kept on every write, and server-side apply, as kube's default field manager does them
// (k8s.io/apimachinery util/managedfields/internal): kube stacks them as layers (version check, last-applied
// updater and manager, skip-non-applied, cap-managers, build-manager-info, managed-fields updater, strip-meta,
// structured merge). Here they are the steps of update() and apply(), in that order, over plain JSON.
import { badRequest } from '../../api/status.js';
import { unknownServerError } from '../patch.js';
import type { JSONObject } from '../../util/json.js';
import type { Subresource } from '../resource-type.js';
import { deepEqual, isObject, deepCopyJSON, setOwn } from '../../util/json.js';
import { rfc3339 } from '../../util/time.js';
import { ConflictError, type ManagedFields } from '../../smd/managers.js';
import { FieldSet } from '../../smd/set.js';
import { fieldElement } from '../../smd/path-element.js';
import { Updater, type VersionConverter } from '../../smd/updater.js';
import { NeedsConversion, type ConversionCache, type ManagedFieldsTypes } from './types.js';
import { validate } from '../../smd/validate.js';
import { addedFields, compare } from '../../smd/compare.js';
import { decodeManagedFields, encodeManagedFields, managedFieldsOf, managerIdentifier, type Managed, type ManagedFieldsEntry } from '../managed-fields.js';
import { applyConflict } from './conflict-status.js';
import { capUpdateManagers } from './cap-managers.js';
import { allowedConflictsFromLastApplied, buildLastApplied, hasLastApplied, setLastApplied } from './last-applied.js';

export interface FieldManagerConfig {
  types: ManagedFieldsTypes;
  group: string;
  version: string;
  kind: string;
  subresource: Subresource;
  /** Top-level fields this endpoint's strategy resets (status on the main resource, spec on /status): nobody owns them here. */
  resetFields?: readonly string[];
}

/** The fields nobody owns because the server sets them (stripMetaManager). */
const STRIPPED = FieldSet.of(
  [fieldElement('apiVersion')],
  [fieldElement('kind')],
  [fieldElement('metadata')],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((f) => [fieldElement('metadata'), fieldElement(f)]),
);

const CURRENT_OPERATION = 'current-operation';
/** Bound on the conversions one operation may ask for (a handful of versions, a few objects each). */
const MAX_CONVERSION_ROUNDS = 32;
const BEFORE_FIRST_APPLY = 'before-first-apply';

const metaOf = (obj: JSONObject): JSONObject => (isObject(obj['metadata']) ? obj['metadata'] : {});

/** schema.GroupVersionKind's String(): `group/version, Kind=kind` (`/v1, Kind=Namespace` for the core group). */
function gvkString(obj: JSONObject): string {
  const apiVersion = typeof obj['apiVersion'] === 'string' ? obj['apiVersion'] : '';
  const kind = typeof obj['kind'] === 'string' ? obj['kind'] : '';
  const slash = apiVersion.indexOf('/');
  const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  return `${group}/${version}, Kind=${kind}`;
}

/** objectGVKNN: how kube names an object in these errors. */
function objectName(obj: JSONObject): string {
  const m = metaOf(obj);
  const ns = typeof m['namespace'] === 'string' ? m['namespace'] : '';
  const name = typeof m['name'] === 'string' ? m['name'] : '';
  return `${ns}/${name}; ${gvkString(obj)}`;
}

let skippingUnchangedResetFields = true;

/** Whether an update passes over reset fields it leaves unchanged (unchangedResetFields): tests turn it off to compare both ways. */
export function skipUnchangedResetFields(on: boolean): void {
  skippingUnchangedResetFields = on;
}

const emptyManaged = (): Managed => ({ fields: new Map(), times: new Map() });

/** A copy down to metadata (which the caller may then change) without managedFields. */
function withoutManagedFields(obj: JSONObject): JSONObject {
  const m = obj['metadata'];
  if (!isObject(m)) return { ...obj };
  // Copied member by member rather than spread then deleted from: a delete turns the copy into a slow
  // dictionary-mode object for everything that reads it afterwards.
  const meta: JSONObject = {};
  for (const k of Object.keys(m)) if (k !== 'managedFields') setOwn(meta, k, m[k]);
  return { ...obj, metadata: meta };
}

/** A shallow copy without the given top-level fields. */
function withoutFields(obj: JSONObject, fields: readonly string[]): JSONObject {
  const out = { ...obj };
  for (const f of fields) delete out[f];
  return out;
}

/** A shallow copy of `obj` holding `from`'s values (the same references) of the given top-level fields. */
function withFieldsOf(obj: JSONObject, from: JSONObject, fields: readonly string[]): JSONObject {
  const out = { ...obj };
  for (const f of fields) out[f] = from[f]!;
  return out;
}

function setManagedFields(obj: JSONObject, entries: ManagedFieldsEntry[] | undefined): void {
  if (!isObject(obj['metadata'])) {
    if (!entries) return;
    obj['metadata'] = {};
  }
  const meta = obj['metadata'] as JSONObject;
  if (entries) meta['managedFields'] = entries as unknown as JSONObject[];
  else delete meta['managedFields'];
}

/** isResetManagedFields: `[]` or `[{}]` asks for the managed fields to be cleared. */
function isReset(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  return v.length === 0 || (v.length === 1 && isObject(v[0]) && Object.keys(v[0]).length === 0);
}

function decodeOrEmpty(v: unknown): Managed {
  if (v === undefined || v === null) return emptyManaged();
  const entries = Array.isArray(v) && v.every(isObject) ? (v as ManagedFieldsEntry[]) : undefined;
  if (!entries) return emptyManaged();
  const m = decodeManagedFields(entries);
  return m instanceof Error ? emptyManaged() : m;
}

export class FieldManager {
  private readonly apiVersion: string;
  private readonly ignoredFields: ReadonlyMap<string, FieldSet> | undefined;

  constructor(private readonly cfg: FieldManagerConfig) {
    this.apiVersion = cfg.group ? `${cfg.group}/${cfg.version}` : cfg.version;
    const reset = cfg.resetFields?.length ? FieldSet.of(...cfg.resetFields.map((f) => [fieldElement(f)])) : undefined;
    this.ignoredFields = reset ? new Map(cfg.types.versions.map((v) => [v, reset])) : undefined;
  }

  /**
   * Runs a (pure, synchronous) operation, making the round-trip conversions it asks for between runs, so
   * conversion webhooks take part as they do in kube.
   */
  private async run<T>(op: (updater: Updater) => T): Promise<T> {
    const types = this.cfg.types;
    const cache: ConversionCache = new Map();
    const converter: VersionConverter = { schemaFor: (v) => types.schemaFor(v), convert: (o, v) => types.convert(o, v, cache) };
    for (let attempt = 0; ; attempt++) {
      try {
        return op(new Updater({ converter, ...(this.ignoredFields ? { ignoredFields: this.ignoredFields } : {}) }));
      } catch (e) {
        if (!(e instanceof NeedsConversion) || !types.convertAsync || attempt >= MAX_CONVERSION_ROUNDS) throw e;
        cache.set(e.key, await types.convertAsync(e.obj, e.version));
      }
    }
  }

  private identifier(manager: string, operation: 'Apply' | 'Update'): string {
    // The same few managers write again and again: each identifier is made once.
    const key = `${operation}\u0000${manager}`;
    let id = this.identifiers.get(key);
    if (id === undefined) {
      id = managerIdentifier({ manager: manager || 'unknown', operation, apiVersion: this.apiVersion, subresource: this.cfg.subresource || undefined });
      if (this.identifiers.size >= 1024) this.identifiers.clear();
      this.identifiers.set(key, id);
    }
    return id;
  }

  private readonly identifiers = new Map<string, string>();

  /** ObjectToTyped: a value the schema does not describe is an error with smd's wording. */
  private typed(obj: JSONObject, allowDuplicates: boolean): string | undefined {
    const t = this.cfg.types.schemaFor(this.apiVersion);
    if (!t) return `no corresponding type for ${gvkString(obj)}`;
    const errs = validate(t.schema, t.root, obj, { allowDuplicates });
    // ValidationErrors.Error(): one alone, several listed.
    return errs.length === 0 ? undefined : errs.length === 1 ? errs[0] : `errors:\n${errs.map((e) => `  ${e}`).join('\n')}`;
  }

  /**
   * FieldManager.UpdateNoErrors: `next` (as written by `manager`, an Update) with its managedFields brought
   * up to date against `live` (undefined on create). Never fails: on a problem `next` keeps live's entries.
   */
  update(live: JSONObject | undefined, next: JSONObject, manager: string): JSONObject | Promise<JSONObject> {
    const liveObj = live ?? this.cfg.types.newObject(this.apiVersion);
    // decodeLiveOrNew: a subresource write cannot set managedFields; a main-resource write may reset them or
    // send valid ones, else live's are kept.
    const requested = metaOf(next)['managedFields'];
    // A create that sends none (most): nobody manages anything yet, nothing to decode (the new object has none).
    const none = live === undefined && (requested === undefined || requested === null);
    let managed: Managed | undefined;
    if (none) managed = undefined;
    else if (this.cfg.subresource) managed = decodeOrEmpty(metaOf(liveObj)['managedFields']);
    else if (isReset(requested)) managed = emptyManaged();
    else {
      managed = decodeOrEmpty(requested);
      if (managed.fields.size === 0) managed = decodeOrEmpty(metaOf(liveObj)['managedFields']);
    }
    const out = withoutManagedFields(next);
    // A create's fields are found at once (no conversion can be needed): the object is answered without a promise.
    if (live === undefined && (managed === undefined || managed.fields.size === 0) && typeof out['apiVersion'] === 'string' && typeof out['kind'] === 'string') {
      let entries: ManagedFieldsEntry[] | undefined;
      try {
        entries = encodeManagedFields(this.createdManaged(liveObj, out, manager));
      } catch {
        // As UpdateNoErrors: nothing recorded (there is no live object whose entries to keep).
      }
      setManagedFields(out, entries);
      return out;
    }
    return this.run((u) => this.updateManaged(u, liveObj, out, managed ?? emptyManaged(), manager))
      .then((fields) => setManagedFields(out, encodeManagedFields(fields)))
      .catch(() => {
        // As UpdateNoErrors (a conversion webhook down, say): the live object's entries are kept.
        setManagedFields(out, live ? managedFieldsOf(metaOf(live)) : undefined);
      })
      .then(() => out);
  }

  /** skipNonApplied → capManagers → buildManagerInfo → managedFieldsUpdater → stripMeta → structured merge. */
  private updateManaged(updater: Updater, live: JSONObject, next: JSONObject, managed: Managed, manager: string): Managed {
    // Objects that have no managed fields yet start tracking on create only.
    if (managed.fields.size === 0 && typeof metaOf(live)['uid'] === 'string' && metaOf(live)['uid'] !== '') return managed;
    const id = this.identifier(manager, 'Update');
    const liveErr = this.typed(live, true);
    if (liveErr) throw new Error(`failed to convert live object (${objectName(live)}) to smd typed: ${liveErr}`);
    const unchanged = this.unchangedResetFields(live, next);
    const newErr = this.typed(unchanged.length > 0 ? withoutFields(next, unchanged) : next, true);
    if (newErr) throw new Error(`failed to convert new object (${objectName(next)}) to smd typed: ${newErr}`);
    const compared = unchanged.length > 0 ? withFieldsOf(next, live, unchanged) : next;
    const fields = updater.updateObject({ value: live, version: this.apiVersion }, { value: compared, version: this.apiVersion }, managed.fields, CURRENT_OPERATION);
    this.strip(fields, CURRENT_OPERATION);
    const times = new Map(managed.times);
    const vs = fields.get(CURRENT_OPERATION);
    if (vs) {
      fields.delete(CURRENT_OPERATION);
      const previous = fields.get(id);
      fields.set(id, previous ? { ...vs, set: vs.set.union(previous.set) } : vs);
      times.set(id, rfc3339());
    }
    return capUpdateManagers({ fields, times });
  }

  /**
   * The reset fields (a /status write's spec) `next` holds exactly as `live` does. Nobody owns them on this
   * endpoint, so they count only through validation, and values equal to live's validate as live's just did:
   * `next` is validated without them and compared with live's own values in their place, which the comparison
   * passes over as identical. The managed fields and errors are the same as walking them (a CRD's /status
   * writes otherwise validated and compared its whole schema twice to find nothing that counts).
   */
  private unchangedResetFields(live: JSONObject, next: JSONObject): string[] {
    const out: string[] = [];
    if (!skippingUnchangedResetFields) return out;
    for (const f of this.cfg.resetFields ?? []) if (f in live && f in next && deepEqual(live[f], next[f])) out.push(f);
    return out;
  }

  /**
   * Whether the type's new object is its apiVersion and kind alone (custom resources), against which a create's
   * changes are its object's fields, all added (createdManaged).
   */
  private createsFromTypeMeta(): boolean {
    if (this.typeMetaOnly === undefined) {
      const o = this.cfg.types.newObject(this.apiVersion);
      const keys = Object.keys(o);
      this.typeMetaOnly = keys.length === 2 && typeof o['apiVersion'] === 'string' && typeof o['kind'] === 'string';
    }
    return this.typeMetaOnly;
  }

  private typeMetaOnly: boolean | undefined;

  /**
   * updateManaged of a create, where nobody owned anything: the writer owns what `next` changes from the type's new
   * object (`live`), and no manager's fields are reconciled, converted or taken away, so the Updater's steps reduce
   * to one comparison. A custom resource's new object is apiVersion and kind alone: against it, `next` (whose
   * apiVersion and kind are strings) differs in those two, which nobody owns, and adds everything else, found in
   * one walk. A built-in's new object has Go's zero values: the fields compared as modified or added. The same
   * fields as the Updater's, as the tests check.
   */
  private createdManaged(live: JSONObject, next: JSONObject, manager: string): Managed {
    const id = this.identifier(manager, 'Update');
    const liveErr = this.typed(live, true);
    if (liveErr) throw new Error(`failed to convert live object (${objectName(live)}) to smd typed: ${liveErr}`);
    const newErr = this.typed(next, true);
    if (newErr) throw new Error(`failed to convert new object (${objectName(next)}) to smd typed: ${newErr}`);
    const { schema, root } = this.cfg.types.schemaFor(this.apiVersion)!;
    let set: FieldSet;
    if (this.createsFromTypeMeta()) set = addedFields(schema, root, next);
    else {
      const c = compare(schema, root, live, next);
      set = c.modified.union(c.added);
    }
    const ignored = this.ignoredFields?.get(this.apiVersion);
    if (ignored) set = set.recursiveDifference(ignored);
    set = set.difference(STRIPPED);
    const fields: ManagedFields = new Map();
    const times = new Map<string, string | undefined>();
    if (!set.empty()) {
      fields.set(id, { set, apiVersion: this.apiVersion, applied: false });
      times.set(id, rfc3339());
    }
    return { fields, times };
  }

  private strip(fields: ManagedFields, id: string): void {
    const vs = fields.get(id);
    if (!vs) return;
    const set = vs.set.difference(STRIPPED);
    if (set.empty()) fields.delete(id);
    else fields.set(id, { ...vs, set });
  }

  /**
   * FieldManager.Apply: `patch` applied to `live` (undefined when the apply creates the object) by `manager`,
   * with managedFields updated. Throws the Status kube answers: 400 for a patch of another type, version or
   * shape, 409 for conflicts unless forced.
   */
  async apply(live: JSONObject | undefined, patch: JSONObject, manager: string, force: boolean): Promise<JSONObject> {
    const liveObj = live ?? this.cfg.types.newObject(this.apiVersion);
    const decoded = decodeManagedFields(managedFieldsOf(metaOf(liveObj)) ?? []);
    // kube returns plain Go errors for these: 500 with no reason, the error's text as the message.
    if (decoded instanceof Error) throw unknownServerError(`failed to decode managed fields: ${decoded.message}`);
    if (gvkString(patch) !== gvkString({ apiVersion: this.apiVersion, kind: this.cfg.kind })) throw badRequest(`invalid object type: ${gvkString(patch)}`);
    let result: { object: JSONObject; managed: Managed };
    try {
      result = await this.run((u) => this.applyManaged(u, liveObj, patch, decoded, manager, force));
    } catch (e) {
      if (e instanceof ConflictError && manager === 'kubectl') {
        // lastAppliedManager: kubectl's client-side apply owned, through its annotation, what it last applied.
        const allowed = allowedConflictsFromLastApplied(liveObj, this.cfg.types, this.apiVersion);
        if (!allowed) throw applyConflict(e.conflicts);
        const left = e.conflicts.filter((c) => !allowed.has(c.path));
        if (left.length) throw applyConflict(left);
        result = await this.run((u) => this.applyManaged(u, liveObj, patch, decoded, manager, true));
      } else if (e instanceof ConflictError) throw applyConflict(e.conflicts);
      else throw e;
    }
    const { object, managed } = result;
    // lastAppliedUpdater: an object still carrying client-side apply's annotation keeps it in step.
    if (manager === 'kubectl' && hasLastApplied(object)) setLastApplied(object, buildLastApplied(patch));
    setManagedFields(object, encodeManagedFields(managed));
    return object;
  }

  private applyManaged(updater: Updater, live: JSONObject, patch: JSONObject, managed: Managed, manager: string, force: boolean): { object: JSONObject; managed: Managed } {
    const liveObj = live;
    let current = managed;
    if (current.fields.size === 0) {
      // skipNonAppliedManager: what an object had before its first apply belongs to "before-first-apply".
      const emptyObj = this.cfg.types.newObject(this.apiVersion);
      current = this.updateManaged(updater, emptyObj, liveObj, current, BEFORE_FIRST_APPLY);
    }
    const id = this.identifier(manager, 'Apply');
    // structuredMergeManager.Apply
    const patchVersion = typeof patch['apiVersion'] === 'string' ? patch['apiVersion'] : '';
    if (patchVersion !== this.apiVersion) {
      throw badRequest(`Incorrect version specified in apply patch. Specified patch version: ${patchVersion}, expected: ${this.apiVersion}`);
    }
    const patchManaged = metaOf(patch)['managedFields'];
    if (patchManaged !== undefined && patchManaged !== null) throw badRequest('metadata.managedFields must be nil');
    const patchErr = this.typed(patch, false);
    // kube answers this with a 500 (kubernetes/kubernetes#122480): it is the client's mistake, so a 400 here.
    if (patchErr) throw badRequest(`failed to create typed patch object (${objectName(patch)}): ${patchErr}`);
    const liveErr = this.typed(liveObj, true);
    if (liveErr) throw unknownServerError(`failed to create typed live object (${objectName(liveObj)}): ${liveErr}`);
    const { object, managers } = updater.apply(
      { value: withoutManagedFields(liveObj), version: this.apiVersion },
      { value: patch, version: this.apiVersion },
      current.fields,
      id,
      force,
    );
    this.strip(managers, id);
    const times = new Map(current.times);
    if (object === undefined) return { object: withoutManagedFields(liveObj), managed: { fields: managers, times } };
    times.set(id, rfc3339());
    const out = deepCopyJSON(object) as JSONObject;
    this.cfg.types.defaults?.(out);
    return { object: out, managed: { fields: managers, times } };
  }
}
