/** Builds the server: main.ts serves it, and every test builds it with this same function. */
// [example]
import * as path from 'node:path';
// [/example]
import { createServer, type ClassType, type Provider, type StructuredLogger, type TypeMcpServer } from '@typemcp/core';
// [http]
import type { HttpListenOptions } from '@typemcp/core';
import type {} from '@typemcp/http';
// [/http]
// [redis]
import { redisState } from '@typemcp/redis';
// [/redis]
// [example]
import { skills } from '@typemcp/skills';
// [/example]
// [app]
import { appsExtension } from '@typemcp/apps';
// [/app]
import { AppConfig } from './config.js';
import { services } from './services/index.js';

/**
 * What the services need that the DI container cannot build by itself: a database pool, an API
 * client... e.g. `{ provide: Settings, useValue: loadSettings() }`. (AppConfig is always provided.)
 */
export const providers: Provider[] = [];

/** What main.ts and the tests may give: the configuration, a logger, some of the services only, fakes for some providers. */
export interface AppServerOptions {
  /** The configuration, injectable into any service (default: every default of AppConfig; main.ts passes loadConfig()'s). */
  config?: AppConfig;
  /** Where the framework logs (main.ts passes one built from LOG_LEVEL and LOG_FORMAT; none in tests). */
  logger?: StructuredLogger;
  /** The services to serve (default: every one of `services`). */
  services?: ClassType[];
  /** Providers that replace the app's own for the same `provide` (or add to them). */
  providers?: Provider[];
}

/** The {{name}} MCP server, ready to `listen()`. */
export function createAppServer(options: AppServerOptions = {}): TypeMcpServer {
  const own: Provider[] = [{ provide: AppConfig, useValue: options.config ?? new AppConfig() }, ...providers];
  const overrides = options.providers ?? [];
  const replaced = new Set(overrides.map((provider) => provider.provide));
  return createServer({
    name: '{{name}}',
    version: '0.1.0',
    services: options.services ?? services,
    logger: options.logger,
    providers: [...own.filter((provider) => !replaced.has(provider.provide)), ...overrides],
    // [example]
    // Agent skills (io.modelcontextprotocol/skills): skills/<name>/SKILL.md and its files; add one with npx typemcp add skill <name>.
    extensions: [skills({ dir: path.join(__dirname, '..', 'skills') })],
    // [/example]
    // [app]
    // MCP Apps (io.modelcontextprotocol/ui): the @App, @AppOnly and @AppView decorators need it.
    extensions: [appsExtension()],
    // [/app]
  });
}
// [http]

/** How main.ts serves HTTP, from the configuration (SIGTERM drains for DRAIN_MS, then stops). */
export function httpOptions(config: AppConfig): HttpListenOptions {
  return {
    transport: 'http',
    port: config.port,
    host: config.host,
    allowedHosts: config.allowedHosts,
    publicUrl: config.publicUrl,
    trustProxy: config.trustProxy,
    log: config.requestLog,
    drainMs: config.drainMs,
    // [redis]
    state: config.redisUrl ? redisState({ url: config.redisUrl, prefix: '{{name}}' }) : undefined,
    // [/redis]
  };
}
// [/http]
