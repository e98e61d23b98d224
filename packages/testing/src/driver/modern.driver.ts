/**
 * The stateless era (2026-07-28): no handshake. Every request carries the protocol version, the
 * client's capabilities and identity (and the log level, once one is set) in `_meta`. The
 * server cannot send the client requests: a `tools/call`, `prompts/get` or `resources/read`
 * that needs sampling, elicitation or roots is answered `input_required`, and this driver
 * answers those questions from the same handlers a legacy connection uses, then retries the
 * request with the answers and the echoed `requestState` until it completes. Change
 * notifications arrive on a long-lived `subscriptions/listen` request.
 */
import { ErrorCode, type Implementation, type JsonObject, type LoggingLevel, type RequestId, type ServerCapabilities } from '@typemcp/protocol';
import { isJsonObject as isObject, MetaKey } from '@typemcp/protocol/internal';
import { InputRoundsExceededError } from '../errors.js';
import { JsonRpcError } from '../json-rpc.error.js';
import type { Notification } from '../test-client.types.js';
import type { ClientDriver, DriverRequestOptions, DriverSettings, ServerHello } from './client-driver.interface.js';
import { MemoryConnection } from './memory-connection.js';

const DEFAULT_MAX_INPUT_ROUNDS = 10;

/** The open `subscriptions/listen` request. */
interface Listen {
  controller: AbortController;
  /** Settles when the server ends it (result), or it is cancelled or the connection closes. */
  done: Promise<unknown>;
}

/** @internal */
export class ModernDriver implements ClientDriver {
  readonly era = 'modern';
  private readonly connection: MemoryConnection;
  private serverHello?: ServerHello;
  private logLevel?: LoggingLevel;
  private readonly subscriptions = new Set<string>();
  private listening?: Listen;
  /** Listen changes, one at a time. */
  private listenQueue: Promise<void> = Promise.resolve();
  /** Waiters for the acknowledgement of a `subscriptions/listen`, by its request id. */
  private readonly acks = new Map<RequestId, () => void>();
  private closing = false;

  private constructor(private readonly settings: DriverSettings) {
    this.connection = new MemoryConnection(settings.engine, {
      notification: (method, params) => this.received(params === undefined ? { method } : { method, params }),
      // The server never asks a modern client directly; were it to, it gets the same answers.
      request: (method, params) => settings.requests.answer(method, params),
    });
    if (settings.principal !== undefined) this.connection.session.principal = settings.principal;
  }

  /**
   * Asks `server/discover` for what `initialize` used to tell (capabilities, instructions, the
   * server's identity from the result's `_meta`), checks that the revision is served, and opens
   * a `subscriptions/listen` for list changes unless `settings.listen` is false.
   */
  static async open(settings: DriverSettings): Promise<ModernDriver> {
    const driver = new ModernDriver(settings);
    try {
      const found = await driver.request('server/discover', undefined, { timeoutMs: settings.timeoutMs });
      const versions = Array.isArray(found.supportedVersions) ? (found.supportedVersions as unknown[]) : [];
      if (!versions.includes(settings.revision)) {
        throw new Error(`The server does not serve revision ${settings.revision}: server/discover lists ${versions.join(', ') || 'none'}`);
      }
      const serverInfo = (found._meta as JsonObject | undefined)?.[MetaKey.serverInfo];
      driver.serverHello = {
        revision: settings.revision,
        // A server configured not to name itself in results: fall back to its configured identity.
        serverInfo: (isObject(serverInfo) ? serverInfo : settings.engine.serverInfo) as Implementation,
        capabilities: (found.capabilities ?? {}) as ServerCapabilities,
      };
      if (typeof found.instructions === 'string') driver.serverHello.instructions = found.instructions;
      if (settings.listen !== false) await driver.relisten(settings.timeoutMs);
      return driver;
    } catch (error) {
      await driver.close();
      throw error;
    }
  }

  get hello(): ServerHello {
    return this.serverHello!;
  }

  /**
   * Sends a request with the era's `_meta` (members the caller put in `_meta` win, so a test
   * can send a wrong version on purpose), answering `input_required` results until the request
   * completes.
   */
  async request(method: string, params: JsonObject | undefined, options: DriverRequestOptions): Promise<JsonObject> {
    const maxRounds = this.settings.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
    let sent = this.withMeta(params);
    for (let round = 0; ; round++) {
      const result = await this.connection.request(method, sent, options);
      if (result.resultType !== 'input_required' || options.answerInput === false) return result;
      if (round >= maxRounds) {
        throw new InputRoundsExceededError(method, result, maxRounds);
      }
      const inputResponses = await this.answer(method, result.inputRequests);
      if (options.signal?.aborted) throw options.signal.reason;
      const { requestState: _state, inputResponses: _responses, ...rest } = sent;
      sent = { ...rest, inputResponses };
      if (result.requestState !== undefined) sent.requestState = result.requestState;
    }
  }

  notify(method: string, params?: JsonObject): void {
    this.connection.notify(method, params);
  }

  /** Without the envelope of a complete modern result: `resultType`, caching hints, `serverInfo`. */
  bare(result: JsonObject): JsonObject {
    if (result.resultType !== 'complete') return result;
    const { resultType: _type, ttlMs: _ttl, cacheScope: _scope, ...rest } = result;
    if (isObject(rest._meta)) {
      const { [MetaKey.serverInfo]: _info, ...meta } = rest._meta;
      if (Object.keys(meta).length) rest._meta = meta;
      else delete rest._meta;
    }
    return rest;
  }

  /** There is no `ping` in 2026-07-28: `server/discover` stands for it. */
  async ping(options: DriverRequestOptions): Promise<void> {
    await this.request('server/discover', undefined, options);
  }

  /** There is no `logging/setLevel`: the level travels in the `_meta` of every later request. */
  setLogLevel(level: LoggingLevel): Promise<void> {
    this.logLevel = level;
    return Promise.resolve();
  }

  /** There is no `resources/subscribe`: a new `subscriptions/listen` names every URI subscribed. */
  async subscribe(uri: string, options: DriverRequestOptions): Promise<void> {
    if (this.subscriptions.has(uri) && this.listening) return;
    this.subscriptions.add(uri);
    await this.relisten(options.timeoutMs);
  }

  async unsubscribe(uri: string, options: DriverRequestOptions): Promise<void> {
    if (!this.subscriptions.delete(uri)) return;
    await this.relisten(options.timeoutMs);
  }

  /** Nothing to announce: the server asks for roots within each request that needs them. */
  rootsChanged(): void {}

  async close(): Promise<void> {
    this.closing = true;
    this.listening?.controller.abort(new Error('The test client closed'));
    this.listening = undefined;
    await this.connection.close();
  }

  /** The params with this era's `_meta` under the caller's. */
  private withMeta(params: JsonObject | undefined): JsonObject {
    const { revision, capabilities, clientInfo } = this.settings;
    const meta: JsonObject = {
      [MetaKey.protocolVersion]: revision,
      [MetaKey.clientCapabilities]: capabilities as JsonObject,
      [MetaKey.clientInfo]: clientInfo as unknown as JsonObject,
    };
    if (this.logLevel !== undefined) meta[MetaKey.logLevel] = this.logLevel;
    return { ...params, _meta: { ...meta, ...(params?._meta as JsonObject | undefined) } };
  }

  /**
   * The answers to one round's `inputRequests`, from the handlers (in parallel, as a client
   * would show them). A handler that throws, or a missing one, fails the whole request: this
   * era has no way to send an error as an answer.
   */
  private async answer(method: string, inputRequests: unknown): Promise<JsonObject> {
    if (inputRequests === undefined) return {};
    if (!isObject(inputRequests)) throw new Error(`${method} answered input_required with malformed inputRequests`);
    const answers = await Promise.all(
      Object.entries(inputRequests).map(async ([key, asked]) => {
        if (!isObject(asked) || typeof asked.method !== 'string') throw new Error(`${method} answered input_required with a malformed inputRequests["${key}"]`);
        const params = isObject(asked.params) ? asked.params : {};
        return [key, await this.settings.requests.answer(asked.method, params)] as const;
      }),
    );
    return Object.fromEntries(answers) as JsonObject;
  }

  private received(notification: Notification): void {
    if (notification.method === 'notifications/subscriptions/acknowledged') {
      const id = (notification.params?._meta as JsonObject | undefined)?.[MetaKey.subscriptionId];
      if (typeof id === 'string' || typeof id === 'number') this.acks.get(id)?.();
    }
    this.settings.onNotification(notification);
  }

  /** Replaces the open `subscriptions/listen` with one for the current filter, in order. */
  private relisten(timeoutMs: number): Promise<void> {
    const run = this.listenQueue.then(() => this.replaceListen(timeoutMs));
    this.listenQueue = run.catch(() => undefined);
    return run;
  }

  /**
   * Opens the new listen and waits for its acknowledgement before cancelling the old one, so no
   * notification falls between the two. With nothing to listen for, only cancels.
   */
  private async replaceListen(timeoutMs: number): Promise<void> {
    if (this.closing) throw new JsonRpcError(ErrorCode.ConnectionClosed, 'The test client is closed', undefined, 'subscriptions/listen');
    const previous = this.listening;
    const notifications: JsonObject = {};
    if (this.settings.listen !== false) {
      notifications.toolsListChanged = true;
      notifications.promptsListChanged = true;
      notifications.resourcesListChanged = true;
    }
    if (this.subscriptions.size) notifications.resourceSubscriptions = [...this.subscriptions];
    let next: Listen | undefined;
    if (Object.keys(notifications).length) next = await this.openListen(notifications, timeoutMs);
    this.listening = next;
    previous?.controller.abort(new Error('Replaced by a new subscriptions/listen'));
  }

  private async openListen(notifications: JsonObject, timeoutMs: number): Promise<Listen> {
    const controller = new AbortController();
    let id: RequestId | undefined;
    let acknowledged!: () => void;
    const ack = new Promise<void>((resolve) => (acknowledged = resolve));
    const done = this.connection.request(
      'subscriptions/listen',
      this.withMeta({ notifications }),
      // Open until cancelled or the server ends it: no timeout.
      { signal: controller.signal, timeoutMs: 0, onSent: (sent) => this.acks.set((id = sent), acknowledged) },
    );
    const listen: Listen = { controller, done };
    done.then(
      () => this.listening === listen && (this.listening = undefined),
      () => this.listening === listen && (this.listening = undefined),
    );
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        ack,
        done.then(() => {
          throw new Error('subscriptions/listen ended before it was acknowledged');
        }),
        new Promise<never>((_, reject) => {
          if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
            timer = setTimeout(() => reject(new Error(`subscriptions/listen was not acknowledged within ${timeoutMs} ms`)), timeoutMs).unref();
          }
        }),
      ]);
    } catch (error) {
      controller.abort(error);
      throw error;
    } finally {
      clearTimeout(timer);
      if (id !== undefined) this.acks.delete(id);
    }
    return listen;
  }
}
