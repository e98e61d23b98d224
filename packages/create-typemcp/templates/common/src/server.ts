/** Builds the server: main.ts serves it, and every test builds it with this same function. */
import { createServer, type ClassType, type Provider, type TypeMcpServer } from '@typemcp/core';
import { services } from './services/index.js';

/**
 * What the services need that the DI container cannot build by itself: configuration, a
 * database pool, an API client... e.g. `{ provide: Settings, useValue: loadSettings() }`.
 */
export const providers: Provider[] = [];

/** What a test may change: some of the services only, or fakes for some providers. */
export interface AppServerOptions {
  /** The services to serve (default: every one of `services`). */
  services?: ClassType[];
  /** Providers that replace the app's own for the same `provide` (or add to them). */
  providers?: Provider[];
}

/** The {{name}} MCP server, ready to `listen()`. */
export function createAppServer(options: AppServerOptions = {}): TypeMcpServer {
  const overrides = options.providers ?? [];
  const replaced = new Set(overrides.map((provider) => provider.provide));
  return createServer({
    name: '{{name}}',
    version: '0.1.0',
    services: options.services ?? services,
    providers: [...providers.filter((provider) => !replaced.has(provider.provide)), ...overrides],
  });
}
