/**
 * The typed options of `@App`, `@AppOnly` and `@AppView`, their checks, and the wire form they
 * become (`_meta.ui` of a tool, `_meta.ui` of a view's content item). Checked when the decorator
 * runs: a bad option fails at start-up, never while serving.
 */
import type { JsonObject } from '@typemcp/protocol';
import { AppsError, AppsErrorCode } from './errors.js';

/** Who may use a tool: the model (the agent's tool list), the app (a view's `tools/call`). @publicApi */
export type AppVisibility = 'model' | 'app';

/** Options of `@App(...)`: the view that renders the tool's results. @publicApi */
export interface AppToolOptions {
  /** The view's `ui://` URI (a resource served with `@AppView`). */
  readonly resourceUri: string;
  /** Who may use the tool (default `['model', 'app']`, written explicitly). */
  readonly visibility?: readonly AppVisibility[];
  /**
   * The text a result gets when the tool answered without any text content (only
   * `structuredContent`, say), so that a client that renders no view still shows something.
   */
  readonly fallback?: string | ((structuredContent: JsonObject | undefined) => string);
}

/** Options of `@AppOnly(...)`: a tool only views call (`visibility: ["app"]`). @publicApi */
export interface AppOnlyOptions {
  /** The view the tool belongs to, if it belongs to one. */
  readonly resourceUri?: string;
}

/**
 * What the view's page may reach, as CSP origins (`https://api.example.com`, `wss://live.example.com`,
 * `https://*.example.com`). Omitted or empty: nothing (the host's restrictive default). @publicApi
 */
export interface AppCsp {
  /** `connect-src`: fetch, XHR, WebSocket. */
  readonly connectDomains?: readonly string[];
  /** `img-src`, `script-src`, `style-src`, `font-src`, `media-src`. */
  readonly resourceDomains?: readonly string[];
  /** `frame-src`: nested frames. */
  readonly frameDomains?: readonly string[];
  /** `base-uri`. */
  readonly baseUriDomains?: readonly string[];
}

/** Browser features the view asks for (a host may refuse; the page must feature-detect). @publicApi */
export interface AppPermissions {
  /** Permission Policy `camera`. */
  readonly camera?: boolean;
  /** Permission Policy `microphone`. */
  readonly microphone?: boolean;
  /** Permission Policy `geolocation`. */
  readonly geolocation?: boolean;
  /** Permission Policy `clipboard-write`. */
  readonly clipboardWrite?: boolean;
}

/** Options of `@AppView(...)`: how the host frames the view. @publicApi */
export interface AppViewOptions {
  /** The origins the page may reach (the host builds its CSP from them); none by default. */
  readonly csp?: AppCsp;
  /** The browser features the page asks for; none by default. */
  readonly permissions?: AppPermissions;
  /** `true`: a visible border and background from the host; `false`: none; omitted: the host decides. */
  readonly prefersBorder?: boolean;
  /** A dedicated sandbox origin for the view, in the form the host documents. */
  readonly domain?: string;
}

/** The data `@App` / `@AppOnly` record on a tool. @internal */
export interface AppToolData {
  readonly resourceUri?: string;
  readonly visibility: readonly AppVisibility[];
  readonly fallback?: AppToolOptions['fallback'];
}

/** The data `@AppView` records on a resource: its content item's `_meta.ui`, ready to send. @internal */
export interface AppViewData {
  readonly meta: JsonObject | undefined;
}

/** What the extension's data on a feature is. @internal */
export interface AppData {
  readonly tool?: AppToolData;
  readonly view?: AppViewData;
}

const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;
// A CSP origin: scheme, host (an optional leading `*.` wildcard label), optional port. Nothing a
// host could splice into its policy as another directive or source (`;`, `,`, spaces, quotes).
const ORIGIN = /^(?:https?|wss?):\/\/(?:\*\.)?[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::\d{1,5})?$/;
const MAX_URI = 2048;

function invalid(where: string, problem: string): AppsError {
  return new AppsError(AppsErrorCode.InvalidApp, `${where}: ${problem}`);
}

/** Throws unless `uri` is a `ui://` URI with an authority or path. */
export function checkUiUri(uri: unknown, where: string): string {
  if (typeof uri !== 'string' || !/^ui:\/\/[^\s]+$/.test(uri) || uri.length > MAX_URI) {
    throw invalid(where, `the view's URI must be a ui:// URI without spaces (at most ${MAX_URI} characters), got ${JSON.stringify(uri)}`);
  }
  return uri;
}

/** `@App`'s options, checked, as the tool's data. */
export function toolData(options: AppToolOptions | string, where: string): AppToolData {
  const given: AppToolOptions = typeof options === 'string' ? { resourceUri: options } : options;
  if (!given || typeof given !== 'object') throw invalid(where, "give the view's ui:// URI or { resourceUri, visibility?, fallback? }");
  const resourceUri = checkUiUri(given.resourceUri, where);
  const visibility = given.visibility ?? ['model', 'app'];
  if (
    !Array.isArray(visibility) ||
    visibility.length === 0 ||
    visibility.some((v) => v !== 'model' && v !== 'app') ||
    new Set(visibility).size !== visibility.length
  ) {
    throw invalid(where, `visibility must list "model" and/or "app" once each, got ${JSON.stringify(given.visibility)}`);
  }
  const { fallback } = given;
  if (fallback !== undefined && typeof fallback !== 'string' && typeof fallback !== 'function') throw invalid(where, 'fallback must be a string or a function');
  return { resourceUri, visibility: [...(visibility as readonly AppVisibility[])], ...(fallback !== undefined ? { fallback } : {}) };
}

/** `@AppOnly`'s options, checked, as the tool's data. */
export function appOnlyData(options: AppOnlyOptions, where: string): AppToolData {
  if (!options || typeof options !== 'object') throw invalid(where, 'give { resourceUri? }');
  return options.resourceUri === undefined ? { visibility: ['app'] } : { resourceUri: checkUiUri(options.resourceUri, where), visibility: ['app'] };
}

/** `@AppView`'s options, checked, as the content item's `_meta.ui` (undefined when empty). */
export function viewData(options: AppViewOptions, where: string): AppViewData {
  if (!options || typeof options !== 'object') throw invalid(where, 'give { csp?, permissions?, prefersBorder?, domain? }');
  const known = new Set(['csp', 'permissions', 'prefersBorder', 'domain']);
  for (const key of Object.keys(options)) if (!known.has(key)) throw invalid(where, `unknown option "${key}" (known: ${[...known].join(', ')})`);
  const meta: JsonObject = {};
  if (options.csp !== undefined) {
    const csp: JsonObject = {};
    for (const key of Object.keys(options.csp))
      if (!(CSP_KEYS as readonly string[]).includes(key)) throw invalid(where, `unknown csp key "${key}" (known: ${CSP_KEYS.join(', ')})`);
    for (const key of CSP_KEYS) {
      const list = options.csp[key];
      if (list === undefined) continue;
      if (!Array.isArray(list)) throw invalid(where, `csp.${key} must be an array of origins`);
      for (const origin of list) {
        if (typeof origin !== 'string' || !ORIGIN.test(origin)) {
          throw invalid(where, `csp.${key} has ${JSON.stringify(origin)}, which is not an origin such as https://api.example.com or https://*.example.com`);
        }
      }
      csp[key] = [...new Set(list)];
    }
    meta.csp = csp;
  }
  if (options.permissions !== undefined) {
    const permissions: JsonObject = {};
    for (const [key, on] of Object.entries(options.permissions)) {
      if (!(PERMISSIONS as readonly string[]).includes(key)) throw invalid(where, `unknown permission "${key}" (known: ${PERMISSIONS.join(', ')})`);
      if (typeof on !== 'boolean') throw invalid(where, `permissions.${key} must be true or false`);
      if (on) permissions[key] = {};
    }
    meta.permissions = permissions;
  }
  if (options.prefersBorder !== undefined) {
    if (typeof options.prefersBorder !== 'boolean') throw invalid(where, 'prefersBorder must be true or false');
    meta.prefersBorder = options.prefersBorder;
  }
  if (options.domain !== undefined) {
    if (typeof options.domain !== 'string' || !/^[^\s;,'"]{1,253}$/.test(options.domain))
      throw invalid(where, `domain must be a host name, got ${JSON.stringify(options.domain)}`);
    meta.domain = options.domain;
  }
  return { meta: Object.keys(meta).length ? meta : undefined };
}
