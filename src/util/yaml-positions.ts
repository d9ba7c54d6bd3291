// Where a Kubernetes field path (`spec.template.containers[0].image`, `metadata.labels[app]`) points in a YAML or
// JSON document: the line and column of the deepest node of the path that the document has (the field itself,
// or, for a missing required field, the object that lacks it).
import { isMap, isPair, isScalar, isSeq, LineCounter, type Document, type Node } from 'yaml';

export interface Position {
  line: number;
  column: number;
}

/** field.Path's rendering split into steps: names, [index], [key]. */
export function pathSteps(path: string): Array<string | number> {
  const steps: Array<string | number> = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === '.') {
      i++;
      continue;
    }
    if (path[i] === '[') {
      const end = path.indexOf(']', i);
      const inner = path.slice(i + 1, end < 0 ? path.length : end);
      steps.push(/^\d+$/.test(inner) ? Number(inner) : inner);
      i = end < 0 ? path.length : end + 1;
      continue;
    }
    let j = i;
    while (j < path.length && path[j] !== '.' && path[j] !== '[') j++;
    steps.push(path.slice(i, j));
    i = j;
  }
  return steps;
}

/** The position of the path in the document (its first node when the path is empty or wholly missing). */
export function positionOf(doc: Document, lines: LineCounter, path: string): Position {
  let node: Node | null | undefined = doc.contents;
  let at: number | undefined = node?.range?.[0];
  for (const step of pathSteps(path)) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(step));
      if (!pair) break;
      at = (pair.key as Node).range?.[0] ?? at;
      node = pair.value as Node | null;
    } else if (isSeq(node) && typeof step === 'number') {
      const item = node.items[step] as Node | undefined;
      if (!item) break;
      at = item.range?.[0] ?? at;
      node = item;
    } else break;
  }
  const { line, col } = lines.linePos(at ?? 0);
  return { line, column: col };
}
