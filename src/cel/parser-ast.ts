// Node construction for the parser and macros. Ids are handed out in the
// order cel-go's parser helper assigns them, each with its source offset, so
// that ids, positions and debug strings match the reference.

import type { ComprehensionExpr, Expr, Literal, MapEntry, StructField } from './ast.js';

export class AstFactory {
  nextId = 1;
  readonly positions = new Map<number, number>();
  readonly macroCalls = new Map<number, Expr>();
  /** Visitor nesting height per node id, for cel-go's "max recursion depth". */
  readonly heights: number[] = [];

  constructor(readonly accuName: string) {}

  /** A fresh id located at offset (code points). */
  id(offset: number): number {
    const id = this.nextId++;
    this.positions.set(id, offset);
    return id;
  }

  /** Forgets an id's position; reuses the id only when it was the last one. */
  deleteId(id: number): void {
    this.positions.delete(id);
    if (id === this.nextId - 1) this.nextId--;
  }

  offsetOf(id: number): number { return this.positions.get(id) ?? 0; }
  height(e: Expr): number { return this.heights[e.id] ?? 0; }
  setHeight(e: Expr, h: number): Expr { if (h > 0) this.heights[e.id] = h; return e; }

  literal(id: number, value: Literal): Expr { return { id, kind: 'literal', value }; }
  ident(id: number, name: string): Expr { return { id, kind: 'ident', name }; }
  select(id: number, operand: Expr, field: string, testOnly = false): Expr {
    return { id, kind: 'select', operand, field, testOnly };
  }
  call(id: number, fn: string, args: Expr[], target?: Expr): Expr {
    return target ? { id, kind: 'call', fn, target, args } : { id, kind: 'call', fn, args };
  }
  list(id: number, elements: Expr[], optionalIndices: number[] = []): Expr {
    return { id, kind: 'list', elements, optionalIndices };
  }
  map(id: number, entries: MapEntry[]): Expr { return { id, kind: 'map', entries }; }
  struct(id: number, typeName: string, fields: StructField[]): Expr {
    return { id, kind: 'struct', typeName, fields };
  }
  comprehension(id: number, c: Omit<ComprehensionExpr, 'id' | 'kind'>): Expr {
    const e: ComprehensionExpr = { id, kind: 'comprehension', ...c };
    if (e.iterVar2 === undefined || e.iterVar2 === '') delete e.iterVar2;
    return e;
  }
}

/** What macro expanders build with: every node is located at the macro call. */
export class MacroHelper {
  constructor(private readonly f: AstFactory, private readonly callId: number) {}

  private next(): number { return this.f.id(this.f.offsetOf(this.callId)); }

  get accuName(): string { return this.f.accuName; }
  literal(value: Literal): Expr { return this.f.literal(this.next(), value); }
  bool(v: boolean): Expr { return this.literal({ kind: 'bool', value: v }); }
  int(v: number): Expr { return this.literal({ kind: 'int', value: BigInt(v) }); }
  ident(name: string): Expr { return this.f.ident(this.next(), name); }
  accu(): Expr { return this.f.ident(this.next(), this.f.accuName); }
  list(...elements: Expr[]): Expr { return this.f.list(this.next(), elements); }
  map(): Expr { return this.f.map(this.next(), []); }
  call(fn: string, ...args: Expr[]): Expr { return this.f.call(this.next(), fn, args); }
  memberCall(fn: string, target: Expr, ...args: Expr[]): Expr { return this.f.call(this.next(), fn, args, target); }
  presenceTest(operand: Expr, field: string): Expr { return this.f.select(this.next(), operand, field, true); }
  comprehension(iterRange: Expr, iterVar: string, iterVar2: string | undefined, accuVar: string, accuInit: Expr,
    loopCondition: Expr, loopStep: Expr, result: Expr): Expr {
    return this.f.comprehension(this.next(), { iterRange, iterVar, iterVar2, accuVar, accuInit, loopCondition, loopStep, result });
  }

  /** A deep copy with fresh ids, each at its original's offset (cel-go Copy). */
  copy(e: Expr): Expr {
    const f = this.f;
    const id = f.id(f.offsetOf(e.id));
    switch (e.kind) {
      case 'literal': return f.literal(id, e.value);
      case 'ident': return f.ident(id, e.name);
      case 'select': return f.select(id, this.copy(e.operand), e.field, e.testOnly);
      case 'call': {
        const args = e.args.map((a) => this.copy(a));
        return e.target ? f.call(id, e.fn, args, this.copy(e.target)) : f.call(id, e.fn, args);
      }
      case 'list': return f.list(id, e.elements.map((x) => this.copy(x)), [...e.optionalIndices]);
      case 'map': return f.map(id, e.entries.map((en) => {
        const entryId = this.next();
        return { id: entryId, key: this.copy(en.key), value: this.copy(en.value), optional: en.optional };
      }));
      case 'struct': return f.struct(id, e.typeName, e.fields.map((fl) => {
        const fieldId = this.next();
        return { id: fieldId, field: fl.field, value: this.copy(fl.value), optional: fl.optional };
      }));
      case 'comprehension': {
        const iterRange = this.copy(e.iterRange);
        const accuInit = this.copy(e.accuInit);
        const loopCondition = this.copy(e.loopCondition);
        const loopStep = this.copy(e.loopStep);
        const result = this.copy(e.result);
        return f.comprehension(id, { iterRange, iterVar: e.iterVar, iterVar2: e.iterVar2, accuVar: e.accuVar, accuInit, loopCondition, loopStep, result });
      }
    }
  }
}

/** A macro's complaint about its arguments, located at an argument. */
export interface MacroError { macroError: string; id: number }
