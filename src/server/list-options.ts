// Query parameters of list and watch requests, parsed and checked as kube-apiserver does.
import * as S from '../api/status.js';
import { notSupported, forbidden, type FieldError } from '../api/field-error.js';
import { labelFilter, fieldMatcher } from './selectors-adapter.js';
import type { LabelSelector } from '../registry/selectors.js';

export interface ListFilter {
  labelMatch?: (labels: Record<string, string>) => boolean;
  /** The label selector labelMatch matches, for a store's label index. */
  labelSelector?: LabelSelector;
  fieldMatch?: (fields: Record<string, string>) => boolean;
}

interface ListQuery extends ListFilter {
  resourceVersion?: string;
  resourceVersionMatch?: string;
  limit?: number;
  continueToken?: string;
  timeoutSeconds?: number;
  allowWatchBookmarks: boolean;
  sendInitialEvents?: boolean;
  watch: boolean;
}

const isTrue = (v: string | null): boolean => v !== null && (v === '' || v === '1' || v.toLowerCase() === 'true');

function intParam(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) throw S.badRequest(`invalid value for ${name}: ${v}`);
  return Number(v);
}

export function parseListQuery(q: URLSearchParams, isWatch: boolean, fieldLabels: readonly string[], defaultFieldLabelConversion = false): ListQuery {
  const out: ListQuery = {
    resourceVersion: q.get('resourceVersion') ?? undefined,
    resourceVersionMatch: q.get('resourceVersionMatch') ?? undefined,
    limit: intParam(q, 'limit'),
    continueToken: q.get('continue') || undefined,
    timeoutSeconds: intParam(q, 'timeoutSeconds'),
    allowWatchBookmarks: isTrue(q.get('allowWatchBookmarks')),
    sendInitialEvents: q.has('sendInitialEvents') ? isTrue(q.get('sendInitialEvents')) : undefined,
    watch: isWatch,
  };
  const ls = q.get('labelSelector');
  if (ls) Object.assign(out, labelFilter(ls));
  const fs = q.get('fieldSelector');
  if (fs) out.fieldMatch = fieldMatcher(fs, fieldLabels, defaultFieldLabelConversion);
  const errs = validateListQuery(out);
  if (errs.length) throw S.invalid('meta.k8s.io', 'ListOptions', '', errs);
  return out;
}

/** metainternalversion/validation.ValidateListOptions, with the WatchList feature on. */
function validateListQuery(o: ListQuery): FieldError[] {
  const errs: FieldError[] = [];
  const match = o.resourceVersionMatch;
  if (o.watch) {
    if (o.sendInitialEvents !== undefined && match !== 'NotOlderThan') {
      errs.push(forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    }
    if (match) {
      if (o.sendInitialEvents === undefined) {
        errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
      }
      if (match !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', match, ['NotOlderThan']));
      if (o.continueToken) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    }
    return errs;
  }
  if (match) {
    if (!o.resourceVersion) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (o.continueToken) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && o.resourceVersion === '0') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (o.sendInitialEvents !== undefined) errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return errs;
}

export function parseRevision(rv: string | undefined): number | undefined {
  if (rv === undefined || rv === '' || rv === '0') return undefined;
  if (!/^\d+$/.test(rv)) throw S.badRequest(`invalid resource version: ${rv}`);
  return Number(rv);
}
