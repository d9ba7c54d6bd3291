// Bookkeeping shared by the schema compilers that generate JavaScript: generated functions, a prologue,
// constants passed in as K[i], and fresh names.
export class CodeGenerator {
  readonly fns: string[] = [];
  readonly prologue: string[] = [];
  readonly consts: unknown[] = [];
  private n = 0;

  constructor(private readonly prefix: string) {}

  constant(value: unknown): string {
    this.consts.push(value);
    return `K[${this.consts.length - 1}]`;
  }

  name(): string {
    return `${this.prefix}${this.n++}`;
  }
}

/** Above this many names in one group (same length, same dispatching character), another character is dispatched on. */
const NAME_GROUP_MAX = 3;

/**
 * Statements running `code(i)` when string `key` is `names[i]`, and nothing when it is none of them: a switch on
 * the length, then on the character that tells most names of that length apart, then comparisons. A Map's lookup
 * hashes, then follows its bucket chain through keys spread over the heap; this reads the key and compares it with
 * constants (an identical string compares equal at once), which for the property names an object walk meets (the
 * keys of a for-in) is several times cheaper, and lets each case call its own function directly.
 */
export function nameSwitchCode(names: readonly string[], key: string, code: (i: number) => string): string {
  const byLength = new Map<number, Array<[string, number]>>();
  names.forEach((n, i) => {
    let g = byLength.get(n.length);
    if (g === undefined) byLength.set(n.length, (g = []));
    g.push([n, i]);
  });
  const cases = [...byLength].map(([len, group]) => `case ${len}: ${groupCode(group, key, code)} break;`);
  return `switch (${key}.length) {\n${cases.join('\n')}\n}`;
}

function groupCode(group: Array<[string, number]>, key: string, code: (i: number) => string): string {
  const compare = (): string => group.map(([n, i]) => `if (${key} === ${JSON.stringify(n)}) { ${code(i)} }`).join(' else ');
  if (group.length <= NAME_GROUP_MAX) return compare();
  // The position whose character splits the group into the most parts (the first of equals).
  const len = group[0]![0].length;
  let best = -1;
  let bestParts = 1;
  for (let p = 0; p < len; p++) {
    const parts = new Set(group.map(([n]) => n.charCodeAt(p))).size;
    if (parts > bestParts) {
      best = p;
      bestParts = parts;
    }
  }
  if (best < 0) return compare();
  const byChar = new Map<number, Array<[string, number]>>();
  for (const e of group) {
    const c = e[0].charCodeAt(best);
    let g = byChar.get(c);
    if (g === undefined) byChar.set(c, (g = []));
    g.push(e);
  }
  const cases = [...byChar].map(([c, g]) => `case ${c}: ${groupCode(g, key, code)} break;`);
  return `switch (${key}.charCodeAt(${best})) {\n${cases.join('\n')}\n}`;
}
