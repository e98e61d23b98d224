/**
 * What the mounts of one server share, installed on the engine with the first mount: the
 * subscription methods also ask the owning mount's upstream for updates; a request for a feature
 * of a mount that is down (withdrawn) gets the mount's clear error instead of "unknown"; and a
 * client's `notifications/roots/list_changed` reaches every upstream.
 */
import type { TypeMcpServer } from '@typemcp/core';
import { ErrorCode, InvalidOptionError, McpError, type JsonObject, type MethodHandler, type SessionContract } from '@typemcp/protocol';
import { GatewayErrorCode, type GatewayError } from '../errors.js';
import type { Naming } from './naming.js';

/** A mount as the host sees it (Mount implements it). */
export interface HostedMount {
  readonly namespace: string | undefined;
  readonly naming: Naming;
  knows(name: string): boolean;
  claims(name: string): boolean;
  unavailable(): GatewayError;
  subscribe(holder: object, uri: string): void;
  unsubscribe(holder: object, uri: string): void;
  rootsChanged(session: SessionContract): void;
}

const ROOTS_CHANGED = 'notifications/roots/list_changed';

/** The mounts of one server. */
export class GatewayHost {
  private static readonly hosts = new WeakMap<TypeMcpServer, GatewayHost>();
  private readonly mounts = new Set<HostedMount>();
  private installed = false;

  private constructor(private readonly server: TypeMcpServer) {}

  /** The host of `server`, made on first use. */
  static of(server: TypeMcpServer): GatewayHost {
    let host = GatewayHost.hosts.get(server);
    if (!host) GatewayHost.hosts.set(server, (host = new GatewayHost(server)));
    return host;
  }

  add(mount: HostedMount): void {
    const ns = mount.namespace;
    if (ns !== undefined && [...this.mounts].some((m) => m.namespace === ns)) {
      throw new InvalidOptionError(
        'namespace',
        `Invalid option "namespace": "${ns}" is mounted already on this server (${GatewayErrorCode.InvalidMount}); give each mount its own.`,
      );
    }
    this.mounts.add(mount);
    if (!this.installed) this.install();
  }

  remove(mount: HostedMount): void {
    this.mounts.delete(mount);
  }

  /** The mount a URI of a subscription belongs to. */
  private owner(uri: unknown): HostedMount | undefined {
    if (typeof uri !== 'string') return undefined;
    for (const mount of this.mounts) if (mount.naming.rewritesUris && mount.naming.upstreamUri(uri) !== undefined) return mount;
    // Mounts that keep URIs: the one whose registered resource or template serves it.
    const registry = this.server.engine.registry;
    const served = registry.resource(uri) ? uri : registry.matchTemplate(uri)?.entry.definition.uriTemplate;
    return served === undefined ? undefined : [...this.mounts].find((m) => !m.naming.rewritesUris && m.knows(served));
  }

  /** `error` for a request naming `name`, or the error of the mount that served it and is down. */
  private clearer(error: unknown, name: unknown): unknown {
    if (!(error instanceof McpError) || typeof name !== 'string') return error;
    if (error.code !== ErrorCode.InvalidParams && error.code !== ErrorCode.ResourceNotFound) return error;
    const mount = [...this.mounts].find((m) => m.claims(name));
    return mount ? mount.unavailable() : error;
  }

  private install(): void {
    this.installed = true;
    const engine = this.server.engine;
    const explained = (key: 'name' | 'uri') => (inner: MethodHandler) => (params: JsonObject, ctx: Parameters<MethodHandler>[1]) => {
      try {
        return inner(params, ctx);
      } catch (error) {
        throw this.clearer(error, params[key]);
      }
    };
    engine.wrapMethodHandler('tools/call', explained('name'));
    engine.wrapMethodHandler('prompts/get', explained('name'));
    engine.wrapMethodHandler('resources/read', explained('uri'));
    engine.wrapMethodHandler('resources/subscribe', (inner) => (params, ctx) => {
      const out = inner(params, ctx);
      this.owner(params.uri)?.subscribe(ctx.session, params.uri as string);
      return out;
    });
    engine.wrapMethodHandler('resources/unsubscribe', (inner) => (params, ctx) => {
      const out = inner(params, ctx);
      this.owner(params.uri)?.unsubscribe(ctx.session, params.uri as string);
      return out;
    });
    engine.wrapMethodHandler('subscriptions/listen', (inner) => (params, ctx) => {
      const out = inner(params, ctx);
      const uris = (params.notifications as JsonObject | undefined)?.resourceSubscriptions;
      const owned = (Array.isArray(uris) ? uris : []).flatMap((uri) => {
        const mount = this.owner(uri);
        return mount ? [{ mount, uri: uri as string }] : [];
      });
      if (owned.length === 0) return out;
      for (const { mount, uri } of owned) mount.subscribe(ctx, uri);
      const end = () => owned.forEach(({ mount, uri }) => mount.unsubscribe(ctx, uri));
      ctx.signal.addEventListener('abort', end, { once: true });
      Promise.resolve(out).then(end, end);
      return out;
    });
    const previous = engine.notificationHandler(ROOTS_CHANGED);
    engine.setNotificationHandler(ROOTS_CHANGED, async (params, session) => {
      for (const mount of this.mounts) mount.rootsChanged(session);
      await previous?.(params, session);
    });
  }
}
