import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mappedServiceResolver, parseServiceMappings } from '../../src/conversion/service-map.js';

test('service mappings: exact port first, then any port, then cluster DNS', () => {
  const r = mappedServiceResolver(parseServiceMappings('default/hook:8443=127.0.0.1:9001, default/hook=127.0.0.1:9002,web/x=[::1]:7'));
  assert.deepEqual(r({ namespace: 'default', name: 'hook', port: 8443 }), { host: '127.0.0.1', port: 9001 });
  assert.deepEqual(r({ namespace: 'default', name: 'hook', port: 443 }), { host: '127.0.0.1', port: 9002 });
  assert.deepEqual(r({ namespace: 'web', name: 'x', port: 443 }), { host: '::1', port: 7 });
  assert.deepEqual(r({ namespace: 'other', name: 'svc', port: 1234 }), { host: 'svc.other.svc', port: 1234 });
});

test('service mappings: malformed entries are refused', () => {
  assert.throws(() => parseServiceMappings('default/hook'), /invalid service mapping "default\/hook"/);
  assert.throws(() => parseServiceMappings('hook=127.0.0.1:1'), /invalid service mapping/);
  assert.throws(() => parseServiceMappings('a/b=h:70000'), /port out of range/);
});
