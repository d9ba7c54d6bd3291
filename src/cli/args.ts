// Flags as kube-apiserver spells them: --name=value or --name value; booleans bare.
interface ParsedArgs {
  command: string;
  flags: Map<string, string>;
  /** Every value of each flag, in order, for the flags that may be repeated (--oidc-required-claim). */
  repeated: Map<string, string[]>;
  positional: string[];
}

export function parseArgs(argv: readonly string[], booleans: ReadonlySet<string>): ParsedArgs {
  const flags = new Map<string, string>();
  const repeated = new Map<string, string[]>();
  const set = (name: string, value: string): void => {
    flags.set(name, value);
    repeated.set(name, [...(repeated.get(name) ?? []), value]);
  };
  const positional: string[] = [];
  let command = '';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      if (eq >= 0) set(name, a.slice(eq + 1));
      else if (booleans.has(name)) set(name, 'true');
      else {
        const v = argv[i + 1];
        if (v === undefined) throw new Error(`flag needs an argument: --${name}`);
        set(name, v);
        i++;
      }
    } else if (!command) command = a;
    else positional.push(a);
  }
  return { command, flags, repeated, positional };
}
