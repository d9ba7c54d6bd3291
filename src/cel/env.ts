// A CEL environment: the functions, identifiers and variables an expression
// may use. Built once (per CRD version for custom resources) and shared by
// the checker, the planner and the cost estimator.

import type { FunctionDecl, Library, Overload } from './decls.js';
import type { CelType } from './types.js';
import type { Val } from './values.js';

export interface VariableDecl { name: string; type: CelType }

export class Env {
  /** Function name → all its overloads, merged across libraries. */
  readonly functions = new Map<string, FunctionDecl>();
  /** Overload id → overload. */
  readonly overloads = new Map<string, Overload>();
  /** Identifiers with a value (type names such as `int`, `net.IP`). */
  readonly idents = new Map<string, { type: CelType; value: Val }>();
  /** Variables the activation binds (`self`, `oldSelf`). */
  readonly variables = new Map<string, CelType>();

  constructor(readonly libraries: readonly Library[], variables: readonly VariableDecl[] = []) {
    for (const lib of libraries) {
      for (const fn of lib.functions) this.addFunction(fn);
      for (const id of lib.idents ?? []) this.idents.set(id.name, { type: id.type, value: id.value });
    }
    for (const v of variables) this.variables.set(v.name, v.type);
  }

  /** The same functions with other variables: cheap, libraries are not re-merged. */
  withVariables(variables: readonly VariableDecl[]): Env {
    const env = Object.create(Env.prototype) as Env;
    Object.assign(env, this, { variables: new Map(variables.map((v) => [v.name, v.type])) });
    return env;
  }

  private addFunction(fn: FunctionDecl): void {
    const existing = this.functions.get(fn.name);
    const merged: FunctionDecl = existing ? { name: fn.name, overloads: [...existing.overloads] } : { name: fn.name, overloads: [] };
    for (const o of fn.overloads) {
      if (this.overloads.has(o.id)) throw new Error(`duplicate overload id ${o.id}`);
      this.overloads.set(o.id, o);
      merged.overloads.push(o);
    }
    this.functions.set(fn.name, merged);
  }
}
