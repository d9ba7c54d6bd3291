// The REST strategy both flowcontrol kinds share (pkg/registry/flowcontrol/{flowschema,
// prioritylevelconfiguration}/strategy.go): the main resource resets status and bumps generation when the
// spec changes; /status keeps spec and metadata. Bodies are defaulted as the decoder defaults them, and
// spec and status are written back as the Go structs encode them.
import type { GoStruct } from '../../../api/go-struct.js';
import type { FieldError } from '../../../api/field-error.js';
import { goEncode } from '../../../api/go-encode.js';
import type { JSONObject } from '../../../util/json.js';
import { isObject, deepCopyJSON } from '../../../util/json.js';
import { validateObjectMetaUpdate } from '../../../schema/objectmeta.js';
import { reportStrictDecoding } from '../../../schema/unknown-fields.js';
import { metaOf } from '../../../registry/store.js';
import type { KindDeclaration } from '../../kind.js';
import { semanticEqual } from './validation.js';

interface FlowcontrolKind {
  kind: string;
  spec: GoStruct;
  status: GoStruct;
  setDefaults(obj: JSONObject): void;
  validate(obj: JSONObject): FieldError[];
  validateStatus(obj: JSONObject): FieldError[];
}

const objectAt = (obj: JSONObject, key: string): JSONObject => (isObject(obj[key]) ? (obj[key] as JSONObject) : {});

export function flowcontrolStrategy(k: FlowcontrolKind): KindDeclaration['strategy'] {
  /** Defaults, then spec and status as encoding/json writes them. */
  const normalize = (obj: JSONObject): void => {
    k.setDefaults(obj);
    obj['spec'] = goEncode(k.spec, objectAt(obj, 'spec'));
    obj['status'] = goEncode(k.status, objectAt(obj, 'status'));
  };
  return {
    // GetResetFields of the main and status strategies.
    resetFields: (sub) => (sub === 'status' ? ['spec', 'metadata'] : ['status']),
    admitBody(obj, fieldValidation, warnings, decodeErrors = []) {
      reportStrictDecoding(decodeErrors, fieldValidation, warnings, k.kind, 'v1');
      k.setDefaults(obj);
    },
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    prepareForCreate(obj) {
      obj['status'] = {};
      metaOf(obj).generation = 1;
      normalize(obj);
    },
    validate: k.validate,
    prepareForUpdate(obj, old, sub) {
      const meta = metaOf(obj);
      const oldMeta = metaOf(old);
      if (sub === 'status') {
        // The status strategy keeps the old metadata but for the managed fields this write recorded.
        const managedFields = meta.managedFields;
        obj['metadata'] = deepCopyJSON(oldMeta);
        if (managedFields === undefined) delete metaOf(obj).managedFields;
        else metaOf(obj).managedFields = managedFields;
        obj['spec'] = deepCopyJSON(old['spec']);
        normalize(obj);
        return;
      }
      normalize(obj);
      obj['status'] = deepCopyJSON(old['status']);
      const generation = typeof oldMeta.generation === 'number' ? oldMeta.generation : 0;
      meta.generation = semanticEqual(k.spec, objectAt(obj, 'spec'), objectAt(old, 'spec')) ? generation : generation + 1;
    },
    validateUpdate(obj, old, sub) {
      const errs = validateObjectMetaUpdate(metaOf(obj), metaOf(old), 'metadata');
      errs.push(...(sub === 'status' ? k.validateStatus(obj) : k.validate(obj)));
      return errs;
    },
  };
}
