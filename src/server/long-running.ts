// kube's LongRunningFunc (BasicLongRunningRequestCheck): requests exempt from the request timeout and the
// in-flight limits. Of its verbs and subresources (watch, proxy; attach, exec, log, portforward) only
// watches are served here.
import type { RequestInfo } from './request-info.js';

export function isLongRunning(info: RequestInfo): boolean {
  return info.verb === 'watch';
}
