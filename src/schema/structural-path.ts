// field.Path rendering as k8s.io/apimachinery builds it: Child -> ".name" (no dot at the root),
// Key -> "[key]" (unquoted), Index -> "[i]".

export const child = (path: string, ...names: string[]): string => names.reduce((p, n) => (p ? `${p}.${n}` : n), path);
export const key = (path: string, k: string): string => `${path}[${k}]`;
export const index = (path: string, i: number): string => `${path}[${i}]`;
