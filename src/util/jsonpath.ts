// Kubernetes JSONPath templates (k8s.io/client-go/util/jsonpath), as kube-apiserver evaluates printer
// columns and kubectl -o jsonpath prints: the same results, errors and text. Values are decoded JSON;
// see jsonpath-values.ts for how Go's types show through (int64 vs float64, nil, bytes of strings).
import { goJsonMarshal } from './go-json.js';
import { parseTemplate, type JsonPathNode, type ListNode } from './jsonpath-parser.js';
import { GoNumber, goCompare, goSprint, goSprintV, goTypeName } from './jsonpath-values.js';

export { JsonPathParseError, type JsonPathNode, type ListNode } from './jsonpath-parser.js';
export { GoNumber } from './jsonpath-values.js';

/** An evaluation error, with kube's message. */
export class JsonPathError extends Error {}

/** An error inside evaluation, carrying the values the failing step handed back (an exists-filter still counts them). */
class StepError extends JsonPathError {
  constructor(
    message: string,
    readonly partial: unknown[],
  ) {
    super(message);
  }
}

/** A reflect.Value that holds nothing: what a nil root or a range over nothing evaluates against. */
const NO_VALUE = undefined;

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof GoNumber);

/** What `*` and `..` descend into: map values, slice elements, a string's bytes. */
function childrenOf(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isMap(v)) return Object.values(v);
  if (typeof v === 'string') return [...Buffer.from(v, 'utf8')].map((b) => new GoNumber('uint8', b));
  return [];
}

/**
 * One parsed template. Like client-go's JSONPath it keeps range state between evaluations, and a
 * `{range}` leaves the template starting after itself for later evaluations, as kube's does.
 */
export class JsonPath {
  private root: ListNode | undefined;
  private allowMissing = false;
  private beginRange = 0;
  private inRange = 0;
  private endRange = 0;
  private lastEndNode: JsonPathNode | undefined;

  constructor(readonly name = '') {}

  /** With missing keys allowed, a field that is absent yields nothing instead of an error. */
  allowMissingKeys(allow: boolean): this {
    this.allowMissing = allow;
    return this;
  }

  /** Throws JsonPathParseError with kube's message. */
  parse(text: string): this {
    this.root = undefined;
    this.root = parseTemplate(text);
    return this;
  }

  /** The values of each top-level text and action, in order (a range contributes one set per item). */
  findResults(data: unknown): unknown[][] {
    const root = this.root;
    if (!root) throw new JsonPathError(`${this.name} is an incomplete jsonpath template`);
    const cur = [data === null ? NO_VALUE : data];
    const nodes = root.nodes;
    const full: unknown[][] = [];
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i]!;
      const results = this.walkTop(cur, node);
      if (this.endRange > 0 && this.endRange <= this.inRange) {
        this.endRange--;
        this.lastEndNode = node;
        break;
      }
      if (this.beginRange > 0) {
        this.beginRange--;
        this.inRange++;
        // The body runs once per item; over nothing it still runs, to find its {end}.
        for (const item of results.length > 0 ? results : [NO_VALUE]) {
          root.nodes = nodes.slice(i + 1);
          const inner = this.findResults(item === null ? NO_VALUE : item);
          if (results.length > 0) full.push(...inner);
        }
        this.inRange--;
        const end = this.lastEndNode ? nodes.indexOf(this.lastEndNode, i + 1) : -1;
        if (end >= 0) i = end;
        continue;
      }
      full.push(results);
    }
    return full;
  }

  /** One result set as text: scalars as Go prints them, maps and slices as JSON, separated by spaces. */
  printResults(results: readonly unknown[]): string {
    return results.map((r) => (Array.isArray(r) || isMap(r) ? goJsonMarshal(r) : goSprint(r))).join(' ');
  }

  /** The template's output for data, as kubectl -o jsonpath prints it. */
  execute(data: unknown): string {
    return this.findResults(data)
      .map((set) => this.printResults(set))
      .join('');
  }

  private walkTop(cur: unknown[], node: JsonPathNode): unknown[] {
    try {
      return this.walk(cur, node);
    } catch (e) {
      if (e instanceof StepError) throw new JsonPathError(e.message);
      throw e;
    }
  }

  private walk(input: unknown[], node: JsonPathNode): unknown[] {
    switch (node.type) {
      case 'list':
        return this.evalList(input, node);
      case 'text':
        return [node.text];
      case 'field':
        return this.evalField(input, node.name);
      case 'array':
        return this.evalArray(input, node);
      case 'filter':
        return this.evalFilter(input, node);
      case 'int':
        return input.map(() => new GoNumber('int', node.value));
      case 'float':
        return input.map(() => new GoNumber('float64', node.value));
      case 'bool':
        return input.map(() => node.value);
      case 'wildcard':
        return input.flatMap((v) => (v === null ? [] : childrenOf(v)));
      case 'recursive':
        return this.evalRecursive(input);
      case 'union':
        return this.evalUnion(input, node.nodes);
      case 'identifier':
        return this.evalIdentifier(input, node.name);
    }
  }

  private evalList(input: unknown[], node: ListNode): unknown[] {
    let cur = input;
    for (const n of node.nodes) cur = this.walk(cur, n);
    return cur;
  }

  private evalField(input: unknown[], name: string): unknown[] {
    if (input.length === 0) return [];
    const results: unknown[] = [];
    for (const v of input) if (isMap(v) && Object.hasOwn(v, name)) results.push(v[name]);
    if (results.length === 0 && !this.allowMissing) throw new StepError(`${name} is not found`, results);
    return results;
  }

  private evalArray(input: unknown[], node: Extract<JsonPathNode, { type: 'array' }>): unknown[] {
    const result: unknown[] = [];
    const [startP, endP, stepP] = node.params;
    for (const v of input) {
      if (v === null) continue;
      if (v === NO_VALUE) throw new StepError('reflect: call of reflect.Value.Type on zero Value', input);
      if (!Array.isArray(v)) throw new StepError(`${goTypeName(v)} is not array or slice`, input);
      const len = v.length;
      let start = startP.known ? startP.value : 0;
      if (start < 0) start += len;
      let end = endP.known ? endP.value : len;
      if (end < 0 || (end === 0 && endP.derived)) end += len;
      // Asking for no elements ends the whole step, dropping any later inputs (as kube does).
      if (end === start) return result;
      if (start >= len || start < 0) throw new StepError(`array index out of bounds: index ${start}, length ${len}`, input);
      if (end > len || end < 0) throw new StepError(`array index out of bounds: index ${end - 1}, length ${len}`, input);
      if (start > end) throw new StepError(`starting index ${start} is greater than ending index ${end}`, input);
      let step = 1;
      if (stepP.known) {
        if (stepP.value <= 0) throw new StepError('step must be > 0', input);
        step = stepP.value;
      }
      for (let i = start; i < end; i += step) result.push(v[i]);
    }
    return result;
  }

  private evalUnion(input: unknown[], lists: ListNode[]): unknown[] {
    const result: unknown[] = [];
    for (const l of lists) {
      try {
        result.push(...this.evalList(input, l));
      } catch (e) {
        throw e instanceof StepError ? new StepError(e.message, input) : e;
      }
    }
    return result;
  }

  private evalRecursive(input: unknown[]): unknown[] {
    const result: unknown[] = [];
    for (const v of input) {
      if (v === null) continue;
      const children = childrenOf(v);
      // Only values with something inside are results themselves; leaves are reached through them.
      if (children.length > 0) result.push(v, ...this.evalRecursive(children));
    }
    return result;
  }

  private evalFilter(input: unknown[], node: Extract<JsonPathNode, { type: 'filter' }>): unknown[] {
    const results: unknown[] = [];
    const operand = (item: unknown, side: ListNode): unknown[] | undefined => {
      let values: unknown[];
      try {
        values = this.evalList([item], side);
      } catch (e) {
        throw e instanceof StepError ? new StepError(e.message, input) : e;
      }
      if (values.length === 0) return undefined;
      if (values.length > 1) throw new StepError('can only compare one element at a time', input);
      return values;
    };
    for (const v of input) {
      if (!Array.isArray(v)) {
        const shown = v === NO_VALUE ? '<invalid reflect.Value>' : goSprintV(v);
        throw new StepError(`${shown} is not array or slice and cannot be filtered`, input);
      }
      for (const item of v) {
        if (node.operator === 'exists') {
          let lefts: unknown[];
          try {
            lefts = this.evalList([item], node.left);
          } catch (e) {
            if (!(e instanceof StepError)) throw e;
            lefts = e.partial;
          }
          if (lefts.length > 0) results.push(item);
          continue;
        }
        const left = operand(item, node.left);
        if (!left) continue;
        const right = operand(item, node.right);
        if (!right) continue;
        let pass: boolean;
        try {
          pass = goCompare(node.operator, left[0], right[0]);
        } catch (e) {
          throw new StepError((e as Error).message, results);
        }
        if (pass) results.push(item);
      }
    }
    return results;
  }

  private evalIdentifier(input: unknown[], name: string): unknown[] {
    if (name === 'range') {
      this.beginRange++;
      return input;
    }
    if (name === 'end') {
      if (this.inRange > 0) {
        this.endRange++;
        return [];
      }
      throw new StepError('not in range, nothing to end', []);
    }
    throw new StepError(`unrecognized identifier ${name}`, input);
  }
}

/** A parsed template, missing keys allowed or not. Throws JsonPathParseError. */
export function compileJsonPath(template: string, opts: { allowMissingKeys?: boolean; name?: string } = {}): JsonPath {
  return new JsonPath(opts.name).allowMissingKeys(opts.allowMissingKeys ?? false).parse(template);
}
