// A schema as a collapsible tree. A node's children are rendered only once it is opened: a large CRD's schema
// (Prometheus' is 800 kB) would otherwise be tens of thousands of elements.
import { useState } from 'preact/hooks';
import { childrenOf, constraintsOf, typeLabel, type Resolve, type Schema, type ValidationRule } from './schema.ts';

interface NodeProps {
  name: string;
  path: string;
  schema: Schema;
  required: boolean;
  resolve: Resolve;
  open?: boolean;
  depth: number;
}

export function SchemaTree({ schema, resolve, rootName }: { schema: Schema; resolve: Resolve; rootName: string }) {
  return (
    <div class="tree" role="tree">
      <SchemaNode name={rootName} path="" schema={schema} required={false} resolve={resolve} open depth={0} />
    </div>
  );
}

function SchemaNode({ name, path, schema, required, resolve, open: initiallyOpen = false, depth }: NodeProps) {
  const [open, setOpen] = useState(initiallyOpen);
  // Deep recursive types (JSONSchemaProps in a built-in) would nest forever: stop at a depth no schema reaches.
  const children = depth < 40 ? childrenOf(schema, resolve) : [];
  const rules = schema['x-kubernetes-validations'] ?? [];
  return (
    <div class="node" role="treeitem" aria-expanded={children.length ? open : undefined} data-path={path || '.'}>
      <div class="head">
        {children.length ? (
          <button class="toggle" aria-label={open ? `collapse ${name}` : `expand ${name}`} onClick={() => setOpen(!open)}>
            {open ? '▾' : '▸'}
          </button>
        ) : (
          <span class="toggle" />
        )}
        <span class="field">{name}</span>
        <span class="type">{typeLabel(schema, resolve)}</span>
        {required && <span class="badge required">required</span>}
      </div>
      <div class="detail">
        {schema.description && <p class="description">{schema.description}</p>}
        {constraintsOf(schema).length > 0 && (
          <dl class="constraints">
            {constraintsOf(schema).map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>
                  <code>{v}</code>
                </dd>
              </div>
            ))}
          </dl>
        )}
        {rules.length > 0 && <Rules rules={rules} />}
      </div>
      {open && children.length > 0 && (
        <div class="children" role="group">
          {children.map((c) => (
            <SchemaNode key={c.name} name={c.name} path={path ? `${path}.${c.name}` : c.name} schema={c.schema} required={c.required} resolve={resolve} depth={depth + 1} />
          ))}
        </div>
      )}
    </div>
  );
}

function Rules({ rules }: { rules: ValidationRule[] }) {
  return (
    <ul class="rules" aria-label="validation rules">
      {rules.map((r, i) => (
        <li key={i} class="rule">
          <code class="cel">{r.rule}</code>
          {r.message && <span class="message">{r.message}</span>}
          {r.messageExpression && (
            <span class="message">
              message expression: <code>{r.messageExpression}</code>
            </span>
          )}
          {r.reason && <span class="badge">reason: {r.reason}</span>}
          {r.fieldPath && <span class="badge">fieldPath: {r.fieldPath}</span>}
          {r.optionalOldSelf && <span class="badge">optionalOldSelf</span>}
        </li>
      ))}
    </ul>
  );
}
