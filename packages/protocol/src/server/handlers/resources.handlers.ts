/** resources/list, resources/templates/list, resources/read, resources/subscribe, resources/unsubscribe. */
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { McpError } from '../../jsonrpc/protocol.error.js';
import type { ReadResourceResult } from '../../mcp-types.js';
import type { RegisteredResource, RegisteredTemplate } from '../../registry/handler.types.js';
import type { RequestContext } from '../request-context.js';
import type { RevisionFeatures } from '../../revisions.js';
import { requireString } from '../params.js';
import type { ServerHost } from '../server-host.js';
import { shapeReadResult } from '../revision-shaper.js';
import type { MethodTable } from './method-handler.type.js';
import { isThenable } from '../../util/is-thenable.js';
import { checkScopes } from '../../registry/scopes.js';

const EMPTY = Object.freeze({});

export function resourceHandlers(server: ServerHost): MethodTable {
  // 2026-07-28 moved "not found" from -32002 to -32602.
  const notFound = (uri: string, f?: RevisionFeatures) =>
    new McpError(f?.modern ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });

  const exists = (uri: string) => server.registry.resource(uri) !== undefined || server.registry.matchTemplate(uri) !== undefined;

  // A reader's "not found" (ResourceNotFoundError, or any -32002) takes the revision's code.
  const missing = (error: unknown, f: RevisionFeatures): never => {
    if (f.modern && error instanceof McpError && error.code === ErrorCode.ResourceNotFound) {
      throw new McpError(ErrorCode.InvalidParams, error.message, error.data);
    }
    throw error;
  };

  const shape = (value: ReadResourceResult, uri: string, ctx: RequestContext, feature: RegisteredResource | RegisteredTemplate): ReadResourceResult => {
    if (value === null || typeof value !== 'object' || !Array.isArray(value.contents)) {
      throw new TypeError(`The reader of resource ${uri} returned no "contents" array`);
    }
    // Extensions decorate the contents as written, before the revision drops what it lacks.
    const decorate = server.extensionSet.contents;
    return shapeReadResult(decorate ? decorate(value, feature, uri, ctx) : value, ctx.features);
  };

  return {
    'resources/list'(params, ctx) {
      const page = server.listPage('resources', ctx, params.cursor);
      return page.nextCursor ? { resources: page.items, nextCursor: page.nextCursor } : { resources: page.items };
    },

    'resources/templates/list'(params, ctx) {
      const page = server.listPage('templates', ctx, params.cursor);
      return page.nextCursor ? { resourceTemplates: page.items, nextCursor: page.nextCursor } : { resourceTemplates: page.items };
    },

    'resources/read'(params, ctx) {
      const uri = requireString(params, 'uri', 'resources/read');
      const f = ctx.features;
      const fixed = server.registry.resource(uri);
      const matched = fixed ? undefined : server.registry.matchTemplate(uri);
      if (!fixed && !matched) throw notFound(uri, f);
      const scopes = fixed ? fixed.scopes : matched!.entry.scopes;
      if (scopes) checkScopes(scopes, ctx.session.principal);
      ctx.cacheHint = fixed ? fixed.cache : matched!.entry.cache;
      let out: ReadResourceResult | Promise<ReadResourceResult>;
      try {
        out = fixed ? fixed.read(uri, ctx) : matched!.entry.read(uri, matched!.variables, ctx);
      } catch (error) {
        return missing(error, f);
      }
      const feature = fixed ?? matched!.entry;
      return isThenable(out)
        ? out.then(
            (value) => shape(value, uri, ctx, feature),
            (error: unknown) => missing(error, f),
          )
        : shape(out, uri, ctx, feature);
    },

    'resources/subscribe'(params, ctx) {
      const uri = requireString(params, 'uri', 'resources/subscribe');
      if (!exists(uri)) throw notFound(uri, ctx.features);
      ctx.session.subscribe(uri);
      return EMPTY;
    },

    'resources/unsubscribe'(params, ctx) {
      const uri = requireString(params, 'uri', 'resources/unsubscribe');
      ctx.session.unsubscribe(uri);
      return EMPTY;
    },
  };
}
