// The server's response class. Headers every response carries that are known before a handler writes anything
// (Audit-Id, the priority and fairness UIDs) are held here and handed to writeHead together with the handler's
// own. Set one by one with setHeader, node validates, lower-cases and files each in a dictionary object, and a
// writeHead after any setHeader merges its headers through setHeader again: about 2 µs of a GET's ~35.
import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';

export class ApiResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** Name, value, name, value...: headers for writeHead to add. */
  private early: string[] | undefined;

  /** A header for the response's head, as setHeader would set it (a later one of the same name replaces it). */
  addEarlyHeader(name: string, value: string): void {
    if (this.headersSent) return;
    const early = (this.early ??= []);
    for (let i = 0; i < early.length; i += 2) {
      if (early[i]!.toLowerCase() === name.toLowerCase()) {
        early[i + 1] = value;
        return;
      }
    }
    early.push(name, value);
  }

  /** An early header's value, else what getHeader gives. */
  headerValue(name: string): string | number | string[] | undefined {
    const early = this.early;
    if (early) for (let i = 0; i < early.length; i += 2) if (early[i]!.toLowerCase() === name.toLowerCase()) return early[i + 1];
    return this.getHeader(name);
  }

  override writeHead(statusCode: number, statusMessage?: string, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
  override writeHead(statusCode: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
  override writeHead(statusCode: number, a?: string | OutgoingHttpHeaders | OutgoingHttpHeader[], b?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this {
    const early = this.early;
    // Kept after (headerValue still answers for them: a request's log line names its Audit-Id once it is done).
    if (early === undefined || this.headersSent) return typeof a === 'string' ? super.writeHead(statusCode, a, b) : super.writeHead(statusCode, a);
    const given = typeof a === 'string' ? b : a;
    if (given !== undefined && Array.isArray(given)) {
      // Raw header arrays (not written by this server's handlers): the early ones by setHeader, as before.
      for (let i = 0; i < early.length; i += 2) this.setHeader(early[i]!, early[i + 1]!);
      return typeof a === 'string' ? super.writeHead(statusCode, a, b) : super.writeHead(statusCode, a);
    }
    const merged: OutgoingHttpHeaders = {};
    for (let i = 0; i < early.length; i += 2) merged[early[i]!] = early[i + 1];
    // The handler's headers come after, and win, as over setHeader's.
    if (given) for (const k of Object.keys(given)) merged[k] = given[k];
    return typeof a === 'string' ? super.writeHead(statusCode, a, merged) : super.writeHead(statusCode, merged);
  }
}

/** Sets a header every response of the request carries: held for writeHead on an ApiResponse, else setHeader. */
export function setEarlyHeader(res: ServerResponse, name: string, value: string): void {
  if (res instanceof ApiResponse) res.addEarlyHeader(name, value);
  else if (!res.headersSent) res.setHeader(name, value);
}

/** A header of the response, early or set. */
export function responseHeader(res: ServerResponse, name: string): string | number | string[] | undefined {
  return res instanceof ApiResponse ? res.headerValue(name) : res.getHeader(name);
}
