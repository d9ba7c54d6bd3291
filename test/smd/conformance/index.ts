// Every ported merge/*_test.go of structured-merge-diff, in the order of its file names.
import type { ConformanceFile } from './fixture.js';
import { FILE as conflict } from './conflict-cases.js';
import { FILE as deduced } from './deduced-cases.js';
import { FILE as defaultKeys } from './default-keys-cases.js';
import { FILE as duplicates } from './duplicates-cases.js';
import { FILE as extractApply } from './extract-apply-cases.js';
import { FILE as fieldLevelOverrides } from './field-level-overrides-cases.js';
import { FILE as ignore } from './ignore-cases.js';
import { FILE as key } from './key-cases.js';
import { FILE as leaf } from './leaf-cases.js';
import { FILE as multipleAppliers } from './multiple-appliers-cases.js';
import { FILE as nested } from './nested-cases.js';
import { FILE as obsoleteVersions } from './obsolete-versions-cases.js';
import { FILE as preserveUnknown } from './preserve-unknown-cases.js';
import { FILE as real } from './real-cases.js';
import { FILE as schemaChange } from './schema-change-cases.js';
import { FILE as set } from './set-cases.js';

export const FILES: readonly ConformanceFile[] = [
  conflict,
  deduced,
  defaultKeys,
  duplicates,
  extractApply,
  fieldLevelOverrides,
  ignore,
  key,
  leaf,
  multipleAppliers,
  nested,
  obsoleteVersions,
  preserveUnknown,
  real,
  schemaChange,
  set,
];
