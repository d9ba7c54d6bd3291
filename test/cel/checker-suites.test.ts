// The checker against cel-go's recorded output: the cel-spec checking suite
// (from cel-go's checker_test.go) and the checked ASTs and types of the
// conformance suite. Protobuf-dependent tests (messages, wrappers, enums,
// containers) are left out, since Kubernetes declares no protobuf types, as
// are the sections needing extension libraries Kubernetes does not have.
// Declarations come from the engine's own standard, optional and strings libraries.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { tests as checkingSuite } from '@bufbuild/cel-spec/testdata/checking.js';
import { tests as conformanceSuite } from '@bufbuild/cel-spec/testdata/conformance.js';
import type { SerializedIncrementalTest, SerializedIncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { parse } from '../../src/cel/parser.js';
import { check } from '../../src/cel/checker.js';
import { ALL_PARSER_MACROS, BINDINGS_MACROS, OPTIONAL_MACROS, TWO_VAR_COMPREHENSION_MACROS } from '../../src/cel/macros.js';
import { checkedAdorner, debugString } from '../../src/cel/debug-string.js';
import { formatIssues } from '../../src/cel/issues.js';
import { formatCelType } from '../../src/cel/checker-types.js';
import { Env, type VariableDecl } from '../../src/cel/env.js';
import type { FunctionDecl } from '../../src/cel/decls.js';
import * as T from '../../src/cel/types.js';
import { CelError } from '../../src/cel/values.js';
import { STANDARD_LIBRARY } from '../../src/cel/stdlib.js';
import { OPTIONAL_LIBRARY } from '../../src/cel/optional-lib.js';
import { stringsLibrary } from '../../src/cel/lib/strings.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A protobuf-JSON cel.expr.Type as a CelType. */
function pbType(j: Json): T.CelType {
  if (j.primitive) {
    const p = ({ INT64: T.INT, UINT64: T.UINT, STRING: T.STRING, BOOL: T.BOOL, DOUBLE: T.DOUBLE, BYTES: T.BYTES } as Record<string, T.CelType>)[j.primitive];
    if (p) return p;
  }
  if (j.listType) return T.listOf(pbType(j.listType.elemType));
  if (j.mapType) return T.mapOf(pbType(j.mapType.keyType), pbType(j.mapType.valueType));
  if ('dyn' in j) return T.DYN;
  if ('null' in j) return T.NULL;
  if (j.wellKnown === 'TIMESTAMP') return T.TIMESTAMP;
  if (j.wellKnown === 'DURATION') return T.DURATION;
  if (j.typeParam) return T.typeParam(j.typeParam);
  if (j.type) return T.typeOf(pbType(j.type));
  if (j.abstractType) return T.opaque(j.abstractType.name, ...(j.abstractType.parameterTypes ?? []).map(pbType));
  throw new Error(`unsupported type ${JSON.stringify(j)}`);
}

const impl = (): CelError => new CelError('declaration only');

function declarations(typeEnv: Json[] | undefined): { functions: FunctionDecl[]; variables: VariableDecl[] } {
  const functions: FunctionDecl[] = [];
  const variables: VariableDecl[] = [];
  for (const d of typeEnv ?? []) {
    if (d.ident) variables.push({ name: d.name, type: pbType(d.ident.type) });
    else {
      functions.push({
        name: d.name,
        overloads: d.function.overloads.map((o: Json) => ({
          id: o.overloadId, member: !!o.isInstanceFunction, params: (o.params ?? []).map(pbType), result: pbType(o.resultType), impl,
        })),
      });
    }
  }
  return { functions, variables };
}

const PROTO_DEPENDENT = /TestAllTypes|google\.protobuf\.|proto[23]|messageType|wrapper|enum/i;

/** Checks a test the way the cel-spec generator did; returns a failure description or undefined. */
function runChecked(t: SerializedIncrementalTest, env: Env, macros = ALL_PARSER_MACROS): string | undefined {
  const p = parse(t.original.expr, { macros, enableOptionalSyntax: false });
  if ('issues' in p) {
    const got = formatIssues(p, '');
    return got === t.error ? undefined : `parse: ${got}\nwant:\n${t.error ?? t.checkedAst}`;
  }
  const c = check(p, env, { validators: [], crossTypeNumericComparisons: false });
  if ('issues' in c) {
    const got = formatIssues(c);
    return got === t.error ? undefined : `got:\n${got}\nwant:\n${t.error ?? t.checkedAst}`;
  }
  if (t.error !== undefined) return `expected error:\n${t.error}`;
  const got = debugString(c.expr, checkedAdorner(c, formatCelType));
  const type = formatCelType(c.types.get(c.expr.id)!);
  if (t.checkedAst !== undefined && got !== t.checkedAst) return `got:\n${got}\nwant:\n${t.checkedAst}`;
  if (t.type !== undefined && type !== t.type) return `type ${type}, want ${t.type}`;
  return undefined;
}

describe('cel-spec checking suite (cel-go checker_test.go)', () => {
  // cel-go's "default" checker test environment.
  const DEFAULT_DECLS: FunctionDecl[] = [
    { name: 'fg_s', overloads: [{ id: 'fg_s_0', params: [], result: T.STRING, impl }] },
    { name: 'fi_s_s', overloads: [{ id: 'fi_s_s_0', member: true, params: [T.STRING], result: T.STRING, impl }] },
  ];
  const DEFAULT_VARS: VariableDecl[] = ([['is', T.STRING], ['ii', T.INT], ['iu', T.UINT], ['iz', T.BOOL], ['ib', T.BYTES],
    ['id', T.DOUBLE], ['ix', T.NULL]] as const).map(([name, type]) => ({ name, type }));
  const tests = (checkingSuite.tests ?? []).filter((t) => !t.original.container && !PROTO_DEPENDENT.test(JSON.stringify(t))
    && (t.error !== undefined || t.checkedAst !== undefined || t.type !== undefined));

  it(`${tests.length} expressions check as cel-go`, () => {
    assert.ok(tests.length >= 89);
    const failures = tests.flatMap((t) => {
      const { functions, variables } = declarations(t.original.typeEnv as Json[] | undefined);
      const env = new Env([STANDARD_LIBRARY, OPTIONAL_LIBRARY, { name: 'default', functions: DEFAULT_DECLS },
        { name: 'test', functions }], [...DEFAULT_VARS, ...variables]);
      const f = runChecked(t, env);
      return f ? [`${t.original.expr}\n${f}`] : [];
    });
    assert.deepEqual(failures, []);
  });
});

function flatten(s: SerializedIncrementalTestSuite, path = ''): { path: string; test: SerializedIncrementalTest }[] {
  const here = `${path}/${s.name}`;
  return [...(s.tests ?? []).map((test) => ({ path: here, test })), ...(s.suites ?? []).flatMap((c) => flatten(c, here))];
}

/** Extension libraries Kubernetes does not declare. */
const NEEDS_OTHER_LIBRARIES = new Set(['math_ext', 'encoders_ext', 'block_ext']);
/** ext.Strings at its latest version, for the string_ext section (Kubernetes itself uses version 2). */
const STRINGS_LATEST = stringsLibrary(4);

describe('cel-spec conformance suite (checked AST and type)', () => {
  const sections = new Map<string, SerializedIncrementalTest[]>();
  for (const { path, test } of flatten(conformanceSuite)) {
    const section = path.split('/')[2]!;
    const o = test.original as Json;
    if (NEEDS_OTHER_LIBRARIES.has(section) || o.disableCheck || test.checkedAst === undefined || o.container
      || PROTO_DEPENDENT.test(JSON.stringify(o))) continue;
    sections.set(section, [...(sections.get(section) ?? []), test]);
  }
  const macros = [...ALL_PARSER_MACROS, ...OPTIONAL_MACROS, ...BINDINGS_MACROS, ...TWO_VAR_COMPREHENSION_MACROS];
  for (const [section, tests] of sections) {
    it(`${section}: ${tests.length} expressions`, () => {
      const failures = tests.flatMap((t) => {
        const { functions, variables } = declarations((t.original as Json).typeEnv);
        const env = new Env([STANDARD_LIBRARY, OPTIONAL_LIBRARY, STRINGS_LATEST, { name: 'test', functions }], variables);
        const p = parse(t.original.expr, { macros, enableIdentEscapeSyntax: true });
        if ('issues' in p) return [`${t.original.expr}\n${formatIssues(p)}`];
        const c = check(p, env, { validators: [], crossTypeNumericComparisons: false });
        if ('issues' in c) return [`${t.original.expr}\n${formatIssues(c)}`];
        const got = `${debugString(c.expr, checkedAdorner(c, formatCelType))} :: ${formatCelType(c.types.get(c.expr.id)!)}`;
        const want = `${t.checkedAst} :: ${t.type}`;
        return got === want ? [] : [`${t.original.expr}\ngot:\n${got}\nwant:\n${want}`];
      });
      assert.deepEqual(failures, []);
    });
  }
});
