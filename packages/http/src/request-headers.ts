/** Reading one request header as a single string, whatever node made of it. */
import type { IncomingMessage } from 'node:http';

/** The header `name` (lower case), repeated values joined with `, `; undefined when absent. */
export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
