import * as m from '../dist/crd/cel-crd-checks.js';
