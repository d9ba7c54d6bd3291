// Ported from structured-merge-diff v4.6.0 merge/obsolete_versions_test.go: managers of a version that is
// no longer served are dropped, and an apply whose last applied version is gone prunes nothing. Not
// table-driven there (the converter's accepted versions change between operations); custom cases here.
import assert from 'node:assert/strict';
import { DEDUCED_PARSER, State, _NS, _P, sameVersionParser, specificVersionConverter, type ConformanceFile } from './fixture.js';

export const FILE: ConformanceFile = {
  file: 'merge/obsolete_versions_test.go',
  groups: [],
  custom: [
    {
      // Managers of fields in a version that no longer exist are automatically removed.
      name: 'TestObsoleteVersions',
      run: () => {
        let accepted = ['v1', 'v2'];
        const state = new State(DEDUCED_PARSER, specificVersionConverter(() => accepted));
        state.updateObject(state.parse('{"v1": 0}', 'v1', true), 'v1');
        state.updateObject(state.parse('{"v1": 0, "v2": 0}', 'v2', true), 'v2');
        // Remove v1, add v3 instead.
        accepted = ['v2', 'v3'];
        state.updateObject(state.parse('{"v1": 0, "v2": 0, "v3": 0}', 'v3', true), 'v3');
        assert.deepEqual([...state.managers.keys()].sort(), ['v2', 'v3']);
        assert.ok(state.managers.get('v2')!.set.equals(_NS(_P('v2'))), `v2: ${state.managers.get('v2')!.set}`);
        assert.equal(state.managers.get('v2')!.apiVersion, 'v2');
        assert.ok(state.managers.get('v3')!.set.equals(_NS(_P('v3'))), `v3: ${state.managers.get('v3')!.set}`);
        assert.equal(state.managers.get('v3')!.apiVersion, 'v3');
      },
    },
    {
      name: 'TestApplyObsoleteVersion',
      run: () => {
        let accepted = ['v1'];
        const parser = sameVersionParser(
          `types:
- name: sets
  map:
    fields:
    - name: list
      type:
        list:
          elementType:
            scalar: string
          elementRelationship: associative`,
          'sets',
        );
        const state = new State(parser, specificVersionConverter(() => accepted));
        state.applyObject(state.parse('{"list": ["a", "b", "c", "d"]}', 'v1', false), 'apply', false);
        // Remove v1, add v2 instead.
        accepted = ['v2'];
        state.applyObject(state.parse('{"list": ["a"]}', 'v2', false), 'apply', false);
        assert.deepEqual(state.liveAt('v2').value, { list: ['a', 'b', 'c', 'd'] });
      },
    },
  ],
};
