import type { ClassType, Root, ServerOptions, TypeMcpServer } from '@typemcp/core';
import type { ClientCapabilities, Implementation, JsonObject } from '@typemcp/protocol';
import type { Awaitable, CreateMessageParams, CreateMessageResult, ElicitAnswer, ElicitParams } from './test-client.types.js';

/** How the test client presents itself and answers the server's requests. @publicApi */
export interface ClientSideOptions {
  /**
   * The protocol revision to speak (default: the newest handshake revision, 2025-11-25). At
   * 2024-11-05 .. 2025-11-25 the client sends it in `initialize` and fails if the server answers
   * another one. At 2026-07-28 (stateless) there is no handshake: it goes in every request's
   * `_meta`, and the client asks `server/discover` once to learn the server's capabilities.
   */
  revision?: string;
  /**
   * The capabilities declared in `initialize` (2026-07-28: in every request's `_meta`). Default:
   * derived from the handlers given —
   * `sampling` with `onSample`, `elicitation` with `onElicit`, `roots` (listChanged) with `roots`.
   * Given explicitly, they are sent as is (to test a client that declares what it cannot answer).
   */
  capabilities?: ClientCapabilities;
  /**
   * Extensions the client declares (SEP-2133), by identifier, with its settings for each (`{}`
   * for none): added to `capabilities.extensions`, so they travel in `initialize` or, at
   * 2026-07-28, in every request's `_meta`.
   */
  clientExtensions?: Record<string, JsonObject>;
  /** Answers `sampling/createMessage`; without it the request gets a -32601 error. */
  onSample?: (params: CreateMessageParams) => Awaitable<CreateMessageResult>;
  /** Answers `elicitation/create`; without it the request gets a -32601 error. */
  onElicit?: (params: ElicitParams) => Awaitable<ElicitAnswer>;
  /** The answer to `roots/list` (change it later with `client.setRoots()`). */
  roots?: Root[];
  /** The client's name and version (default `{ name: 'typemcp-test-client', version: '0.0.0' }`). */
  clientInfo?: Implementation;
  /**
   * Who the client is, as an HTTP auth hook would establish it: set on the session before the
   * handshake, so tool guards and `ctx.principal` see it.
   */
  principal?: unknown;
  /** Per-request timeout in ms (default 5000; 0 for none): a hung handler fails with the method's name. */
  timeoutMs?: number;
  /**
   * 2026-07-28 only: open a `subscriptions/listen` for tools, prompts and resources list changes
   * when connecting (default true), so `notifications/<kind>/list_changed` arrive as they do on a
   * handshake connection. With false, a listen is only opened by `subscribe()`.
   */
  listen?: boolean;
  /**
   * 2026-07-28 only: how many `input_required` rounds one request may take before it rejects
   * (code `TYPEMCP_ERR_INPUT_ROUNDS`); default 10.
   */
  maxInputRounds?: number;
}

/**
 * Builds a fresh server for the client (closed with it): {@link ServerOptions} with `services`
 * required (a test says what it serves, rather than every `@McpService()` imported so far) and
 * `name`/`version` optional. `providers` override anything the container builds: an
 * `@Injectable()` dependency, or an `@McpService()` class itself (`useValue` or `useClass`).
 * @publicApi
 */
export interface BuildServerOptions extends Omit<ServerOptions, 'name' | 'version' | 'services'> {
  services: ClassType[];
  name?: string;
  version?: string;
  server?: never;
  closeServer?: never;
}

/** Connects to an existing server. @publicApi */
export interface ExistingServerOptions {
  server: TypeMcpServer;
  /**
   * Close the server with the client (default false: several clients may share it). Set it for a
   * server made for this client, e.g. by the app's own factory.
   */
  closeServer?: boolean;
  services?: never;
  providers?: never;
}

/** Options of {@link createTestClient}: a server (built or given) and the client's side. @publicApi */
export type TestClientOptions = ClientSideOptions & (BuildServerOptions | ExistingServerOptions);
