// The `yaml` package, loaded on first use: most requests are JSON, and its ~80 ms import would otherwise
// sit on every start-up before the server can answer.
import { createRequire } from 'node:module';

type YamlModule = typeof import('yaml');
let mod: YamlModule | undefined;
const load = (): YamlModule => (mod ??= createRequire(import.meta.url)('yaml') as YamlModule);

export const parseYaml: YamlModule['parse'] = ((...args: Parameters<YamlModule['parse']>) => load().parse(...args)) as YamlModule['parse'];
export const stringifyYaml: YamlModule['stringify'] = ((...args: Parameters<YamlModule['stringify']>) =>
  load().stringify(...args)) as YamlModule['stringify'];
export const isYamlParseError = (e: unknown): e is InstanceType<YamlModule['YAMLParseError']> =>
  mod !== undefined && e instanceof mod.YAMLParseError;
