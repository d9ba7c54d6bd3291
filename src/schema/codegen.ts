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
