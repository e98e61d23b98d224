/**
 * The handshake era (2024-11-05 .. 2025-11-25): one connection, opened with `initialize` and
 * `notifications/initialized`; the server's requests (sampling, elicitation, roots) arrive on
 * it and are answered on it.
 */
import type { Implementation, JsonObject, LoggingLevel, ServerCapabilities } from '@typemcp/protocol';
import type { ClientDriver, DriverRequestOptions, DriverSettings, ServerHello } from './client-driver.interface.js';
import { MemoryConnection } from './memory-connection.js';

/** @internal */
export class LegacyDriver implements ClientDriver {
  readonly era = 'legacy';

  private constructor(
    private readonly connection: MemoryConnection,
    readonly hello: ServerHello,
  ) {}

  /** Connects and completes the handshake at `settings.revision`. */
  static async open(settings: DriverSettings): Promise<LegacyDriver> {
    const connection = new MemoryConnection(settings.engine, {
      notification: (method, params) => settings.onNotification(params === undefined ? { method } : { method, params }),
      request: (method, params) => settings.requests.answer(method, params),
    });
    if (settings.principal !== undefined) connection.session.principal = settings.principal;
    try {
      const result = await connection.request(
        'initialize',
        { protocolVersion: settings.revision, capabilities: settings.capabilities as JsonObject, clientInfo: settings.clientInfo as unknown as JsonObject },
        { timeoutMs: settings.timeoutMs },
      );
      if (result.protocolVersion !== settings.revision) {
        throw new Error(`The server answered initialize with revision ${String(result.protocolVersion)}, not the requested ${settings.revision}`);
      }
      connection.notify('notifications/initialized');
      const hello: ServerHello = {
        revision: settings.revision,
        serverInfo: result.serverInfo as Implementation,
        capabilities: (result.capabilities ?? {}) as ServerCapabilities,
      };
      if (typeof result.instructions === 'string') hello.instructions = result.instructions;
      return new LegacyDriver(connection, hello);
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  request(method: string, params: JsonObject | undefined, options: DriverRequestOptions): Promise<JsonObject> {
    return this.connection.request(method, params, options);
  }

  notify(method: string, params?: JsonObject): void {
    this.connection.notify(method, params);
  }

  bare(result: JsonObject): JsonObject {
    return result;
  }

  async ping(options: DriverRequestOptions): Promise<void> {
    await this.request('ping', undefined, options);
  }

  async setLogLevel(level: LoggingLevel, options: DriverRequestOptions): Promise<void> {
    await this.request('logging/setLevel', { level }, options);
  }

  async subscribe(uri: string, options: DriverRequestOptions): Promise<void> {
    await this.request('resources/subscribe', { uri }, options);
  }

  async unsubscribe(uri: string, options: DriverRequestOptions): Promise<void> {
    await this.request('resources/unsubscribe', { uri }, options);
  }

  rootsChanged(): void {
    this.notify('notifications/roots/list_changed');
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}
