// What the field manager needs of a type, apart from the manager itself: its merge schemas and conversions
// by API version (ManagedFieldsTypes), and the round-trip conversions an operation waits for.
import type { JSONObject } from '../../util/json.js';
import type { Typed, VersionConverter } from '../../smd/updater.js';

/**
 * A conversion that needs a round trip (a conversion webhook) and has not been made yet in this operation: the
 * field manager makes it (convertAsync), remembers it, and runs the operation again, which is pure.
 */
export class NeedsConversion extends Error {
  constructor(
    readonly key: string,
    readonly obj: Typed,
    readonly version: string,
  ) {
    super(`conversion of ${obj.version} to ${version} pending`);
  }
}

/** Conversions made so far in one field-manager operation, by NeedsConversion key. */
export type ConversionCache = Map<string, Typed | undefined>;

/** What a field manager needs to know of its type: schemas and conversion by API version, and an empty object. */
export interface ManagedFieldsTypes extends VersionConverter {
  /** convert, with the round-trip conversions made so far; throws NeedsConversion for one not made yet. */
  convert(obj: Typed, version: string, cache?: ConversionCache): Typed | undefined;
  /** Makes a conversion convert asked for (NeedsConversion). */
  convertAsync?(obj: Typed, version: string): Promise<Typed | undefined>;
  /** Every API version the type has: reset fields hold at each. */
  versions: readonly string[];
  /** objectCreater.New: the type's zero object at `apiVersion` (what a create is compared against). */
  newObject(apiVersion: string): JSONObject;
  /** The defaulter kube runs on an applied object (custom resources: their schemas' defaults). */
  defaults?(obj: JSONObject): void;
}
