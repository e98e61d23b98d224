/**
 * mount(): serves another MCP server's features from a TypeMCP server. The mount keeps one
 * connection to its upstream (made with `connect`), registers what the upstream lists (synced on
 * every `list_changed`), relays resource updates, and when the connection ends withdraws its
 * features (clients get `list_changed`), fails what was in flight with a clear error and
 * reconnects with backoff until `close()`.
 */
import type { TypeMcpServer } from '@typemcp/core';
import type { FeatureKind, Implementation, SessionContract } from '@typemcp/protocol';
import { GatewayError, GatewayErrorCode, MountConnectError } from '../errors.js';
import { CallRegistry } from '../relay/call-registry.js';
import type { UpstreamEvents, UpstreamLink } from '../upstream/upstream-link.js';
import { GatewayHost } from './gateway-host.js';
import type { MountOptions } from './mount-options.interface.js';
import { MountedFeatures } from './mounted-features.js';
import type { SkippedFeature } from './skipped-feature.js';
import { Naming } from './naming.js';
import { Subscriptions } from './subscriptions.js';

/** Where a mount's connection stands. @publicApi */
export type MountState = 'connecting' | 'up' | 'down' | 'closed';

/** A mounted server. @publicApi */
export class Mount {
  /** @internal */
  readonly naming: Naming;
  /** @internal */
  readonly calls: CallRegistry;
  private readonly features: MountedFeatures;
  private readonly subscriptions: Subscriptions;
  private readonly listeners: ((state: MountState) => void)[] = [];
  private current?: UpstreamLink;
  private status: MountState = 'connecting';
  private generation = 0;
  private failures = 0;
  private retry?: NodeJS.Timeout;
  private resync?: Promise<void>;
  private resyncAgain = false;

  /** @internal Use `mount()`. */
  constructor(
    private readonly server: TypeMcpServer,
    private readonly connect: (mount: Mount, events: UpstreamEvents) => Promise<UpstreamLink>,
    readonly options: MountOptions,
  ) {
    this.naming = new Naming(options.namespace, options.uris ?? 'prefix');
    this.calls = new CallRegistry(this.naming.label, options.parkTimeoutMs ?? 300_000, options.maxParked ?? 1000);
    this.features = new MountedFeatures(server, this);
    this.subscriptions = new Subscriptions(server, () => this.current);
  }

  /** The namespace, when mounted under one. */
  get namespace(): string | undefined {
    return this.naming.namespace;
  }

  get state(): MountState {
    return this.status;
  }

  /** The upstream's self-reported name and version (while connected). */
  get upstreamInfo(): Implementation | undefined {
    return this.current?.serverInfo;
  }

  /** The era of the current connection, or `in-process`; undefined while down. */
  get era(): 'legacy' | 'modern' | 'in-process' | undefined {
    return this.current?.era;
  }

  /** The upstream child process's pid (stdio mounts, while connected). */
  get pid(): number | undefined {
    return (this.current as { pid?: () => number | undefined } | undefined)?.pid?.();
  }

  /** Upstream features left out at the last sync, with the reason (too long a name, a taken name, task-only tools in tool-search mode). */
  get skipped(): readonly SkippedFeature[] {
    return this.features.skipped;
  }

  /** Calls `listener` on every change of state. */
  onState(listener: (state: MountState) => void): void {
    this.listeners.push(listener);
  }

  /** Resolves once the mount is up (at once when it is); rejects after `timeoutMs` or when it closes. */
  whenUp(timeoutMs = 30_000): Promise<void> {
    if (this.status === 'up') return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`The mount ${this.naming.label} was not up within ${timeoutMs} ms`)), timeoutMs);
      this.onState((state) => {
        if (state === 'up' || state === 'closed') clearTimeout(timer);
        if (state === 'up') resolve();
        if (state === 'closed') reject(new Error(`The mount ${this.naming.label} was closed`));
      });
    });
  }

  /** @internal */
  link(): UpstreamLink {
    if (this.current) return this.current;
    throw this.unavailable();
  }

  /** @internal The error of a request to this mount while it is down. */
  unavailable(): GatewayError {
    const label = this.naming.label;
    const why =
      this.status === 'closed' ? 'was unmounted' : `is unavailable (reconnecting, ${this.failures} failed attempt${this.failures === 1 ? '' : 's'} so far)`;
    return new GatewayError(GatewayErrorCode.UpstreamUnavailable, `The server mounted as ${label} ${why}`, label);
  }

  /** @internal True when this mount serves (or served) `name`: a tool or prompt name, a URI or a template. */
  knows(name: string): boolean {
    return this.features.known.has(name);
  }

  /** @internal True when `name` (a tool or prompt name, or a URI) was served by this mount and is withdrawn now. */
  claims(name: string): boolean {
    return this.status !== 'up' && this.features.known.has(name);
  }

  /** @internal The first connection: throws a MountConnectError (or a DefinitionError for a taken name). */
  async start(required: boolean): Promise<void> {
    GatewayHost.of(this.server).add(this);
    try {
      await this.attempt(true);
    } catch (error) {
      if (required || !(error instanceof MountConnectError)) {
        await this.close();
        throw error;
      }
      this.lost();
    }
  }

  private setState(state: MountState): void {
    if (this.status === state) return;
    this.status = state;
    for (const listener of this.listeners) listener(state);
  }

  private async attempt(first: boolean): Promise<void> {
    const generation = ++this.generation;
    this.setState('connecting');
    const live = () => generation === this.generation && this.status !== 'closed';
    const events: UpstreamEvents = {
      listChanged: (kind) => live() && this.changed(kind),
      resourceUpdated: (uri) => live() && this.subscriptions.updated(this.naming.uri(uri)),
      closed: () => live() && this.lost(),
    };
    let link: UpstreamLink;
    try {
      link = await this.connect(this, events);
    } catch (error) {
      throw new MountConnectError(`Could not connect to the server mounted as ${this.naming.label}: ${(error as Error)?.message ?? String(error)}`, {
        cause: error,
      });
    }
    if (!live()) return void link.close().catch(() => undefined);
    try {
      this.current = link;
      this.warnTaken(this.features.sync(await link.features(), first));
    } catch (error) {
      this.current = undefined;
      await link.close().catch(() => undefined);
      if (first) throw error;
      throw new MountConnectError(`The server mounted as ${this.naming.label} could not be listed: ${(error as Error).message}`, { cause: error });
    }
    this.failures = 0;
    this.subscriptions.resubscribe();
    this.setState('up');
  }

  /** A list of the upstream changed: sync again (one sync at a time; changes meanwhile sync once more). */
  private changed(_kind: FeatureKind): void {
    if (this.resync) {
      this.resyncAgain = true;
      return;
    }
    this.resync = (async () => {
      do {
        this.resyncAgain = false;
        const link = this.current;
        if (!link) return;
        try {
          this.warnTaken(this.features.sync(await link.features(), false));
        } catch {
          // The connection broke while listing: `closed` follows and reconnects.
        }
      } while (this.resyncAgain);
    })().finally(() => (this.resync = undefined));
  }

  /** A feature the upstream added later under a name already served: left out, and said so. */
  private warnTaken(taken: readonly SkippedFeature[]): void {
    for (const feature of taken) {
      const message = `The ${feature.kind} "${feature.name}" of the server mounted as ${this.naming.label} is left out: ${feature.reason}`;
      const logger = this.server.logger;
      if (logger) logger.warn({ component: 'gateway', code: GatewayErrorCode.FeatureSkipped, mount: this.naming.label }, message);
      else process.stderr.write(`[typemcp] warning ${GatewayErrorCode.FeatureSkipped}: ${message}\n`);
    }
  }

  /** The connection ended: withdraw, fail what was in flight, reconnect after a backoff. */
  private lost(): void {
    const link = this.current;
    this.current = undefined;
    this.features.withdraw();
    this.calls.abortAll(this.unavailable());
    if (link) void link.close().catch(() => undefined);
    if (this.status === 'closed') return;
    this.setState('down');
    const reconnect = this.options.reconnect;
    if (reconnect === false) return;
    const base = Math.min(reconnect?.maxDelayMs ?? 30_000, (reconnect?.initialDelayMs ?? 250) * 2 ** Math.min(this.failures, 16));
    this.failures++;
    this.retry = setTimeout(
      () => {
        this.attempt(false).catch(() => this.lost());
      },
      base * (1 + Math.random() * 0.2),
    );
    this.retry.unref();
  }

  /** @internal A downstream client subscribed to (or listens for) one of this mount's URIs. */
  subscribe(holder: object, uri: string): void {
    const upstream = this.naming.upstreamUri(uri);
    if (upstream !== undefined) this.subscriptions.add(holder, uri, upstream);
  }

  /** @internal */
  unsubscribe(holder: object, uri: string): void {
    this.subscriptions.remove(holder, uri);
  }

  /** @internal A downstream client's roots changed. */
  rootsChanged(session: SessionContract): void {
    this.current?.rootsChanged(session);
  }

  /** Unmounts: withdraws the features, ends the connection and stops reconnecting. */
  async close(): Promise<void> {
    if (this.status === 'closed') return;
    this.setState('closed');
    clearTimeout(this.retry);
    GatewayHost.of(this.server).remove(this);
    this.features.withdraw();
    const link = this.current;
    this.current = undefined;
    await link?.close().catch(() => undefined);
  }
}
