/**
 * An MCP client bound to one server in memory, for tests: typed methods for every client
 * request, the notifications received, and answers to the server's own requests.
 */
import type { Root, TypeMcpServer } from '@typemcp/core';
import type {
  CallToolResult,
  ClientCapabilities,
  Completion,
  GetPromptResult,
  Implementation,
  JsonObject,
  LoggingLevel,
  PromptDefinition,
  ReadResourceResult,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ServerCapabilities,
  ToolDefinition,
} from '@typemcp/protocol';
import type { ClientRequests } from './client-requests.js';
import type { ClientDriver, DriverRequestOptions, ProtocolEra } from './driver/client-driver.interface.js';
import type { NotificationLog } from './notification-log.js';
import { TestTasks } from './test-tasks.js';
import type {
  CompletionReference,
  DiscoverResult,
  LogMessage,
  Notification,
  NotificationParams,
  ProgressParams,
  RequestOptions,
  TestSkill,
} from './test-client.types.js';

/** Settings fixed when the client is created. */
interface ClientSettings {
  timeoutMs: number;
  /** The server was built for this client: close it with the client. */
  ownsServer: boolean;
  /** What the client declares (tasks add the extension to it at 2026-07-28). */
  capabilities: ClientCapabilities;
}

/** Create one with `createTestClient()`. @publicApi */
export class TestClient {
  private nextProgressToken = 0;
  private taskApi?: TestTasks;

  /** @internal */
  constructor(
    /** The server under test (its `get()` returns the instances the container built). */
    readonly server: TypeMcpServer,
    private readonly driver: ClientDriver,
    private readonly log: NotificationLog,
    private readonly requests: ClientRequests,
    private readonly settings: ClientSettings,
  ) {}

  /** Tasks: call a tool as a task, poll it, answer its questions, cancel it, get its result (both eras). */
  get tasks(): TestTasks {
    return (this.taskApi ??= new TestTasks(this, this.settings.capabilities, this.requests));
  }

  /** The protocol revision in use. */
  get revision(): string {
    return this.driver.hello.revision;
  }

  /**
   * `legacy` for the handshake revisions (2024-11-05 .. 2025-11-25), `modern` for the stateless
   * 2026-07-28, where every request carries its own `_meta`.
   */
  get era(): ProtocolEra {
    return this.driver.era;
  }

  /** The server's `serverInfo`, as sent in `initialize` (2026-07-28: in results' `_meta`). */
  get serverInfo(): Implementation {
    return this.driver.hello.serverInfo;
  }

  /** The capabilities the server declared (2026-07-28: in `server/discover`, when connecting). */
  get serverCapabilities(): ServerCapabilities {
    return this.driver.hello.capabilities;
  }

  /** The server's `instructions`, when it sent some. */
  get instructions(): string | undefined {
    return this.driver.hello.instructions;
  }

  /**
   * Sends any request and resolves with its result as received. A JSON-RPC error response
   * rejects with a `JsonRpcError` (`code`, `message`, `data`). At 2026-07-28 the client's
   * `_meta` is added, `input_required` results are answered and retried (unless `answerInput`
   * is false), and the final result keeps what the typed methods drop: `resultType`, `ttlMs`,
   * `cacheScope` and `_meta["io.modelcontextprotocol/serverInfo"]`.
   */
  async request<T extends object = JsonObject>(method: string, params?: JsonObject, options: RequestOptions = {}): Promise<T> {
    const { onProgress, signal, timeoutMs = this.settings.timeoutMs, meta, answerInput } = options;
    let sent = params;
    let token: string | undefined;
    if (onProgress || meta) {
      const _meta: JsonObject = { ...(params?._meta as JsonObject | undefined), ...meta };
      if (onProgress) {
        token = `test-progress-${++this.nextProgressToken}`;
        _meta.progressToken = token;
        this.log.track(token, onProgress);
      }
      sent = { ...params, _meta };
    }
    try {
      return (await this.driver.request(method, sent, { signal, timeoutMs, answerInput })) as T;
    } finally {
      if (token) this.log.untrack(token);
    }
  }

  /**
   * Sends any request (an extension's method, say) and resolves with its result as the typed
   * methods return theirs: without what only the era's wire adds (2026-07-28 `resultType`,
   * caching hints, `serverInfo`). Errors reject with a `JsonRpcError`, as for `request()`.
   */
  call<T extends object = JsonObject>(method: string, params?: JsonObject, options?: RequestOptions): Promise<T> {
    return this.typed<T>(method, params, options);
  }

  /** Sends a notification to the server. */
  notify(method: string, params?: JsonObject): void {
    this.driver.notify(method, params);
  }

  /** `ping`; at 2026-07-28, which has no `ping`, a `server/discover` stands for it. */
  ping(): Promise<void> {
    return this.driver.ping(this.wire());
  }

  /**
   * `server/discover` (2026-07-28 only): the revisions, capabilities and instructions of the
   * server, as received (`resultType`, caching hints and `_meta` included).
   */
  async discover(options?: RequestOptions): Promise<DiscoverResult> {
    if (this.era !== 'modern') throw new Error(`server/discover exists only in revision 2026-07-28; this client speaks ${this.revision}`);
    return this.request<DiscoverResult>('server/discover', undefined, options);
  }

  /** Every tool (`tools/list`, all pages). */
  async listTools(): Promise<ToolDefinition[]> {
    return this.listAll<ToolDefinition>('tools/list', 'tools');
  }

  /**
   * `tools/call`: resolves with the result, also when it is a tool error (`isError: true`);
   * rejects only for a JSON-RPC error (an unknown tool, say).
   */
  callTool(name: string, args: JsonObject = {}, options?: RequestOptions): Promise<CallToolResult> {
    return this.typed<CallToolResult>('tools/call', { name, arguments: args }, options);
  }

  /** Every resource (`resources/list`, all pages). */
  listResources(): Promise<ResourceDefinition[]> {
    return this.listAll<ResourceDefinition>('resources/list', 'resources');
  }

  /** Every resource template (`resources/templates/list`, all pages). */
  listResourceTemplates(): Promise<ResourceTemplateDefinition[]> {
    return this.listAll<ResourceTemplateDefinition>('resources/templates/list', 'resourceTemplates');
  }

  /** `resources/read`. */
  readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.typed<ReadResourceResult>('resources/read', { uri }, options);
  }

  /**
   * `resources/subscribe`: `notifications/resources/updated` for `uri` follow. At 2026-07-28
   * the client (re)opens a `subscriptions/listen` naming every URI subscribed (and list changes
   * unless `listen: false`), and resolves once the server acknowledged it.
   */
  subscribe(uri: string): Promise<void> {
    return this.driver.subscribe(uri, this.wire());
  }

  /** `resources/unsubscribe` (2026-07-28: re-opens the `subscriptions/listen` without `uri`). */
  unsubscribe(uri: string): Promise<void> {
    return this.driver.unsubscribe(uri, this.wire());
  }

  /** Every skill (`skills/list` of the io.modelcontextprotocol/skills extension, all pages). */
  listSkills(): Promise<TestSkill[]> {
    return this.listAll<TestSkill>('skills/list', 'skills');
  }

  /** `skills/get`: the entry of the skill whose SKILL.md is at `uri`. */
  async getSkill(uri: string, options?: RequestOptions): Promise<TestSkill> {
    return (await this.request<{ skill: TestSkill }>('skills/get', { uri }, options)).skill;
  }

  /**
   * Loads a skill as a host would: `skills/get`, then `resources/read` of every file of its
   * manifest (SKILL.md only for a `dynamic` one), each checked against the manifest's size and
   * SHA-256 digest (an Error naming the file when they differ). Resolves with the bytes by URI.
   */
  async readSkill(uri: string): Promise<{ skill: TestSkill; files: Map<string, Buffer> }> {
    const skill = await this.getSkill(uri);
    const files = new Map<string, Buffer>();
    const listed = skill.resources === 'dynamic' ? [{ uri: skill.uri }] : skill.resources;
    for (const file of listed) {
      const [content] = (await this.readResource(file.uri)).contents as { text?: string; blob?: string }[];
      const bytes = content?.text !== undefined ? Buffer.from(content.text, 'utf8') : Buffer.from(content?.blob ?? '', 'base64');
      if ('digest' in file) {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- only a skill read needs node:crypto
        const digest = `sha256:${(require('node:crypto') as typeof import('node:crypto')).createHash('sha256').update(bytes).digest('hex')}`;
        if (bytes.length !== file.size || digest !== file.digest) {
          throw new Error(
            `${file.uri} does not match its skill's manifest: ${bytes.length} bytes with ${digest}, listed as ${file.size} bytes with ${file.digest}`,
          );
        }
      }
      files.set(file.uri, bytes);
    }
    return { skill, files };
  }

  /** Every prompt (`prompts/list`, all pages). */
  listPrompts(): Promise<PromptDefinition[]> {
    return this.listAll<PromptDefinition>('prompts/list', 'prompts');
  }

  /** `prompts/get` (prompt arguments are strings on the wire). */
  getPrompt(name: string, args?: Record<string, string>, options?: RequestOptions): Promise<GetPromptResult> {
    return this.typed<GetPromptResult>('prompts/get', args === undefined ? { name } : { name, arguments: args }, options);
  }

  /**
   * `completion/complete`: the suggestions for `argument` of a prompt or a template variable.
   * `context` carries the arguments already filled in (2025-06-18).
   */
  async complete(ref: CompletionReference, argument: { name: string; value: string }, context?: Record<string, string>): Promise<Completion> {
    const params: JsonObject = { ref, argument };
    if (context) params.context = { arguments: context };
    return (await this.request<{ completion: Completion }>('completion/complete', params)).completion;
  }

  /**
   * `logging/setLevel`: only messages at `level` or above are sent from now on. 2026-07-28 has
   * no such request: the level is kept and sent in the `_meta` of every later request
   * (`io.modelcontextprotocol/logLevel`); until it is set, that era's server sends no logs.
   */
  setLogLevel(level: LoggingLevel): Promise<void> {
    return this.driver.setLogLevel(level, this.wire());
  }

  /**
   * Changes the answer to `roots/list` and sends `notifications/roots/list_changed` (not at
   * 2026-07-28, where the server asks for roots within each request that needs them).
   */
  setRoots(roots: Root[]): void {
    this.requests.setRoots(roots);
    this.driver.rootsChanged();
  }

  /** The notifications received so far, in order; all of them or those of one method. */
  notifications<M extends string>(method?: M): Notification<NotificationParams<M>>[] {
    return this.log.list(method) as Notification<NotificationParams<M>>[];
  }

  /** The params of every `notifications/message` received (server logs at the client's level). */
  get logs(): LogMessage[] {
    return this.paramsOf('notifications/message');
  }

  /** The params of every `notifications/progress` received. */
  get progress(): ProgressParams[] {
    return this.paramsOf('notifications/progress');
  }

  /**
   * The first notification of `method` (matching `predicate`) received so far or still to come;
   * rejects after `timeoutMs` (default 1000). Use it for what the server sends later, such as
   * `notifications/tools/list_changed` after `server.addService()`.
   */
  waitForNotification<M extends string>(
    method: M,
    predicate?: (notification: Notification<NotificationParams<M>>) => boolean,
    timeoutMs = 1000,
  ): Promise<Notification<NotificationParams<M>>> {
    return this.log.waitFor(method, predicate as ((n: Notification) => boolean) | undefined, timeoutMs) as Promise<Notification<NotificationParams<M>>>;
  }

  /** Forgets the notifications received so far. */
  clearNotifications(): void {
    this.log.clear();
  }

  /**
   * Ends the connection (requests in flight reject) and, when the server was built for this
   * client, closes the server too.
   */
  async close(): Promise<void> {
    await this.driver.close();
    if (this.settings.ownsServer) await this.server.close();
  }

  /** A typed method's request: the result without what only the era's wire adds. */
  private async typed<T extends object>(method: string, params: JsonObject | undefined, options?: RequestOptions): Promise<T> {
    return this.driver.bare(await this.request(method, params, options)) as T;
  }

  private wire(): DriverRequestOptions {
    return { timeoutMs: this.settings.timeoutMs };
  }

  private paramsOf<M extends 'notifications/message' | 'notifications/progress'>(method: M): NotificationParams<M>[] {
    return this.log.list(method).flatMap((n) => (n.params ? [n.params as NotificationParams<M>] : []));
  }

  private async listAll<T>(method: string, key: string): Promise<T[]> {
    const items: T[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await this.request<JsonObject>(method, cursor === undefined ? undefined : { cursor });
      items.push(...((page[key] ?? []) as T[]));
      cursor = typeof page.nextCursor === 'string' ? page.nextCursor : undefined;
      // A server that hands out a cursor twice would loop forever.
      if (cursor !== undefined && !seen.add(cursor)) throw new Error(`${method} returned the cursor ${cursor} twice`);
    } while (cursor !== undefined);
    return items;
  }
}
