// An update's stored text around a top-level member it left as it was. A /status write keeps the spec it read (a
// CRD's schemas: 80 KB serialized again for each condition the controllers set), so that member's text is
// the one the previous stored text has: it is taken from there, and only the other members are serialized.
// Where the kept member's text lies in the previous text is found without scanning it: the previous object's
// other members are serialized (they are small beside it) and must be exactly what the text starts and ends
// with, else nothing is taken and the whole object is serialized as before.
import type { JSONObject } from '../util/json.js';
import { stringifyJSON } from '../util/json-int64.js';

/** Previous stored texts shorter than this are serialized again whole: finding the member would cost more. */
export const REUSE_MIN_TEXT = 16 * 1024;

let reusing = true;
let taken = 0;

/** Tests compare the stored bytes with and without the reuse. */
export function reuseUnchangedMembers(on: boolean): void {
  reusing = on;
}

/** How many members' texts were taken from previous texts in this process (tests check the reuse happens). */
export function keptMemberTexts(): number {
  return taken;
}

/**
 * 'spec' when `next` (an update's object as it goes to storage, before ordering) holds there the very object
 * `previous` (the object read, whose stored text the update replaces) holds: kept, so its text in the previous
 * text is its text now. The spec alone: it is what a /status write keeps and what is large, while a write of the
 * spec keeps a status that is usually small, and finding where a kept member lies serializes the others.
 */
export function unchangedMember(next: JSONObject, previous: JSONObject): 'spec' | undefined {
  if (!reusing) return undefined;
  const spec = next['spec'];
  return typeof spec === 'object' && spec !== null && spec === previous['spec'] ? 'spec' : undefined;
}

/** An object's JSON text up to a member's value (head) and from after it (tail), with each other member's text. */
interface Around {
  head: string;
  tail: string;
  texts: Map<string, string>;
}

/**
 * JSON.stringify(o) cut around member `key`'s value: `head` + its text + `tail`. Other members' texts are taken from
 * `known` where it has them (members the caller knows to be the same as there). Undefined when o lacks the member.
 */
function around(o: JSONObject, key: string, known?: ReadonlyMap<string, string>): Around | undefined {
  let head = '{';
  let tail = '';
  let found = false;
  let first = true;
  const texts = new Map<string, string>();
  for (const k of Object.keys(o)) {
    const v = o[k];
    // JSON.stringify leaves such members out.
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    const name = JSON.stringify(k);
    if (k === key) {
      head += `${first ? '' : ','}${name}:`;
      found = true;
    } else {
      const text = known?.get(k) ?? (stringifyJSON(v) as string | undefined);
      // A toJSON giving undefined: left out by JSON.stringify too; the whole object is serialized instead.
      if (text === undefined) return undefined;
      texts.set(k, text);
      if (found) tail += `,${name}:${text}`;
      else head += `${first ? '' : ','}${name}:${text}`;
    }
    first = false;
  }
  return found ? { head, tail: `${tail}}`, texts } : undefined;
}

/**
 * stringifyJSON(ordered), with member `key`'s text taken from `previousText` (the stored text of `previousOrdered`)
 * rather than serialized again. `ordered[key]` must have the content of `previousOrdered[key]` (ordered from the very
 * object the previous one was ordered from); `same` names other members known to be alike in both (their texts are
 * made once). Undefined when previousOrdered's other members are not exactly what surrounds that text.
 */
export function spliceStoredText(ordered: JSONObject, previousOrdered: JSONObject, previousText: string, key: string, same: ReadonlySet<string>): string | undefined {
  const before = around(previousOrdered, key);
  if (!before) return undefined;
  const { head, tail } = before;
  if (head.length + tail.length > previousText.length || !previousText.startsWith(head) || !previousText.endsWith(tail)) return undefined;
  const known = new Map<string, string>();
  for (const k of same) {
    const text = before.texts.get(k);
    if (text !== undefined) known.set(k, text);
  }
  const now = around(ordered, key, known);
  if (!now) return undefined;
  taken++;
  return now.head + previousText.slice(head.length, previousText.length - tail.length) + now.tail;
}
