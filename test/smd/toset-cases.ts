// Generated from structured-merge-diff typed/toset_test.go (fieldsetCases).
import type { Part } from './helpers.js';

export interface ToSetCase { name: string; root: string; schema: string; pairs: Array<[string, Part[][]]> }

export const TOSET_CASES: ToSetCase[] = [
  {
    name: "simple pair",
    root: "stringPair",
    schema: "types:\n- name: stringPair\n  map:\n    fields:\n    - name: key\n      type:\n        scalar: string\n    - name: value\n      type:\n        namedType: __untyped_atomic_\n- name: __untyped_atomic_\n  scalar: untyped\n  list:\n    elementType:\n      namedType: __untyped_atomic_\n    elementRelationship: atomic\n  map:\n    elementType:\n      namedType: __untyped_atomic_\n    elementRelationship: atomic\n",
    pairs: [
      ["{\"key\":\"foo\",\"value\":1}", [["key"], ["value"]]],
      ["{\"key\":\"foo\",\"value\":{\"a\": \"b\"}}", [["key"], ["value"]]],
      ["{\"key\":\"foo\",\"value\":null}", [["key"], ["value"]]],
      ["{\"key\":\"foo\"}", [["key"]]],
      ["{\"key\":\"foo\",\"value\":true}", [["key"], ["value"]]],
    ],
  },
  {
    name: "struct grab bag",
    root: "myStruct",
    schema: "types:\n- name: myStruct\n  map:\n    fields:\n    - name: numeric\n      type:\n        scalar: numeric\n    - name: string\n      type:\n        scalar: string\n    - name: bool\n      type:\n        scalar: boolean\n    - name: setStr\n      type:\n        list:\n          elementType:\n            scalar: string\n          elementRelationship: associative\n    - name: setBool\n      type:\n        list:\n          elementType:\n            scalar: boolean\n          elementRelationship: associative\n    - name: setNumeric\n      type:\n        list:\n          elementType:\n            scalar: numeric\n          elementRelationship: associative\n    - name: color\n      type:\n        map:\n          fields:\n          - name: R\n            type:\n              scalar: numeric\n          - name: G\n            type:\n              scalar: numeric\n          - name: B\n            type:\n              scalar: numeric\n          elementRelationship: atomic\n    - name: arbitraryWavelengthColor\n      type:\n        map:\n          elementType:\n            scalar: numeric\n          elementRelationship: atomic\n    - name: args\n      type:\n        list:\n          elementType:\n            map:\n              fields:\n              - name: key\n                type:\n                  scalar: string\n              - name: value\n                type:\n                  scalar: string\n          elementRelationship: atomic\n",
    pairs: [
      ["{\"numeric\":1}", [["numeric"]]],
      ["{\"numeric\":3.14159}", [["numeric"]]],
      ["{\"string\":\"aoeu\"}", [["string"]]],
      ["{\"bool\":true}", [["bool"]]],
      ["{\"bool\":false}", [["bool"]]],
      ["{\"setStr\":[\"a\",\"b\",\"c\"]}", [["setStr", { v: "a" }], ["setStr", { v: "b" }], ["setStr", { v: "c" }]]],
      ["{\"setStr\":[\"a\",\"b\",\"c\",\"a\",\"b\",\"c\",\"c\"]}", [["setStr", { v: "a" }], ["setStr", { v: "b" }], ["setStr", { v: "c" }]]],
      ["{\"setBool\":[true,false,true]}", [["setBool", { v: true }], ["setBool", { v: false }]]],
      ["{\"setNumeric\":[1,2,3,3.14159]}", [["setNumeric", { v: 1 }], ["setNumeric", { v: 2 }], ["setNumeric", { v: 3 }], ["setNumeric", { v: 3.14159 }]]],
      ["{\"color\":{}}", [["color"]]],
      ["{\"color\":null}", [["color"]]],
      ["{\"color\":{\"R\":255,\"G\":0,\"B\":0}}", [["color"]]],
      ["{\"arbitraryWavelengthColor\":{}}", [["arbitraryWavelengthColor"]]],
      ["{\"arbitraryWavelengthColor\":null}", [["arbitraryWavelengthColor"]]],
      ["{\"arbitraryWavelengthColor\":{\"IR\":255}}", [["arbitraryWavelengthColor"]]],
      ["{\"args\":[]}", [["args"]]],
      ["{\"args\":null}", [["args"]]],
      ["{\"args\":[null]}", [["args"]]],
      ["{\"args\":[{\"key\":\"a\",\"value\":\"b\"},{\"key\":\"c\",\"value\":\"d\"}]}", [["args"]]],
    ],
  },
  {
    name: "associative list",
    root: "myRoot",
    schema: "types:\n- name: myRoot\n  map:\n    fields:\n    - name: list\n      type:\n        namedType: myList\n    - name: atomicList\n      type:\n        namedType: mySequence\n- name: myList\n  list:\n    elementType:\n      namedType: myElement\n    elementRelationship: associative\n    keys:\n    - key\n    - id\n- name: mySequence\n  list:\n    elementType:\n      scalar: string\n    elementRelationship: atomic\n- name: myElement\n  map:\n    fields:\n    - name: key\n      type:\n        scalar: string\n    - name: id\n      type:\n        scalar: numeric\n    - name: value\n      type:\n        namedType: myValue\n    - name: bv\n      type:\n        scalar: boolean\n    - name: nv\n      type:\n        scalar: numeric\n- name: myValue\n  map:\n    elementType:\n      scalar: string\n",
    pairs: [
      ["{\"list\":[]}", []],
      ["{\"list\":[{\"key\":\"a\",\"id\":1,\"value\":{\"a\":\"a\"}}]}", [["list", { k: { "key": "a", "id": 1 } }], ["list", { k: { "key": "a", "id": 1 } }, "key"], ["list", { k: { "key": "a", "id": 1 } }, "id"], ["list", { k: { "key": "a", "id": 1 } }, "value", "a"]]],
      ["{\"list\":[{\"key\":\"a\",\"id\":1},{\"key\":\"a\",\"id\":2},{\"key\":\"b\",\"id\":1}]}", [["list", { k: { "key": "a", "id": 1 } }], ["list", { k: { "key": "a", "id": 2 } }], ["list", { k: { "key": "b", "id": 1 } }], ["list", { k: { "key": "a", "id": 1 } }, "key"], ["list", { k: { "key": "a", "id": 1 } }, "id"], ["list", { k: { "key": "a", "id": 2 } }, "key"], ["list", { k: { "key": "a", "id": 2 } }, "id"], ["list", { k: { "key": "b", "id": 1 } }, "key"], ["list", { k: { "key": "b", "id": 1 } }, "id"]]],
      ["{\"list\":[{\"key\":\"a\",\"id\":1,\"nv\":2},{\"key\":\"a\",\"id\":2,\"nv\":3},{\"key\":\"b\",\"id\":1},{\"key\":\"a\",\"id\":2,\"bv\":true}]}", [["list", { k: { "key": "a", "id": 1 } }], ["list", { k: { "key": "a", "id": 1 } }, "key"], ["list", { k: { "key": "a", "id": 1 } }, "id"], ["list", { k: { "key": "a", "id": 1 } }, "nv"], ["list", { k: { "key": "a", "id": 2 } }], ["list", { k: { "key": "b", "id": 1 } }], ["list", { k: { "key": "b", "id": 1 } }, "key"], ["list", { k: { "key": "b", "id": 1 } }, "id"]]],
      ["{\"atomicList\":[\"a\",\"a\",\"a\"]}", [["atomicList"]]],
    ],
  },
];
