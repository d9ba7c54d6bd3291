// The command line's flags: every command's flags have a kind, the help names exactly those flags, and a flag
// that is unknown, lacks its value or has a value of the wrong kind is a usage error (exit code 2) in pflag's
// words, before anything starts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { COMMAND_FLAGS, parseArgs, UsageError } from '../../src/cli/flags.js';
import { FLAGS_HELP, usage } from '../../src/cli/usage.js';

const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', main, ...args], { encoding: 'utf8', timeout: 30_000 });

const refusal = (argv: string[]): string => {
  try {
    parseArgs(argv);
  } catch (e) {
    assert.ok(e instanceof UsageError);
    return e.message;
  }
  assert.fail(`${argv.join(' ')} was accepted`);
};

test('values as pflag reads them: --name=value, --name value, bare bools, repeated flags', () => {
  const a = parseArgs(['serve', '--data-dir', 'd', '--secure-port=0', '--anonymous-auth', '--leader-elect=false', '--oidc-required-claim', 'a=b', '--oidc-required-claim=c=d,e']);
  assert.equal(a.command, 'serve');
  assert.equal(a.flags.get('data-dir'), 'd');
  assert.equal(a.flags.get('secure-port'), '0');
  assert.equal(a.flags.get('anonymous-auth'), 'true');
  assert.equal(a.flags.get('leader-elect'), 'false');
  assert.deepEqual(a.repeated.get('oidc-required-claim'), ['a=b', 'c=d,e']);
  assert.deepEqual(parseArgs(['snapshot', 'save', 'f', '--force']).positional, ['save', 'f']);
  assert.deepEqual(parseArgs(['migrate-storage', '--', '--not-a-flag']).positional, ['--not-a-flag']);
});

test('usage errors name the flag, in pflag\'s words', () => {
  assert.equal(refusal(['serve', '--secure-prot=1']), 'unknown flag: --secure-prot');
  assert.equal(refusal(['serve', '--kubeconfig=x']), 'unknown flag: --kubeconfig', "another command's flag");
  assert.equal(refusal(['serve', '--data-dir']), 'flag needs an argument: --data-dir');
  assert.equal(refusal(['serve', '--anonymous-auth=maybe']), 'invalid argument "maybe" for "--anonymous-auth" flag: strconv.ParseBool: parsing "maybe": invalid syntax');
  assert.equal(refusal(['serve', '--secure-port', 'https']), 'invalid argument "https" for "--secure-port" flag: strconv.ParseInt: parsing "https": invalid syntax');
  assert.equal(refusal(['serve', '--request-timeout=5']), 'invalid argument "5" for "--request-timeout" flag: time: invalid duration "5"');
  assert.equal(refusal(['serve', '--audit-webhook-batch-throttle-qps=fast']), 'invalid argument "fast" for "--audit-webhook-batch-throttle-qps" flag: strconv.ParseFloat: parsing "fast": invalid syntax');
  assert.equal(refusal(['migrate-backend', '--chunk-size=1e3']), 'invalid argument "1e3" for "--chunk-size" flag: strconv.ParseInt: parsing "1e3": invalid syntax');
  assert.equal(refusal(['serv']), 'unknown command "serv"');
});

test("each command's help names exactly the flags it takes", () => {
  for (const [command, table] of Object.entries(COMMAND_FLAGS)) {
    const help = FLAGS_HELP[command];
    assert.ok(help, command);
    for (const name of Object.keys(table)) {
      // The audit backends' flags are shown once for both plugins, the throttle and truncate ones in a row.
      const m = /^audit-(?:log|webhook)-((?:batch-throttle|truncate)-)?(.+)$/.exec(name);
      const shown =
        help.includes(`--${name}`) ||
        (m !== null && (help.includes(`--audit-{log,webhook}-${m[1] ?? ''}${m[2]}`) || (m[1] !== undefined && help.includes(`, -${m[2]} `))));
      assert.ok(shown, `${command}: --${name} is not in its help`);
    }
    for (const [, name] of help.replaceAll("--audit-{log,webhook}-", "").matchAll(/--([a-z][a-z0-9-]*[a-z0-9])/g)) {
      assert.ok(table[name!] !== undefined || name === 'help', `${command}: its help shows --${name}, which it does not take`);
    }
  }
  assert.match(usage('serve'), /^Usage: crd-apiserver serve \[flags\]\n\nFlags for serve:\n {2}--data-dir DIR/);
  assert.match(usage(), /^Usage: crd-apiserver <command> \[flags\]\n\nCommands:\n/);
});

test('the command line: exit code 2 for usage errors before anything starts; --help and --version', () => {
  let r = run('serve', '--secure-prot=6443');
  assert.equal(r.status, 2);
  assert.equal(r.stderr, "crd-apiserver: unknown flag: --secure-prot\nRun 'crd-apiserver serve --help' for usage.\n");
  r = run('serve', '--leader-elect', 'false');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^crd-apiserver: "crd-apiserver serve" does not take any arguments, got \["false"\]\n/);
  r = run('snapshot', 'save', 'f', '--data-dir');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^crd-apiserver: flag needs an argument: --data-dir\n/);
  r = run('serve', '--help');
  assert.equal(r.status, 0);
  assert.equal(r.stdout, usage('serve'));
  r = run('--version');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^crd-apiserver \d+\.\d+\.\d+ \(Kubernetes v1\.33\.\d+\)\n$/);
});
