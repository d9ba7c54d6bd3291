// Watchers of key prefixes, found by an event's key without visiting the others. Every logical cluster's
// controllers watch through the one store, so an event must not cost a check per watcher in the process.
//
// A watcher is filed under its prefix cut after the prefix's last '/'. A key can only start with a prefix whose
// cut is one of the key's own '/'-ended beginnings (or '' for a prefix without '/'), so a key's watchers are
// among those filed under its few beginnings.

/** A prefix up to and including its last '/' ('' when it has none). */
const cutOf = (prefix: string): string => prefix.slice(0, prefix.lastIndexOf('/') + 1);

export class PrefixWatchers<W extends { readonly prefix: string }> {
  private readonly byCut = new Map<string, Set<W>>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(w: W): void {
    const cut = cutOf(w.prefix);
    let near = this.byCut.get(cut);
    if (!near) this.byCut.set(cut, (near = new Set()));
    if (!near.has(w)) this.count++;
    near.add(w);
  }

  /** Whether w was there. */
  delete(w: W): boolean {
    const cut = cutOf(w.prefix);
    const near = this.byCut.get(cut);
    if (!near?.delete(w)) return false;
    this.count--;
    if (near.size === 0) this.byCut.delete(cut);
    return true;
  }

  /**
   * Each watcher that may want the key (its prefix's cut is a beginning of the key; the caller checks the
   * prefix itself), shortest cut first and in the order they were added within one. A watcher added during
   * the visit is visited too when it is filed under a cut not yet passed; one deleted and not yet visited is not.
   */
  forKey(key: string, visit: (w: W) => void): void {
    for (let end = -1; ; ) {
      const near = this.byCut.get(key.slice(0, end + 1));
      if (near) for (const w of near) visit(w);
      end = key.indexOf('/', end + 1);
      if (end < 0) return;
    }
  }

  /** Every watcher (a copy: visiting may delete). */
  all(): W[] {
    const out: W[] = [];
    for (const near of this.byCut.values()) out.push(...near);
    return out;
  }
}
