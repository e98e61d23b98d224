/** createTestClient(): a server built from services (or given), and a client connected to it. */
import { createServer, type TypeMcpServer } from '@typemcp/core';
import { LATEST_LEGACY_REVISION, type JsonObject } from '@typemcp/protocol';
import { ClientRequests } from './client-requests.js';
import { openDriver } from './driver/open-driver.js';
import { NotificationLog } from './notification-log.js';
import type { BuildServerOptions, TestClientOptions } from './test-client.options.js';
import { TestClient } from './test-client.js';

const DEFAULT_CLIENT_INFO = { name: 'typemcp-test-client', version: '0.0.0' };
const DEFAULT_TIMEOUT_MS = 5000;

function buildServer(options: BuildServerOptions): TypeMcpServer {
  return createServer({ name: 'typemcp-test-server', version: '0.0.0', ...options });
}

/**
 * Builds a server from `services` (with `providers` overriding what the DI container builds) or
 * takes `server`, connects an in-memory client to the engine's real session and completes the
 * `initialize` handshake at `revision` (at the stateless 2026-07-28: asks `server/discover` and
 * opens a `subscriptions/listen` for list changes). The server's start hooks (`onInit()`) are
 * awaited first; closing the client closes a server it built (its stop hooks run).
 *
 * ```ts
 * const client = await createTestClient({ services: [NotesService], providers: [{ provide: NotesRepository, useValue: fake }] });
 * expect(await client.callTool('search', { query: 'milk' })).toMatchObject({ isError: undefined });
 * await client.close();
 * ```
 * @publicApi
 */
export async function createTestClient(options: TestClientOptions): Promise<TestClient> {
  const {
    server: given,
    closeServer = false,
    revision = LATEST_LEGACY_REVISION,
    capabilities,
    clientExtensions,
    clientInfo = DEFAULT_CLIENT_INFO,
    onSample,
    onElicit,
    roots,
    principal,
    timeoutMs = DEFAULT_TIMEOUT_MS,
    listen,
    maxInputRounds,
    ...build
  } = options;
  const requests = new ClientRequests({ onSample, onElicit, roots });
  const log = new NotificationLog();
  const server = given ?? buildServer(build as BuildServerOptions);
  const ownsServer = !given || closeServer;
  const base = capabilities ?? requests.capabilities();
  const declared = clientExtensions ? { ...base, extensions: { ...(base.extensions as JsonObject | undefined), ...clientExtensions } } : base;
  try {
    // Start hooks (onInit) run before the first request, as with listen().
    await server.start();
    const driver = await openDriver({
      engine: server.engine,
      revision,
      capabilities: declared,
      clientInfo,
      principal,
      timeoutMs,
      requests,
      onNotification: (n) => log.add(n),
      listen,
      maxInputRounds,
    });
    return new TestClient(server, driver, log, requests, { timeoutMs, ownsServer, capabilities: declared });
  } catch (error) {
    if (ownsServer) await server.close();
    throw error;
  }
}
