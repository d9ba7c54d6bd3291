// A Swagger 2.0 document as gnostic's openapi_v2.Document in protobuf (github.com/google/gnostic-models
// openapiv2/OpenAPIv2.proto): what kube-openapi's handler serves for
// application/com.github.proto-openapi.spec.v2@v1.0+protobuf, read by kubectl 1.27/1.28 and client-go.
// As gnostic's ParseDocument does: maps become repeated Named* entries in document order, `x-` keys
// become vendor extensions whose value is YAML text, `$ref` parameters become JSON references, and
// parameters take the oneof branch of their `in`.

import { stringify } from 'yaml';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Bytes of one message, fields appended in field-number order as Go's proto.Marshal writes them. */
class Message {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  private push(bytes: Uint8Array | number[]): void {
    const b = bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes);
    this.parts.push(b);
    this.size += b.length;
  }

  private key(field: number, wireType: number): void {
    this.push(varint(BigInt((field << 3) | wireType)));
  }

  string(field: number, value: unknown): this {
    if (typeof value === 'string' && value !== '') this.bytes(field, Buffer.from(value, 'utf8'));
    return this;
  }

  strings(field: number, values: unknown): this {
    if (Array.isArray(values)) for (const v of values) if (typeof v === 'string') this.bytes(field, Buffer.from(v, 'utf8'));
    return this;
  }

  bool(field: number, value: unknown): this {
    if (value === true) {
      this.key(field, 0);
      this.push([1]);
    }
    return this;
  }

  /** A bool member of a oneof: written even when false. */
  oneofBool(field: number, value: boolean): this {
    this.key(field, 0);
    this.push([value ? 1 : 0]);
    return this;
  }

  int64(field: number, value: unknown): this {
    if ((typeof value === 'number' || typeof value === 'bigint') && value != 0) {
      this.key(field, 0);
      this.push(varint(BigInt.asUintN(64, typeof value === 'bigint' ? value : BigInt(Math.trunc(value)))));
    }
    return this;
  }

  double(field: number, value: unknown): this {
    if (typeof value === 'bigint') value = Number(value); // a float64 in Go's schema types
    if (typeof value === 'number' && value !== 0) {
      this.key(field, 1);
      const b = Buffer.alloc(8);
      b.writeDoubleLE(value);
      this.push(b);
    }
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.key(field, 2);
    this.push(varint(BigInt(value.length)));
    this.push(value);
    return this;
  }

  message(field: number, m: Message | undefined): this {
    if (m) this.bytes(field, m.finish());
    return this;
  }

  finish(): Uint8Array {
    return Buffer.concat(this.parts, this.size);
  }
}

function varint(n: bigint): number[] {
  const out: number[] = [];
  while (n > 0x7fn) {
    out.push(Number(n & 0x7fn) | 0x80);
    n >>= 7n;
  }
  out.push(Number(n));
  return out;
}

/** Any: the value as YAML text (gnostic marshals the node with yaml.v3). */
const any = (value: unknown): Message => new Message().string(2, stringify(value, { lineWidth: 0, indent: 4, indentSeq: false }));

/** repeated NamedAny vendor_extension: the `x-` keys in order. */
function vendorExtensions(m: Message, field: number, obj: Json): void {
  for (const [k, v] of Object.entries(obj)) if (k.startsWith('x-')) m.message(field, new Message().string(1, k).message(2, any(v)));
}

/** repeated Named<T> entries of a map. */
function named(m: Message, field: number, map: unknown, encode: (v: unknown) => Message): void {
  if (!isObject(map)) return;
  for (const [k, v] of Object.entries(map)) m.message(field, new Message().string(1, k).message(2, encode(v)));
}

function schema(s: unknown): Message {
  const o = isObject(s) ? s : {};
  const m = new Message()
    .string(1, o['$ref'])
    .string(2, o['format'])
    .string(3, o['title'])
    .string(4, o['description']);
  if (o['default'] !== undefined) m.message(5, any(o['default']));
  m.double(6, o['multipleOf'])
    .double(7, o['maximum'])
    .bool(8, o['exclusiveMaximum'])
    .double(9, o['minimum'])
    .bool(10, o['exclusiveMinimum'])
    .int64(11, o['maxLength'])
    .int64(12, o['minLength'])
    .string(13, o['pattern'])
    .int64(14, o['maxItems'])
    .int64(15, o['minItems'])
    .bool(16, o['uniqueItems'])
    .int64(17, o['maxProperties'])
    .int64(18, o['minProperties'])
    .strings(19, o['required']);
  if (Array.isArray(o['enum'])) for (const v of o['enum']) m.message(20, any(v));
  const ap = o['additionalProperties'];
  if (typeof ap === 'boolean') m.message(21, new Message().oneofBool(2, ap));
  else if (isObject(ap)) m.message(21, new Message().message(1, schema(ap)));
  const type = o['type'];
  if (typeof type === 'string' || Array.isArray(type)) m.message(22, new Message().strings(1, typeof type === 'string' ? [type] : type));
  const items = o['items'];
  if (isObject(items) || Array.isArray(items)) {
    const im = new Message();
    for (const it of Array.isArray(items) ? items : [items]) im.message(1, schema(it));
    m.message(23, im);
  }
  if (Array.isArray(o['allOf'])) for (const x of o['allOf']) m.message(24, schema(x));
  if (isObject(o['properties'])) {
    const pm = new Message();
    named(pm, 1, o['properties'], schema);
    m.message(25, pm);
  }
  m.string(26, o['discriminator']).bool(27, o['readOnly']);
  if (o['example'] !== undefined) m.message(30, any(o['example']));
  vendorExtensions(m, 31, o);
  return m;
}

/** Parameter: a body parameter, or the non-body sub-schema its `in` selects. */
function parameter(p: unknown): Message {
  const o = isObject(p) ? p : {};
  if (o['in'] === 'body') {
    const body = new Message().string(1, o['description']).string(2, o['name']).string(3, o['in']).bool(4, o['required']);
    if (o['schema'] !== undefined) body.message(5, schema(o['schema']));
    vendorExtensions(body, 6, o);
    return new Message().message(1, body);
  }
  // header=1, formData=2, query=3, path=4; query and formData carry allowEmptyValue at 5, shifting the rest by one.
  const branch = { header: 1, formData: 2, query: 3, path: 4 }[String(o['in'])] ?? 3;
  const shift = branch === 2 || branch === 3 ? 1 : 0;
  const sub = new Message().bool(1, o['required']).string(2, o['in']).string(3, o['description']).string(4, o['name']);
  if (shift) sub.bool(5, o['allowEmptyValue']);
  sub
    .string(5 + shift, o['type'])
    .string(6 + shift, o['format'])
    .string(8 + shift, o['collectionFormat']);
  if (o['default'] !== undefined) sub.message(9 + shift, any(o['default']));
  sub
    .double(10 + shift, o['maximum'])
    .bool(11 + shift, o['exclusiveMaximum'])
    .double(12 + shift, o['minimum'])
    .bool(13 + shift, o['exclusiveMinimum'])
    .int64(14 + shift, o['maxLength'])
    .int64(15 + shift, o['minLength'])
    .string(16 + shift, o['pattern'])
    .int64(17 + shift, o['maxItems'])
    .int64(18 + shift, o['minItems'])
    .bool(19 + shift, o['uniqueItems']);
  if (Array.isArray(o['enum'])) for (const v of o['enum']) sub.message(20 + shift, any(v));
  sub.double(21 + shift, o['multipleOf']);
  vendorExtensions(sub, 22 + shift, o);
  return new Message().message(2, new Message().message(branch, sub));
}

/** ParametersItem: a JSON reference or a parameter. */
function parametersItem(p: unknown): Message {
  if (isObject(p) && typeof p['$ref'] === 'string') return new Message().message(2, new Message().string(1, p['$ref']));
  return new Message().message(1, parameter(p));
}

function response(r: unknown): Message {
  const o = isObject(r) ? r : {};
  if (typeof o['$ref'] === 'string') return new Message().message(2, new Message().string(1, o['$ref']));
  const m = new Message().string(1, o['description']);
  if (o['schema'] !== undefined) m.message(2, new Message().message(1, schema(o['schema'])));
  vendorExtensions(m, 5, o);
  return new Message().message(1, m);
}

function operation(op: unknown): Message {
  const o = isObject(op) ? op : {};
  const m = new Message()
    .strings(1, o['tags'])
    .string(2, o['summary'])
    .string(3, o['description'])
    .string(5, o['operationId'])
    .strings(6, o['produces'])
    .strings(7, o['consumes']);
  if (Array.isArray(o['parameters'])) for (const p of o['parameters']) m.message(8, parametersItem(p));
  if (isObject(o['responses'])) {
    const rs = new Message();
    for (const [code, r] of Object.entries(o['responses'])) {
      if (code.startsWith('x-')) continue;
      rs.message(1, new Message().string(1, code).message(2, response(r)));
    }
    vendorExtensions(rs, 2, o['responses']);
    m.message(9, rs);
  }
  m.strings(10, o['schemes']).bool(11, o['deprecated']);
  vendorExtensions(m, 13, o);
  return m;
}

function pathItem(item: unknown): Message {
  const o = isObject(item) ? item : {};
  const m = new Message().string(1, o['$ref']);
  const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];
  methods.forEach((method, i) => {
    if (o[method] !== undefined) m.message(2 + i, operation(o[method]));
  });
  if (Array.isArray(o['parameters'])) for (const p of o['parameters']) m.message(9, parametersItem(p));
  vendorExtensions(m, 10, o);
  return m;
}

function securityDefinition(d: unknown): Message {
  const o = isObject(d) ? d : {};
  if (o['type'] === 'basic') return new Message().message(1, new Message().string(1, o['type']).string(2, o['description']));
  return new Message().message(2, new Message().string(1, o['type']).string(2, o['name']).string(3, o['in']).string(4, o['description']));
}

/** openapi_v2.ParseDocument then proto.Marshal, for the parts of Swagger 2.0 kube's documents use. */
export function openapiV2Protobuf(doc: Json): Uint8Array {
  const m = new Message().string(1, doc['swagger']);
  const info = isObject(doc['info']) ? doc['info'] : {};
  m.message(2, new Message().string(1, info['title']).string(2, info['version']).string(3, info['description']));
  m.string(3, doc['host']).string(4, doc['basePath']).strings(5, doc['schemes']).strings(6, doc['consumes']).strings(7, doc['produces']);
  if (isObject(doc['paths'])) {
    const paths = new Message();
    vendorExtensions(paths, 1, doc['paths']);
    for (const [p, item] of Object.entries(doc['paths'])) if (!p.startsWith('x-')) paths.message(2, new Message().string(1, p).message(2, pathItem(item)));
    m.message(8, paths);
  }
  if (isObject(doc['definitions'])) {
    const defs = new Message();
    named(defs, 1, doc['definitions'], schema);
    m.message(9, defs);
  }
  if (isObject(doc['parameters'])) {
    const params = new Message();
    named(params, 1, doc['parameters'], parameter);
    m.message(10, params);
  }
  if (Array.isArray(doc['security'])) {
    for (const req of doc['security']) {
      const r = new Message();
      named(r, 1, req, (scopes) => new Message().strings(1, scopes));
      m.message(12, r);
    }
  }
  if (isObject(doc['securityDefinitions'])) {
    const defs = new Message();
    named(defs, 1, doc['securityDefinitions'], securityDefinition);
    m.message(13, defs);
  }
  vendorExtensions(m, 16, doc);
  return m.finish();
}
