/** How a mount reshapes the tools of its upstream. */
import type { ToolGuard } from '@typemcp/protocol';

/** A tool name, or a pattern of names (upstream names). @publicApi */
export type ToolMatcher = string | RegExp;

/** One argument of a tool, reshaped. @publicApi */
export interface ArgumentTransform {
  /** The name clients see (the upstream still gets its own). */
  readonly name?: string;
  readonly description?: string;
  /** Set: the default clients see, sent when the client leaves the argument out. */
  readonly default?: unknown;
  /** Fix: always this value; the argument disappears from the schema and a client's value is refused. */
  readonly value?: unknown;
  /** Hide an optional argument: clients do not see it and it is never sent. */
  readonly hidden?: boolean;
}

/** One tool, reshaped. Keyed by its upstream name in `tools.transform`. @publicApi */
export interface ToolTransform {
  /** The name clients see (before the namespace prefix). */
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  /** Hide the tool (as `exclude` does). */
  readonly hidden?: boolean;
  /** By upstream argument name. */
  readonly arguments?: Readonly<Record<string, ArgumentTransform>>;
  /** OAuth scopes this tool needs besides the mount's. */
  readonly scopes?: readonly string[];
  /** Who may see and call it (and-ed with the mount's guard). */
  readonly guard?: ToolGuard;
}

/**
 * Tool search for large catalogues: instead of every tool, clients see two, `search_tools` (a
 * query, ranked matches with their schemas) and `call_tool` (a name and its arguments), each
 * under the mount's namespace. @publicApi
 */
export interface ToolSearchOptions {
  /** The most matches one search returns (default 10). */
  readonly limit?: number;
}

/** The `tools` option of a mount. @publicApi */
export interface ToolsOptions {
  /** Only these tools (default: all). */
  readonly include?: readonly ToolMatcher[];
  /** Never these tools. */
  readonly exclude?: readonly ToolMatcher[];
  /** Renames, descriptions, hiding and argument transforms, by upstream tool name. */
  readonly transform?: Readonly<Record<string, ToolTransform>>;
  /** Serve the search and call pair instead of the tools themselves. */
  readonly search?: boolean | ToolSearchOptions;
}
