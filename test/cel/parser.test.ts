import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { tests as parsingSuite } from '@bufbuild/cel-spec/testdata/parsing.js';
import { tests as conformanceSuite } from '@bufbuild/cel-spec/testdata/conformance.js';
import { tests as comprehensionSuite } from '@bufbuild/cel-spec/testdata/comprehension.js';
import type { SerializedIncrementalTest, SerializedIncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { parse, type ParseOptions } from '../../src/cel/parser.js';
import { ALL_PARSER_MACROS, type Macro } from '../../src/cel/macros.js';
import { debugString, kindAdorner } from '../../src/cel/debug-string.js';
import { formatIssues, type Issues } from '../../src/cel/issues.js';
import type { ParsedAst } from '../../src/cel/ast.js';
import { CEL_GO_PARSER_CASES } from './parser-cel-go-cases.js';

const strip = (s: string): string => s.replace(/[ \n\t\r]/g, '');

function flatten(s: SerializedIncrementalTestSuite, path = ''): { path: string; test: SerializedIncrementalTest }[] {
  const here = `${path}/${s.name}`;
  return [...(s.tests ?? []).map((test) => ({ path: here, test })), ...(s.suites ?? []).flatMap((c) => flatten(c, here))];
}

/** Compares the parse of a suite test with its recorded cel-go output: the
 * kind-adorned debug string, or the parser's error text (errors from the
 * checker, described `<input>`, are not the parser's business). */
function checkSuiteTest(t: SerializedIncrementalTest, options: ParseOptions): string | undefined {
  const r = parse(t.original.expr, options);
  const parseError = t.error !== undefined && !t.error.startsWith('ERROR: <input>');
  if ('issues' in r) {
    if (!parseError) return `unexpected errors:\n${formatIssues(r)}`;
    const description = t.error!.slice(7, t.error!.indexOf(':', 7));
    const got = formatIssues(r, description);
    return got === t.error ? undefined : `got:\n${got}\nwant:\n${t.error}`;
  }
  if (parseError) return `expected error:\n${t.error}`;
  assert.ok(t.ast !== undefined);
  const got = debugString(r.expr, kindAdorner);
  return got === t.ast ? undefined : `got:\n${got}\nwant:\n${t.ast}`;
}

/** The options the cel-spec generator parsed with (cel-go's parser test defaults). */
const SUITE_OPTIONS: ParseOptions = {
  maxRecursionDepth: 32, errorRecoveryLimit: 4, errorRecoveryLookaheadTokenLimit: 4,
  enableOptionalSyntax: false, macros: ALL_PARSER_MACROS,
};

function runSuite(name: string, suite: SerializedIncrementalTestSuite): void {
  const all = flatten(suite);
  const sections = new Map<string, SerializedIncrementalTest[]>();
  for (const { path, test } of all) sections.set(path, [...(sections.get(path) ?? []), test]);
  describe(name, () => {
    for (const [section, list] of sections) {
      it(`${section}: ${list.length} expressions parse as cel-go`, () => {
        const failures = list.flatMap((t) => {
          const f = checkSuiteTest(t, SUITE_OPTIONS);
          return f ? [`${JSON.stringify(t.original.expr)}\n${f}`] : [];
        });
        assert.deepEqual(failures, []);
      });
    }
  });
}

runSuite('cel-spec parsing suite', parsingSuite);
runSuite('cel-spec comprehension suite', comprehensionSuite);
runSuite('cel-spec conformance suite (ast)', conformanceSuite);

const NOOP_MACRO: Macro = { name: 'noop_macro', argCount: -1, receiver: false, expand: () => undefined };

const idAdorned = (r: ParsedAst): string => debugString(r.expr, (n, isEntry) =>
  isEntry ? `^#${n.id}:*expr.Expr_CreateStruct_Entry#` : kindAdorner(n, false).replace('^#', `^#${n.id}:`));

function locationAdorned(r: ParsedAst): string {
  const src = [...r.sourceInfo.source];
  return debugString(r.expr, (n) => {
    const off = r.sourceInfo.positions.get(n.id);
    if (off === undefined) return `^#${n.id}[-1,-1]#`;
    const before = src.slice(0, off);
    const line = before.filter((c) => c === '\n').length + 1;
    return `^#${n.id}[${line},${off - (before.lastIndexOf('\n') + 1)}]#`;
  });
}

describe('cel-go parser_test.go cases (ids, kinds, locations, errors)', () => {
  for (const c of CEL_GO_PARSER_CASES) {
    it(c.i, () => {
      const o = c.opts ?? {};
      const r = parse(c.i, {
        maxRecursionDepth: 32,
        errorRecoveryLimit: o.ErrorRecoveryLimit ?? 4,
        errorRecoveryLookaheadTokenLimit: o.ErrorRecoveryLookaheadTokenLimit ?? 4,
        errorReportingLimit: o.ErrorReportingLimit,
        enableOptionalSyntax: o.EnableOptionalSyntax ?? false,
        enableIdentEscapeSyntax: o.EnableIdentEscapeSyntax ?? false,
        accumulatorName: o.EnableHiddenAccumulatorName === false ? '__result__' : '@result',
        macros: o.noopMacro ? [...ALL_PARSER_MACROS, NOOP_MACRO] : ALL_PARSER_MACROS,
      });
      if ('issues' in r) {
        assert.ok(c.e, `unexpected errors: ${formatIssues(r)}`);
        assert.equal(strip(formatIssues(r)), strip(c.e));
        return;
      }
      assert.equal(c.e, undefined, 'expected an error');
      assert.equal(strip(idAdorned(r)), strip(c.p!));
      if (c.l) assert.equal(strip(locationAdorned(r)), strip(c.l));
    });
  }
});

function parsed(src: string, options?: ParseOptions): ParsedAst {
  const r = parse(src, options);
  if ('issues' in r) assert.fail(formatIssues(r));
  return r;
}

function errors(src: string, options?: ParseOptions): string {
  const r = parse(src, options);
  assert.ok('issues' in r, 'expected errors');
  return formatIssues(r as Issues);
}

describe('parse with the Kubernetes defaults', () => {
  it('accepts optional syntax', () => {
    const r = parsed('a.?b[?0] == [?x, 1] && {?"k": v}.size() > 0');
    const s = debugString(r.expr);
    assert.match(s, /_\?\._\(\n\s+a,\n\s+"b"\n\s+\)/);
    assert.match(s, /_\[\?_\]/);
    assert.deepEqual((((r.expr as any).args[0].args[1]) as any).optionalIndices, [0]);
  });

  it('expands cel.bind, ids in cel-go order', () => {
    const r = parsed('cel.bind(a, 1, a + a)');
    assert.equal(idAdorned(r).replace(/\s/g, ''), strip(`__comprehension__(
      // Variable
      #unused,
      // Target
      []^#8:*expr.Expr_ListExpr#,
      // Accumulator
      a,
      // Init
      1^#4:*expr.Constant_Int64Value#,
      // LoopCondition
      false^#9:*expr.Constant_BoolValue#,
      // LoopStep
      a^#10:*expr.Expr_IdentExpr#,
      // Result
      _+_(
        a^#5:*expr.Expr_IdentExpr#,
        a^#7:*expr.Expr_IdentExpr#
      )^#6:*expr.Expr_CallExpr#)^#11:*expr.Expr_ComprehensionExpr#`));
    assert.equal(r.sourceInfo.positions.get(11), 8, 'macro nodes sit at the call');
    assert.equal(r.sourceInfo.positions.has(2), false, 'the macro call id is released');
  });

  it('leaves x.bind(...) alone when the target is not cel', () => {
    assert.equal(debugString(parsed('x.bind(a, 1, a)').expr), 'x.bind(\n  a,\n  1,\n  a\n)');
  });

  it('expands the two-variable comprehensions', () => {
    const s = debugString(parsed('m.transformMap(k, v, v > 0, v * 2)').expr);
    assert.equal(s, `__comprehension__(
  // Variable
  k,
  v,
  // Target
  m,
  // Accumulator
  @result,
  // Init
  {},
  // LoopCondition
  true,
  // LoopStep
  _?_:_(
    _>_(
      v,
      0
    ),
    cel.@mapInsert(
      @result,
      k,
      _*_(
        v,
        2
      )
    ),
    @result
  ),
  // Result
  @result)`);
    assert.match(debugString(parsed('l.transformList(i, v, v)').expr), /_\+_\(\n\s+@result,\n\s+\[\n\s+v\n\s+\]/);
    assert.match(debugString(parsed('m.transformMapEntry(k, v, {v: k})').expr), /cel\.@mapInsert\(\n\s+@result,\n\s+\{/);
    assert.match(debugString(parsed('l.existsOne(i, v, v == i)').expr), /_==_\(\n\s+@result,\n\s+1\n\s+\)\)$/);
    assert.match(debugString(parsed('l.exists_one(i, v, v == i)').expr), /__comprehension__/);
  });

  it('two-variable macro argument errors', () => {
    assert.match(errors('l.all(i, i, true)'), /1:10: duplicate variable name: i/);
    assert.match(errors('l.all(i, x.y, true)'), /1:11: argument must be a simple name/);
    assert.match(errors('l.all(@result, v, true)'), /Syntax error/);
    assert.match(errors('l.all(__result__, v, true)'), /1:7: iteration variable overwrites accumulator variable/);
  });

  it('existsOne with two arguments is not a standard macro in Kubernetes', () => {
    assert.equal(debugString(parsed('l.existsOne(x, x)').expr), 'l.existsOne(\n  x,\n  x\n)');
  });

  it('expands optMap and optFlatMap like cel-go', () => {
    assert.equal(debugString(parsed('o.optMap(x, x + 1)').expr), `_?_:_(
  o.hasValue(),
  optional.of(
    __comprehension__(
      // Variable
      #unused,
      // Target
      [],
      // Accumulator
      x,
      // Init
      o.value(),
      // LoopCondition
      false,
      // LoopStep
      x,
      // Result
      _+_(
        x,
        1
      ))
  ),
  optional.none()
)`);
    assert.match(debugString(parsed('o.optFlatMap(x, optional.of(x))').expr), /^_\?_:_\(\n\s+o\.hasValue\(\),\n\s+__comprehension__/);
    assert.match(errors('o.optMap(x.y, 1)'), /optMap\(\) variable name must be a simple identifier/);
    assert.match(errors('cel.bind(x.y, 1, 2)'), /cel\.bind\(\) variable names must be simple identifiers/);
  });

  it('has() makes a test-only select', () => {
    const r = parsed('has(self.spec)');
    assert.equal(debugString(r.expr), 'self.spec~test-only~');
  });

  it('records macro calls when asked', () => {
    const r = parsed('[1].all(x, x > 0)', { populateMacroCalls: true });
    assert.equal(r.sourceInfo.macroCalls.size, 1);
    const [call] = [...r.sourceInfo.macroCalls.values()];
    assert.equal(debugString(call!), '[\n  1\n].all(\n  x,\n  _>_(\n    x,\n    0\n  )\n)');
  });
});

describe('literals', () => {
  const lit = (src: string): unknown => {
    const e = parsed(src).expr;
    assert.equal(e.kind, 'literal');
    return e.kind === 'literal' ? e.value : undefined;
  };
  it('ints, uints and doubles', () => {
    assert.deepEqual(lit('-9223372036854775808'), { kind: 'int', value: -9223372036854775808n });
    assert.deepEqual(lit('0x7fffffffffffffff'), { kind: 'int', value: 9223372036854775807n });
    assert.deepEqual(lit('-0x10'), { kind: 'int', value: -16n });
    assert.deepEqual(lit('18446744073709551615u'), { kind: 'uint', value: 18446744073709551615n });
    assert.deepEqual(lit('1e3'), { kind: 'double', value: 1000 });
    assert.deepEqual(lit('.5'), { kind: 'double', value: 0.5 });
    assert.deepEqual(lit('-2.5e-3'), { kind: 'double', value: -0.0025 });
    assert.match(errors('9223372036854775808'), /1:1: invalid int literal/);
    assert.match(errors('18446744073709551616u'), /invalid uint literal/);
  });
  it('a double minus negates instead of folding', () => {
    assert.equal(debugString(parsed('--1').expr), '1');
    assert.equal(debugString(parsed('---1').expr), '-_(\n  1\n)');
    assert.equal(debugString(parsed('-1u').expr), '-_(\n  1u\n)');
    assert.equal(debugString(parsed('-1.5.size()').expr), '-1.5.size()');
  });
  it('strings: quotes, raw, triple, escapes', () => {
    assert.deepEqual(lit(`'a"b'`), { kind: 'string', value: 'a"b' });
    assert.deepEqual(lit(`r'\\n'`), { kind: 'string', value: '\\n' });
    assert.deepEqual(lit(`"""x\n"y"\r\n"""`), { kind: 'string', value: 'x\n"y"\n' });
    assert.deepEqual(lit(`'\\a\\b\\f\\n\\r\\t\\v\\\\\\'\\"\\?\\\`'`), { kind: 'string', value: '\x07\b\f\n\r\t\v\\\'"?`' });
    assert.deepEqual(lit(`'\\x41\\101\\u00e9\\U0001F600'`), { kind: 'string', value: 'AAé😀' });
    assert.deepEqual(lit(`'\\xff'`), { kind: 'string', value: 'ÿ' });
    assert.match(errors(`'\\ud800'`), /invalid unicode code point/);
    assert.match(errors(`'\\U00110000'`), /invalid unicode code point/);
  });
  it('bytes: escapes are bytes, text is UTF-8', () => {
    assert.deepEqual(lit(`b'\\xff\\000é'`), { kind: 'bytes', value: Uint8Array.from([0xff, 0, 0xc3, 0xa9]) });
    assert.deepEqual(lit(`br'\\x'`), { kind: 'bytes', value: Uint8Array.from([0x5c, 0x78]) });
    assert.match(errors(`b'\\u0041'`), /1:1: unable to unescape string/);
    assert.equal(debugString(parsed(`b'\\xff\\x00a'`).expr), 'b"\\xff\\x00a"');
  });
  it('reserved words cannot be identifiers but can be fields', () => {
    assert.match(errors('while'), /reserved identifier: while/);
    assert.equal(debugString(parsed('a.while').expr), 'a.while');
    assert.match(errors('a.true'), /mismatched input 'true' expecting IDENTIFIER/);
  });
  it('comments and whitespace', () => {
    assert.equal(debugString(parsed('1 + // one\n\t2').expr), '_+_(\n  1,\n  2\n)');
  });
});

describe('positions and limits', () => {
  it('offsets are code points', () => {
    const r = parsed('"😀" + x');
    const x = (r.expr as any).args[1];
    assert.equal(r.sourceInfo.positions.get(x.id), 6);
    assert.equal(r.sourceInfo.positions.get(r.expr.id), 4);
  });

  it('recursion limit 250 by default', () => {
    const deep = `${'['.repeat(250)}1${']'.repeat(250)}`;
    assert.match(errors(deep), /ERROR: <input>:-1:0: expression recursion limit exceeded: 250/);
    parsed(`${'['.repeat(200)}1${']'.repeat(200)}`);
    const chain = `a${'.b'.repeat(251)}`;
    assert.equal(errors(chain), 'ERROR: <input>:-1:0: max recursion depth exceeded');
    parsed(`a${'.b'.repeat(250)}`);
  });

  it('expression size limit', () => {
    assert.equal(errors('1 + 1', { expressionSizeCodePointLimit: 3 }),
      'ERROR: <input>:-1:0: expression code point size exceeds limit: size: 5, limit 3');
  });

  it('reports syntax errors as cel-go', () => {
    assert.equal(errors('self.x =='), `ERROR: <input>:1:10: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
 | self.x ==
 | .........^`);
    assert.equal(errors('self.x = 1'), `ERROR: <input>:1:8: Syntax error: token recognition error at: '= '
 | self.x = 1
 | .......^
ERROR: <input>:1:10: Syntax error: extraneous input '1' expecting <EOF>
 | self.x = 1
 | .........^`);
    assert.equal(errors('f(a,)'), `ERROR: <input>:1:5: Syntax error: mismatched input ')' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
 | f(a,)
 | ....^`);
    assert.match(errors('"abc'), /1:1: Syntax error: token recognition error at: '"abc'/);
    assert.match(errors('(a'), /1:3: Syntax error: missing '\)' at '<EOF>'|mismatched input '<EOF>' expecting '\)'/);
  });
});

describe('formatIssues', () => {
  it('errors without location come first, without a snippet', () => {
    const text = formatIssues({ source: 'a\nb', issues: [{ message: 'second', offset: 2 }, { message: 'first' }] });
    assert.equal(text, 'ERROR: <input>:-1:0: first\nERROR: <input>:2:1: second\n | b\n | ^');
  });
  it('tabs print as spaces and wide characters get wide markers', () => {
    assert.equal(formatIssues({ source: '\té + x', issues: [{ message: 'm', offset: 5 }] }),
      'ERROR: <input>:1:6: m\n |  é + x\n | .．...^');
    assert.equal(formatIssues({ source: 'é', issues: [{ message: 'm', offset: 0 }] }), 'ERROR: <input>:1:1: m\n | é\n | ＾');
  });
  it('a caret past the end of the line', () => {
    assert.equal(formatIssues({ source: 'ab\ncd', issues: [{ message: 'm', offset: 2 }] }), 'ERROR: <input>:1:3: m\n | ab\n | ..^');
  });
  it('sorts stably by line and column and truncates after 100', () => {
    const issues = Array.from({ length: 102 }, (_, i) => ({ message: `e${i}`, offset: 101 - (i % 101) }));
    const lines = formatIssues({ source: 'x'.repeat(200), issues }).split('\n').filter((l) => l.startsWith('ERROR') || l.includes('truncated'));
    assert.equal(lines.length, 101);
    assert.equal(lines[100], '2 more errors were truncated');
    assert.match(lines[0]!, /1:3: e99$/, 'only the first 100 reported are kept, then sorted');
  });
  it('uses the given source description', () => {
    assert.equal(formatIssues({ source: 'x', issues: [{ message: 'm', offset: 0 }] }, 'rule'), 'ERROR: rule:1:1: m\n | x\n | ^');
  });
});

describe('macro sets', () => {
  it('KUBERNETES_MACROS leaves cel.bind unexpanded, as Kubernetes 1.33 does', async () => {
    const { KUBERNETES_MACROS } = await import('../../src/cel/macros.js');
    assert.equal(debugString(parsed('cel.bind(a, 1, a)', { macros: KUBERNETES_MACROS }).expr), 'cel.bind(\n  a,\n  1,\n  a\n)');
    assert.match(debugString(parsed('l.all(i, v, v > i)', { macros: KUBERNETES_MACROS }).expr), /^__comprehension__/);
  });
});
