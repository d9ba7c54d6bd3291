// Ported from structured-merge-diff v4.6.0 merge/conflict_test.go: conflicts from managers' sets, their
// message and their set. Not table-driven there; each test function is a custom case here.
import assert from 'node:assert/strict';
import { conflictsFromManagers, ConflictError } from '../../../src/smd/managers.js';
import { FieldSet } from '../../../src/smd/set.js';
import { _KBF, _NS, _P, vs, type ConformanceFile } from './fixture.js';

const bobAndAlice = () =>
  conflictsFromManagers(
    new Map([
      ['Bob', vs(_NS(_P('key'), _P('list', _KBF('key', 'a', 'id', 2), 'id')), 'v1', false)],
      ['Alice', vs(_NS(_P('value'), _P('list', _KBF('key', 'a', 'id', 2), 'key')), 'v1', false)],
    ]),
  );

export const FILE: ConformanceFile = {
  file: 'merge/conflict_test.go',
  groups: [],
  custom: [
    {
      name: 'TestNewFromSets',
      run: () => {
        const wanted = `conflicts with "Alice":
- .value
- .list[id=2,key="a"].key
conflicts with "Bob":
- .key
- .list[id=2,key="a"].id`;
        assert.equal(new ConflictError(bobAndAlice()).message, wanted);
      },
    },
    {
      name: 'TestToSet',
      run: () => {
        // Conflicts.ToSet: every conflict's path.
        const expected = _NS(_P('key'), _P('value'), _P('list', _KBF('key', 'a', 'id', 2), 'id'), _P('list', _KBF('key', 'a', 'id', 2), 'key'));
        const actual = FieldSet.of(...bobAndAlice().map((c) => c.path));
        assert.ok(expected.equals(actual), `expected\n${expected}\nbut got\n${actual}`);
      },
    },
    {
      name: 'TestConflictsFromManagers',
      run: () => {
        const got = conflictsFromManagers(
          new Map([['Bob', vs(_NS(_P('obj', 'template', 'obj', 'list', _KBF('name', 'a'), 'id'), _P('obj', 'template', 'obj', 'list', _KBF('name', 'a'), 'key')), 'v1', false)]]),
        );
        const wanted = `conflicts with "Bob":
- .obj.template.obj.list[name="a"].id
- .obj.template.obj.list[name="a"].key`;
        assert.equal(new ConflictError(got).message, wanted);
      },
    },
  ],
};
