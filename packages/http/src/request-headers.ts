/** Reading one request header as a single string, whatever node made of it. */
import type { McpHttpRequest } from './exchange/http-exchange.js';

/** The header `name` (lower case), repeated values joined with `, `; undefined when absent. */
export function headerOf(req: McpHttpRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
