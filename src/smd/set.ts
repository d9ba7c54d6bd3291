// A set of field paths (structured-merge-diff's fieldpath.Set): the fields a manager owns. A node holds
// its member elements and, per element with members below it, a child set, both sorted by element order,
// so unions, intersections and differences are merges of sorted lists. Sets returned by the operations
// may share child sets with their inputs: copy() before inserting into one.
import { compareElements, elementString, type PathElement } from './path-element.js';

export type Path = readonly PathElement[];

/** Path.String: the elements' strings one after the other, e.g. `.spec.ports[port=80,protocol="TCP"].name`. */
export const pathString = (p: Path): string => p.map(elementString).join('');

interface Child {
  element: PathElement;
  set: FieldSet;
}

/** Binary search in a list sorted by element: the index of `pe`, or -(insertion point) - 1. */
function search<T>(list: readonly T[], pe: PathElement, elementOf: (t: T) => PathElement): number {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = compareElements(elementOf(list[mid]!), pe);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -lo - 1;
}

const self = (pe: PathElement): PathElement => pe;

/** list.splice(at, 0, x), appending without splice's array of removed items where it can (sets are mostly built in order). */
function insertAt<T>(list: T[], at: number, x: T): void {
  if (at === list.length) list.push(x);
  else list.splice(at, 0, x);
}
const childElement = (c: Child): PathElement => c.element;

export class FieldSet {
  constructor(
    /** Elements that are members at this level, sorted. */
    readonly members: PathElement[] = [],
    /** Elements with members below them, sorted, each with its subset. */
    readonly children: Child[] = [],
  ) {}

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  copy(): FieldSet {
    return new FieldSet([...this.members], this.children.map((c) => ({ element: c.element, set: c.set.copy() })));
  }

  /** Adds the path (not its parents). The empty path stands for the whole object, which nobody owns. */
  insert(p: Path): void {
    if (p.length === 0) return;
    let node: FieldSet = this;
    for (let i = 0; i < p.length - 1; i++) node = node.descend(p[i]!);
    const pe = p[p.length - 1]!;
    const at = search(node.members, pe, self);
    if (at < 0) insertAt(node.members, -at - 1, pe);
  }

  /** insert([pe]): pe a member at this level. */
  addMember(pe: PathElement): void {
    const at = search(this.members, pe, self);
    if (at < 0) insertAt(this.members, -at - 1, pe);
  }

  /** The child set under pe, created empty when missing. */
  descend(pe: PathElement): FieldSet {
    const at = search(this.children, pe, childElement);
    if (at >= 0) return this.children[at]!.set;
    const set = new FieldSet();
    insertAt(this.children, -at - 1, { element: pe, set });
    return set;
  }

  /** Puts `set` under pe, replacing what was there. */
  setChild(pe: PathElement, set: FieldSet): void {
    const at = search(this.children, pe, childElement);
    if (at >= 0) this.children[at] = { element: pe, set };
    else insertAt(this.children, -at - 1, { element: pe, set });
  }

  /** The child set under pe, if any. */
  child(pe: PathElement): FieldSet | undefined {
    const at = search(this.children, pe, childElement);
    return at >= 0 ? this.children[at]!.set : undefined;
  }

  hasMember(pe: PathElement): boolean {
    return search(this.members, pe, self) >= 0;
  }

  has(p: Path): boolean {
    if (p.length === 0) return false;
    let node: FieldSet | undefined = this;
    for (let i = 0; i < p.length - 1 && node; i++) node = node.child(p[i]!);
    return node !== undefined && node.hasMember(p[p.length - 1]!);
  }

  size(): number {
    return this.members.length + this.children.reduce((n, c) => n + c.set.size(), 0);
  }

  empty(): boolean {
    return this.members.length === 0 && this.children.every((c) => c.set.empty());
  }

  equals(o: FieldSet): boolean {
    if (this.members.length !== o.members.length || this.children.length !== o.children.length) return false;
    for (let i = 0; i < this.members.length; i++) if (compareElements(this.members[i]!, o.members[i]!) !== 0) return false;
    for (let i = 0; i < this.children.length; i++) {
      const a = this.children[i]!;
      const b = o.children[i]!;
      if (compareElements(a.element, b.element) !== 0 || !a.set.equals(b.set)) return false;
    }
    return true;
  }

  /** Paths in s or o. */
  union(o: FieldSet): FieldSet {
    return new FieldSet(
      mergeMembers(this.members, o.members, 'union'),
      mergeChildren(this.children, o.children, (a, b) => a.union(b), false, true),
    );
  }

  /** Paths in both. */
  intersection(o: FieldSet): FieldSet {
    return new FieldSet(
      mergeMembers(this.members, o.members, 'intersection'),
      mergeChildren(this.children, o.children, (a, b) => a.intersection(b), true, false),
    );
  }

  /** Paths in s and not in o; a parent in o removes the parent, not what is below it. */
  difference(o: FieldSet): FieldSet {
    return new FieldSet(mergeMembers(this.members, o.members, 'difference'), differenceChildren(this.children, o, false));
  }

  /** Paths in s and not in o, where a member of o also removes everything below it. */
  recursiveDifference(o: FieldSet): FieldSet {
    return new FieldSet(mergeMembers(this.members, o.members, 'difference'), differenceChildren(this.children, o, true));
  }

  /** The paths that are not parents of other paths of the set. */
  leaves(): FieldSet {
    const members = this.members.filter((m) => search(this.children, m, childElement) < 0);
    return new FieldSet(members, this.children.map((c) => ({ element: c.element, set: c.set.leaves() })));
  }

  /** The paths below pe, without it. */
  withPrefix(pe: PathElement): FieldSet {
    return this.child(pe) ?? new FieldSet();
  }

  /** Every member path, in preorder: this level's members, then each child's paths. */
  *paths(prefix: PathElement[] = []): Generator<Path> {
    for (const m of this.members) yield [...prefix, m];
    for (const c of this.children) yield* c.set.paths([...prefix, c.element]);
  }

  /** Set.String: one path per line. */
  toString(): string {
    return [...this.paths()].map(pathString).join('\n');
  }
}

function mergeMembers(a: readonly PathElement[], b: readonly PathElement[], op: 'union' | 'intersection' | 'difference'): PathElement[] {
  const out: PathElement[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = compareElements(a[i]!, b[j]!);
    if (c < 0) {
      if (op !== 'intersection') out.push(a[i]!);
      i++;
    } else if (c > 0) {
      if (op === 'union') out.push(b[j]!);
      j++;
    } else {
      if (op !== 'difference') out.push(a[i]!);
      i++;
      j++;
    }
  }
  if (op !== 'intersection') out.push(...a.slice(i));
  if (op === 'union') out.push(...b.slice(j));
  return out;
}

/** Children present on both sides combine with `both`; one-sided ones are kept (union) or dropped (intersection). */
function mergeChildren(a: readonly Child[], b: readonly Child[], both: (x: FieldSet, y: FieldSet) => FieldSet, dropEmpty: boolean, keepOneSided: boolean): Child[] {
  const out: Child[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = compareElements(a[i]!.element, b[j]!.element);
    if (c < 0) {
      if (keepOneSided) out.push(a[i]!);
      i++;
    } else if (c > 0) {
      if (keepOneSided) out.push(b[j]!);
      j++;
    } else {
      const set = both(a[i]!.set, b[j]!.set);
      if (!dropEmpty || !set.empty()) out.push({ element: a[i]!.element, set });
      i++;
      j++;
    }
  }
  if (keepOneSided) {
    while (i < a.length) out.push(a[i++]!);
    while (j < b.length) out.push(b[j++]!);
  }
  return out;
}

function differenceChildren(a: readonly Child[], o: FieldSet, recursive: boolean): Child[] {
  const out: Child[] = [];
  for (const c of a) {
    if (recursive && o.hasMember(c.element)) continue;
    const other = o.child(c.element);
    if (!other) {
      out.push(c);
      continue;
    }
    const diff = recursive ? c.set.recursiveDifference(other) : c.set.difference(other);
    if (!diff.empty()) out.push({ element: c.element, set: diff });
  }
  return out;
}
