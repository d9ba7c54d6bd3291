// The CEL abstract syntax tree, shaped like cel-go's common/ast so that its
// debug strings, macro expansions and checker output can be compared with the
// reference. Every node has a unique id (ids start at 1 and grow in parse
// order, as cel-go assigns them) and its source offset lives in SourceInfo.

export type Expr =
  | LiteralExpr
  | IdentExpr
  | SelectExpr
  | CallExpr
  | ListExpr
  | MapExpr
  | StructExpr
  | ComprehensionExpr;

/** A literal's value: int is a bigint, uint a {@link Uint}, bytes a Uint8Array. */
export type Literal =
  | { kind: 'null' }
  | { kind: 'bool'; value: boolean }
  | { kind: 'int'; value: bigint }
  | { kind: 'uint'; value: bigint }
  | { kind: 'double'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'bytes'; value: Uint8Array };

interface LiteralExpr { id: number; kind: 'literal'; value: Literal }

export interface IdentExpr { id: number; kind: 'ident'; name: string }

/** `operand.field`; testOnly marks the presence test produced by has(). */
export interface SelectExpr { id: number; kind: 'select'; operand: Expr; field: string; testOnly: boolean }

/** `fn(args)` or, with a target, `target.fn(args)`. Operators use their
 * internal names (`_+_`, `_[_]`, `!_`, `_?_:_`, `@in`, ...). */
export interface CallExpr { id: number; kind: 'call'; fn: string; target?: Expr; args: Expr[] }

/** `[a, ?b]`: optionalIndices lists the positions written with `?`. */
export interface ListExpr { id: number; kind: 'list'; elements: Expr[]; optionalIndices: number[] }

export interface MapEntry { id: number; key: Expr; value: Expr; optional: boolean }
export interface MapExpr { id: number; kind: 'map'; entries: MapEntry[] }

export interface StructField { id: number; field: string; value: Expr; optional: boolean }
/** `Type{field: value}` message construction. */
export interface StructExpr { id: number; kind: 'struct'; typeName: string; fields: StructField[] }

/** A fold, produced only by macros (all, exists, map, filter, cel.bind, ...).
 * iterVar2 is set for two-variable comprehensions. */
export interface ComprehensionExpr {
  id: number;
  kind: 'comprehension';
  iterRange: Expr;
  iterVar: string;
  iterVar2?: string;
  accuVar: string;
  accuInit: Expr;
  loopCondition: Expr;
  loopStep: Expr;
  result: Expr;
}

/** Where each node came from, for error positions and macro bookkeeping. */
export interface SourceInfo {
  /** The expression text, for line/column computation. */
  source: string;
  /** Node id → offset (in code points) into source. */
  positions: Map<number, number>;
  /** Macro call id → the call as written, before expansion. */
  macroCalls: Map<number, Expr>;
}

export interface ParsedAst { expr: Expr; sourceInfo: SourceInfo }

/** What the checker resolved an identifier or call to. */
export interface Reference {
  /** A qualified identifier name (for variables and type names). */
  name?: string;
  /** Candidate overload ids for a call; one when statically resolved. */
  overloadIds?: string[];
}

export interface CheckedAst extends ParsedAst {
  /** Node id → its type. */
  types: Map<number, import('./types.js').CelType>;
  /** Node id → what it refers to. */
  references: Map<number, Reference>;
}
