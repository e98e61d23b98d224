/** `Accept` and `Content-Type` checks (RFC 9110 media ranges, parameters ignored except q=0). */
import type { McpHttpRequest } from '../exchange/http-exchange.js';

/** True when the `Accept` header lists `type` or a range covering it (`text/*`, `*\/*`). A missing header accepts nothing. */
export function accepts(req: McpHttpRequest, type: string): boolean {
  const header = req.headers.accept;
  if (!header) return false;
  const slash = type.indexOf('/');
  const family = `${type.slice(0, slash)}/*`;
  for (const range of header.split(',')) {
    const [essence, ...params] = range.split(';');
    const value = essence.trim().toLowerCase();
    if (value !== type && value !== family && value !== '*/*') continue;
    if (params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/i.test(p))) continue;
    return true;
  }
  return false;
}

/** True when the request body is declared as `application/json` (any parameters). */
export function isJsonContentType(req: McpHttpRequest): boolean {
  const header = req.headers['content-type'];
  if (!header) return false;
  const semicolon = header.indexOf(';');
  return (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase() === 'application/json';
}
