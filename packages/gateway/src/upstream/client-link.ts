/**
 * A mounted server reached with the official client (`@modelcontextprotocol/client` 2.x, which
 * speaks both eras). Requests carry the downstream request's progress (its own token upstream),
 * cancellation, log level and (2026-07-28) client capabilities. Questions of a 2026-07-28
 * upstream come back in its `input_required` results and are relayed in-band; a 2025 upstream
 * asks with real requests, relayed through the call they belong to (see call-registry.ts).
 */
import type { ClientOptions } from '@modelcontextprotocol/client';
import type { FeatureKind, JsonObject } from '@typemcp/protocol';
import { GatewayError, GatewayErrorCode } from '../errors.js';
import type { HttpUpstream, StdioUpstream } from '../mount/mount-options.interface.js';
import type { ClientLinkContext } from './client-link-context.js';
import { askClient } from '../relay/ask-client.js';
import { LinkRequests } from './link-requests.js';
import { RawRequests } from './raw-requests.js';
import { clientPackage, upstreamTransport } from './client-transport.js';
import type { UpstreamLink } from './upstream-link.js';

const CAPABILITIES = { elicitation: { form: {}, url: {} }, sampling: {}, roots: { listChanged: true } };
const LIST_CHANGED: readonly [string, FeatureKind][] = [
  ['notifications/tools/list_changed', 'tools'],
  ['notifications/prompts/list_changed', 'prompts'],
  ['notifications/resources/list_changed', 'resources'],
];

const modeOf = (era: StdioUpstream['era']): NonNullable<ClientOptions['versionNegotiation']>['mode'] =>
  era === 'legacy' ? 'legacy' : era === 'modern' ? { pin: '2026-07-28' } : 'auto';

/** Connects to `upstream`; rejects when it cannot be reached. */
export async function clientLink(upstream: StdioUpstream | HttpUpstream, link: ClientLinkContext): Promise<UpstreamLink & { pid(): number | undefined }> {
  const sdk = clientPackage();
  const client = new sdk.Client(link.options.clientInfo ?? { name: 'typemcp-gateway', version: '0.1.0' }, {
    capabilities: CAPABILITIES,
    versionNegotiation: { mode: modeOf(upstream.era) },
    // Questions of a 2026-07-28 upstream are relayed to the downstream client, not answered here.
    inputRequired: { autoFulfill: false },
  });
  const opened = upstreamTransport(upstream);
  const transport = opened.transport;
  const pid = () => opened.pid();
  let closing = false;
  client.onclose = () => {
    if (!closing) link.events.closed();
  };
  client.onerror = () => undefined;

  // Set once connected; the upstream's task traffic (see upstream-tasks.ts).
  let requests: LinkRequests | undefined;
  // A 2025 upstream's questions: about one of its tasks, relayed to the gateway task following it; else through the call they belong to.
  for (const method of ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const) {
    client.setRequestHandler(method, (request, extra) => {
      const taskCtx = requests?.tasks.contextFor(request.params);
      if (taskCtx) return askClient(taskCtx, method, request.params as JsonObject | undefined, undefined, extra.mcpReq.signal) as never;
      const call = link.calls.attributed();
      if (!call) {
        throw new GatewayError(
          GatewayErrorCode.UnrelayableRequest,
          `${method} cannot be relayed: no single client request of the gateway is waiting on this server`,
          link.label,
        );
      }
      return call.ask(method, request.params as JsonObject | undefined, extra.mcpReq.signal) as never;
    });
  }
  const level = link.options.upstreamLogLevel ?? 'debug';
  client.setNotificationHandler('notifications/message', (n) => {
    const { level: l, data, logger } = n.params;
    const ctx = link.calls.attributed()?.ctx;
    if (ctx) ctx.log(l, data, logger);
    else link.downstream.log(l, data, logger);
  });
  for (const [method, kind] of LIST_CHANGED) client.setNotificationHandler(method as 'notifications/tools/list_changed', () => link.events.listChanged(kind));
  client.setNotificationHandler('notifications/resources/updated', (n) => link.events.resourceUpdated(n.params.uri));
  client.setNotificationHandler('notifications/tasks/status' as 'notifications/message', (n) => requests?.tasks.statusNotified(n.params));

  await client.connect(transport, { timeout: link.options.requestTimeoutMs ?? 30_000 });
  const modern = client.getProtocolEra() === 'modern';
  const capabilities = client.getServerCapabilities() ?? {};
  if (!modern && capabilities.logging) await client.setLoggingLevel(level).catch(() => undefined);
  const live = (requests = new LinkRequests(client, modern, link, capabilities, new RawRequests(transport, link.label)));

  return {
    era: modern ? 'modern' : 'legacy',
    serverInfo: client.getServerVersion(),
    pid,
    features: () => live.features(),
    callTool: (name, args, ctx) => live.forward('tools/call', { name, arguments: args }, ctx) as never,
    callTask: (name, args, ctx, ttlMs) => live.callTask(name, args, ctx, ttlMs),
    readResource: (uri, ctx) => live.forward('resources/read', { uri }, ctx) as never,
    getPrompt: (name, args, ctx) => live.forward('prompts/get', { name, arguments: args }, ctx) as never,
    complete: async (ref, argument, context, ctx) =>
      ((await live.plain('completion/complete', { ref, argument, context: { arguments: context } }, ctx)) as { completion: never }).completion,
    subscribe: (uri) => live.subscribe(uri),
    unsubscribe: (uri) => live.unsubscribe(uri),
    rootsChanged: () => void client.sendRootsListChanged().catch(() => undefined),
    async close() {
      closing = true;
      link.calls.abortAll(new GatewayError(GatewayErrorCode.UpstreamUnavailable, `The mount ${link.label} was closed`, link.label));
      await live.close().catch(() => undefined);
      await client.close();
    },
  };
}
