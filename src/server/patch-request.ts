// A PATCH request's body applied to the current object, by patch type.
import { StatusError, badRequest } from '../api/status.js';
import type { GenericStore } from '../registry/store.js';
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import { APPLY_PATCH, JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, applyJsonPatch, applyMergePatch, decodePatch, type PatchType } from '../registry/patch.js';
import {
  applyStrategicMergePatch,
  customResourceDefinitionPatchMeta,
  namespacePatchMeta,
  strategicMergePatchUnsupported,
  type PatchMetaType,
} from '../registry/strategic-merge-patch.js';

const PATCH_META: Record<string, PatchMetaType> = {
  Namespace: namespacePatchMeta,
  CustomResourceDefinition: customResourceDefinitionPatchMeta,
};

function unwrap(v: unknown): JSONObject {
  if (v instanceof StatusError) throw v;
  if (!isObject(v)) throw badRequest('the patched document is not an object');
  return v;
}

export function applyPatchRequest(store: GenericStore, type: PatchType, body: Buffer, current: JSONObject): JSONObject {
  const decoded = decodePatch(type, body);
  if (decoded instanceof StatusError) throw decoded;
  switch (decoded.type) {
    case MERGE_PATCH:
      return unwrap(applyMergePatch(current, decoded.patch));
    case JSON_PATCH:
      return unwrap(applyJsonPatch(current, decoded.operations));
    case STRATEGIC_MERGE_PATCH: {
      const meta = PATCH_META[store.type.served.kind];
      if (!meta || store.type.served.group !== '' && store.type.served.group !== 'apiextensions.k8s.io') throw strategicMergePatchUnsupported();
      return unwrap(applyStrategicMergePatch(current, decoded.patch, meta));
    }
    case APPLY_PATCH:
      // Server-side apply is not implemented: endpoints do not list its type, so this is unreachable.
      throw badRequest('server-side apply is not supported');
  }
}
