/**
 * subscriptions/listen (2026-07-28): one long-lived request whose stream carries the change
 * notifications the client opted in to, each tagged with the subscription's id. It replaces the
 * legacy GET stream and resources/subscribe. The request is answered only when the server ends
 * the subscription (shutdown); a client ends it by cancelling the request or closing its stream.
 */
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import type { JsonObject } from '../../jsonrpc/message.js';
import { McpError } from '../../jsonrpc/protocol.error.js';
import { MetaKey } from '../modern-request.js';
import type { ServerHost } from '../server-host.js';
import type { Listener, SubscriptionFilter } from '../contracts.js';
import type { MethodTable } from './method-handler.type.js';

export type { Listener, SubscriptionFilter };

const invalid = (detail: string) => new McpError(ErrorCode.InvalidParams, `Invalid params: subscriptions/listen ${detail}`);

const FLAGS = [
  ['toolsListChanged', 'tools'],
  ['promptsListChanged', 'prompts'],
  ['resourcesListChanged', 'resources'],
] as const;

/** The requested filter, checked, narrowed to what the server offers. */
function acceptedFilter(server: ServerHost, requested: unknown): SubscriptionFilter {
  if (requested === null || typeof requested !== 'object' || Array.isArray(requested)) throw invalid('requires "notifications" to be an object');
  const wanted = requested as JsonObject;
  const caps = server.capabilities();
  const accepted: SubscriptionFilter = {};
  for (const [flag, kind] of FLAGS) {
    const value = wanted[flag];
    if (value !== undefined && typeof value !== 'boolean') throw invalid(`"notifications.${flag}" must be a boolean`);
    if (value && caps[kind]) accepted[flag] = true;
  }
  const uris = wanted.resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris) || !uris.every((u) => typeof u === 'string')) throw invalid('"notifications.resourceSubscriptions" must be an array of strings');
    if (caps.resources) accepted.resourceSubscriptions = [...new Set(uris as string[])];
  }
  return accepted;
}

export function subscriptionHandlers(server: ServerHost): MethodTable {
  return {
    'subscriptions/listen'(params, ctx) {
      const filter = acceptedFilter(server, params.notifications);
      const tag = { [MetaKey.subscriptionId]: ctx.id };
      ctx.session.notify('notifications/subscriptions/acknowledged', { _meta: tag, notifications: filter as JsonObject }, ctx.id);
      return new Promise<JsonObject>((resolve) => {
        const listener: Listener = {
          session: ctx.session,
          id: ctx.id,
          filter,
          send: (method, body) => ctx.session.notify(method, { ...body, _meta: tag }, ctx.id),
          end: () => {
            server.listeners.delete(listener);
            resolve({ _meta: tag });
          },
        };
        server.listeners.add(listener);
        ctx.signal.addEventListener('abort', () => server.listeners.delete(listener), { once: true });
      });
    },
  };
}
