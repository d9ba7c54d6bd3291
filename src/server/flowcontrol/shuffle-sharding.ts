// Shuffle sharding (k8s.io/apiserver pkg/util/shufflesharding): a flow's 64-bit hash deals it a hand of
// distinct queues out of the deck, so two flows rarely share all their queues. The hash is kube's
// hashFlowID: the first eight bytes of SHA-256(schema name, NUL, distinguisher), little-endian.
import { createHash } from 'node:crypto';

export const MAX_HASH_BITS = 60;

export const requiredEntropyBits = (deckSize: number, handSize: number): number => Math.ceil(Math.log2(deckSize) * handSize);

export function hashFlowID(flowSchemaName: string, distinguisher: string): bigint {
  const key = `${flowSchemaName}\0${distinguisher}`;
  let h = flowHashes.get(key);
  if (h === undefined) {
    // A SHA-256 per request cost more than the rest of classification: flows repeat, so remember them.
    if (flowHashes.size >= FLOW_HASH_CACHE_SIZE) flowHashes.clear();
    h = createHash('sha256').update(key).digest().readBigUInt64LE(0);
    flowHashes.set(key, h);
  }
  return h;
}

const FLOW_HASH_CACHE_SIZE = 4096;
const flowHashes = new Map<string, bigint>();

/** The queues of a hand, in the order kube's Dealer deals them. */
export function dealHand(hashValue: bigint, deckSize: number, handSize: number): number[] {
  const remainders: number[] = [];
  let h = hashValue;
  for (let i = 0; i < handSize; i++) {
    const n = BigInt(deckSize - i);
    remainders.push(Number(h % n));
    h /= n;
  }
  // Each remainder indexes the cards not yet dealt: shift it past the smaller ones dealt before.
  return remainders.map((r, i) => {
    let card = r;
    for (let j = i; j > 0; j--) if (card >= remainders[j - 1]!) card++;
    return card;
  });
}
