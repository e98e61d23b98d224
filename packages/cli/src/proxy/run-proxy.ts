/**
 * `typemcp proxy`: any MCP server (a command over stdio, or a Streamable HTTP URL) served by a
 * TypeMCP server that mounts it (@typemcp/gateway), so the framework's own authorization, rate
 * limits, request log, telemetry, Host/Origin checks, /health and graceful close stand in front
 * of it. @typemcp/gateway and @typemcp/http load only here.
 *
 * Over HTTP the proxy listens first and mounts then: `/readyz` answers 503 (its `upstream` check
 * failed) until the upstream is connected, and again whenever it is down (reconnecting); a first
 * connection that fails still ends the proxy with that error. `shutdown()` (SIGTERM or SIGINT in
 * the command) is serveHttp's drain: `/readyz` 503 and new sessions refused for `drainMs` while
 * in-flight calls go on, then the listener closes (giving them `graceMs` more), then the mount.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { ServerOptions, TypeMcpServer } from '@typemcp/core';
import type { Mount, MountOptions, Upstream } from '@typemcp/gateway';
import type { HealthCheck, HttpListener, ServeHttpOptions } from '@typemcp/http';
import { UsageError } from '../usage.error.js';
import { CLI_VERSION } from '../version.js';

/** What `--config <file>` exports: options for the parts the flags do not cover. @publicApi */
export interface ProxyConfig {
  /** `serveHttp()` options (auth, rateLimit, allowedOrigins, sessions...), merged over the flags'. */
  readonly http?: ServeHttpOptions;
  /** mount() options (namespace, tool transforms, tool search, reconnect...), merged over the flags'. */
  readonly mount?: MountOptions;
  /** createServer() options of the proxy's own server (logger, telemetry, interceptors...). */
  readonly server?: Partial<ServerOptions>;
}

/** The proxy's settings, from the command line. @publicApi */
export interface ProxyOptions {
  /** The upstream command and its arguments (stdio), or none with `url`. */
  readonly command: readonly string[];
  readonly url?: string;
  /** The environment variable holding the HTTP upstream's bearer token. */
  readonly bearerEnv?: string;
  readonly era?: 'auto' | 'legacy' | 'modern';
  readonly namespace?: string;
  /** Serve over stdio instead of HTTP. */
  readonly stdio?: boolean;
  readonly port?: number;
  readonly host?: string;
  /** Verify JWT bearer tokens from this issuer (its JWKS from `jwksUri`, or discovered). */
  readonly jwtIssuer?: string;
  readonly jwksUri?: string;
  readonly audience?: string;
  /** Requests per second per caller (bursts of the same size). */
  readonly rateLimit?: number;
  /** The request log on stderr (a JSON line per HTTP request). */
  readonly log?: boolean;
  readonly allowedHosts?: readonly string[];
  readonly allowedOrigins?: readonly string[];
  /** How long a shutdown keeps serving in-flight calls with `/readyz` failing before it closes, in ms (serveHttp's `drainMs`, default 5 000). */
  readonly drainMs?: number;
  /** How long in-flight requests may still run once the listener closes, in ms (serveHttp's `graceMs`, default 5 000). */
  readonly graceMs?: number;
  /** A CommonJS or JSON module exporting a {@link ProxyConfig}. */
  readonly config?: string;
  readonly cwd: string;
}

/** A running proxy. @publicApi */
export interface RunningProxy {
  readonly server: TypeMcpServer;
  readonly mount: Mount;
  /** The HTTP listener (absent with `stdio`). */
  readonly listener?: HttpListener;
  /** Closes the listener, giving in-flight requests `graceMs`, then the upstream. */
  close(graceMs?: number): Promise<void>;
  /** A graceful stop: over HTTP, the drain (`/readyz` 503, new sessions refused) for `drainMs`, then `close()`. */
  shutdown(): Promise<void>;
}

function loadConfig(file: string | undefined, cwd: string): ProxyConfig {
  if (!file) return {};
  const full = path.resolve(cwd, file);
  if (!existsSync(full)) throw new UsageError(`--config ${file}: no such file`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the user's configuration module
  const loaded = require(full) as ProxyConfig & { default?: ProxyConfig };
  return loaded.default ?? loaded;
}

function upstreamOf(options: ProxyOptions): Upstream {
  if (options.url && options.command.length) throw new UsageError('give either --url or a command after --, not both');
  if (options.url) {
    const token = options.bearerEnv ? process.env[options.bearerEnv] : undefined;
    if (options.bearerEnv && !token) throw new UsageError(`--bearer-env ${options.bearerEnv}: the variable is not set`);
    return { url: options.url, era: options.era, ...(token ? { auth: { bearer: token } } : {}) };
  }
  const [command, ...args] = options.command;
  if (!command) throw new UsageError('give the upstream: typemcp proxy -- <command> [args...], or --url <url>');
  return { command, args, era: options.era, stderr: 'inherit' };
}

function httpOptions(options: ProxyOptions, config: ProxyConfig): ServeHttpOptions {
  const http: { -readonly [K in keyof ServeHttpOptions]: ServeHttpOptions[K] } = { port: options.port ?? 3000, host: options.host };
  if (options.jwtIssuer) http.auth = { jwt: { issuer: options.jwtIssuer, jwksUri: options.jwksUri, audience: options.audience } };
  if (options.rateLimit !== undefined) http.rateLimit = { capacity: options.rateLimit, refillPerSecond: options.rateLimit };
  if (options.log) http.log = true;
  if (options.allowedHosts?.length) http.allowedHosts = options.allowedHosts;
  if (options.allowedOrigins?.length) http.allowedOrigins = options.allowedOrigins;
  if (options.drainMs !== undefined) http.drainMs = options.drainMs;
  if (options.graceMs !== undefined) http.graceMs = options.graceMs;
  return { ...http, ...config.http };
}

/** Starts the proxy: mounts the upstream (failing when it cannot be reached), then serves. @publicApi */
export async function runProxy(options: ProxyOptions): Promise<RunningProxy> {
  const config = loadConfig(options.config, options.cwd);
  const upstream = upstreamOf(options);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded by this command only
  const { createServer } = require('@typemcp/core') as typeof import('@typemcp/core');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded by this command only
  const { mount } = require('@typemcp/gateway') as typeof import('@typemcp/gateway');
  const server = createServer({ name: 'typemcp-proxy', version: CLI_VERSION, services: [], ...config.server });
  const mountOptions: MountOptions = { namespace: options.namespace, ...config.mount };
  if (options.stdio) {
    const mounted = await mount(server, upstream, mountOptions);
    const connection = await server.listen({ transport: 'stdio' });
    const close = async () => {
      await mounted.close();
      await server.close();
    };
    void connection.closed.then(close);
    return { server, mount: mounted, close, shutdown: close };
  }
  let mounted: Mount | undefined;
  const http = httpOptions(options, config);
  const upstreamReady: HealthCheck = {
    name: 'upstream',
    check: () => {
      if (mounted?.state !== 'up') throw new Error(`the upstream is not connected (${mounted?.state ?? 'connecting'})`);
    },
  };
  const listener = (await server.listen({
    transport: 'http',
    ...http,
    // The command handles the signals: its shutdown also closes the mount, after the listener.
    handleSignals: false,
    readinessChecks: [...(http.readinessChecks ?? []), upstreamReady],
  })) as HttpListener;
  try {
    mounted = await mount(server, upstream, mountOptions);
  } catch (error) {
    await listener.close(0);
    throw error;
  }
  const up = mounted;
  const close = async (graceMs?: number) => {
    await listener.close(graceMs);
    await up.close();
  };
  return {
    server,
    mount: up,
    listener,
    close,
    async shutdown() {
      await listener.shutdown();
      await up.close();
    },
  };
}
