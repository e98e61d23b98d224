/** The names derived from what the user typed in `typemcp add <kind> <name>`. */
import { UsageError } from '../usage.error.js';

/** What `typemcp add` can add. */
export type ItemKind = 'tool' | 'resource' | 'prompt';

/** The kinds, in the order they are documented. */
export const ITEM_KINDS: readonly ItemKind[] = ['tool', 'resource', 'prompt'];

/** One name in every case the generated code needs. */
export interface ItemNames {
  /** As given: the MCP name clients see (`get_forecast`). */
  mcp: string;
  /** The method (`getForecast`). */
  camel: string;
  /** Classes (`GetForecast` + `Input`, `Service`...). */
  pascal: string;
  /** Files (`get-forecast.service.ts`). */
  kebab: string;
}

/** Splits `get_forecast`, `get-forecast`, `getForecast` and `GetForecast` into `get`, `forecast`. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** Checks a name and derives the others from it. */
export function itemNames(name: string): ItemNames {
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(name)) {
    throw new UsageError(`"${name}" is not a usable name: start with a letter, then letters, digits, "_" or "-" (e.g. get_forecast)`);
  }
  const parts = words(name);
  const pascal = parts.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  return { mcp: name, camel: pascal[0]!.toLowerCase() + pascal.slice(1), pascal, kebab: parts.join('-') };
}

/** A URI scheme made from the package name (`@acme/my-server` -> `my-server`), `app` when none fits. */
export function uriScheme(packageName: string | undefined): string {
  const base = (packageName ?? '')
    .split('/')
    .pop()!
    .toLowerCase()
    .replace(/[^a-z0-9+.-]/g, '-');
  const scheme = base.replace(/^[^a-z]+/, '');
  return scheme || 'app';
}
