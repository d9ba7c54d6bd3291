// Built-in kinds are decoded into their Go types before anything else sees them (kube's typed decoders):
// a request body whose value does not fit its Go field is a 400 (create, update) or, once a patch has
// been applied, the 422 patch.go answers for a patched object that does not decode.
import type { GoStruct } from '../api/go-struct.js';
import { goDecodeInto, type GoTypeContext } from '../api/go-decode.js';
import { badRequest } from '../api/status.js';
import type { ResourceType } from '../registry/resource-type.js';
import type { JSONObject } from '../util/json.js';
import { cannotBeHandledAs } from '../schema/unknown-fields.js';
import { JSONSchemaProps } from '../apis/apiextensions/json-schema-props.js';
import { nonIntegerNumberLiterals } from '../util/json-number-literals.js';

/** The Go struct of a resource's objects and the naming context of its types; undefined for custom resources. */
export function goTypeOf(type: ResourceType): { struct: GoStruct; ctx: GoTypeContext } | undefined {
  if (!type.goType) return undefined;
  return { struct: type.goType, ctx: { pkg: type.served.version, jsonSchemaProps: JSONSchemaProps } };
}

/**
 * Decodes a create or update body of a built-in kind in place; throws kube's BadRequest when it does not decode.
 * Returns the strict decoder's unknown-field errors (the fields themselves are dropped). `jsonText`: the body
 * when it was JSON, whose number literals integer fields check.
 */
export function decodeTypedBody(obj: JSONObject, type: ResourceType, jsonText?: string): string[] {
  const go = goTypeOf(type);
  if (!go) return [];
  const unknown: string[] = [];
  const numberLiterals = jsonText === undefined ? undefined : nonIntegerNumberLiterals(jsonText);
  const err = goDecodeInto(obj, go.struct, go.ctx, numberLiterals ? { unknownFields: unknown, numberLiterals } : { unknownFields: unknown });
  const { kind, version } = type.served;
  if (err !== undefined) throw badRequest(cannotBeHandledAs(kind, version, kind, err));
  return unknown;
}
