/**
 * The request context a tool handler runs with once its call became a task. Same API as any
 * `RequestContext`, so the handler is unchanged; what differs is where things go:
 * - `signal` aborts on `tasks/cancel` (or expiry, or server shutdown), not when the request ends;
 * - `progress`: 2025-11-25, `notifications/progress` with the original token (valid for the
 *   task's lifetime); 2026-07-28, the task's `statusMessage` (the extension has no progress);
 * - `log`: 2025-11-25 session log; 2026-07-28 none (the extension does not carry logs);
 * - `elicit` / `sample` / `roots`: the task moves to `input_required` and the same running
 *   handler continues when the answer arrives (`tasks/update`, or a side-channel request on
 *   `tasks/result` for 2025-11-25).
 */
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import type { JsonObject } from '../../jsonrpc/message.js';
import { McpError } from '../../jsonrpc/protocol.error.js';
import type { LoggingLevel } from '../../mcp-types.js';
import type { OutgoingRequestOptions } from '../contracts.js';
import type { InputMethod } from '../input-round.js';
import { missingCapability } from '../modern-request.js';
import { RequestContext } from '../request-context.js';
import { shapeProgress } from '../revision-shaper.js';
import type { LiveTask } from './live-task.js';

/** What a task context needs from the engine running it. */
export interface TaskAsker {
  /** Parks a question for the client on the task; settles with the client's answer. */
  ask<T>(live: LiveTask, method: InputMethod, params: JsonObject | undefined, key?: string): Promise<T>;
  /** A 2026-07-28 progress report: becomes the task's status message. */
  statusMessage(live: LiveTask, message: string): void;
}

/** @publicApi */
export class TaskContext extends RequestContext {
  private lastTaskProgress = -Infinity;

  /** @internal Built by the task engine for the handler's background run. */
  constructor(
    private readonly engine: TaskAsker,
    /** @internal */
    readonly live: LiveTask,
    origin: RequestContext,
  ) {
    super(origin.session, origin.id, origin.method, origin.progressToken, origin.modern, undefined);
  }

  /** The id of the task this handler runs as. */
  get taskId(): string {
    return this.live.record.taskId;
  }

  /** Aborted by `tasks/cancel`, when the task expires, or when the server shuts down. */
  override get signal(): AbortSignal {
    return this.live.controller.signal;
  }

  override progress(progress: number, total?: number, message?: string): boolean {
    if (this.live.ended || !(progress > this.lastTaskProgress)) return false;
    this.lastTaskProgress = progress;
    if (this.modern) {
      this.engine.statusMessage(this.live, message ?? (total === undefined ? `${progress}` : `${progress}/${total}`));
      return true;
    }
    if (this.progressToken === undefined) return false;
    const params: JsonObject = { progressToken: this.progressToken, progress, _meta: this.live.relatedMeta };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    this.session.notify('notifications/progress', shapeProgress(params, this.features));
    return true;
  }

  override log(level: LoggingLevel, data: unknown, logger?: string): void {
    if (this.modern || this.live.ended) return;
    this.session.log(level, data, logger);
  }

  override supports(feature: 'sampling' | 'elicitation' | 'roots'): boolean {
    if (!this.modern) return super.supports(feature);
    const value = this.clientCapabilities[feature];
    return value !== undefined && value !== null;
  }

  /** 2025-11-25: a request to the client about this task (sent alongside the client's `tasks/result`). */
  override request<T = JsonObject>(method: string, params?: JsonObject, options?: OutgoingRequestOptions): Promise<T> {
    if (this.modern || !(method in ASKABLE)) {
      return Promise.reject(new McpError(ErrorCode.InvalidRequest, `A task cannot send ${method} to the client`));
    }
    return this.engine.ask<T>(this.live, method as InputMethod, params, options?.inputKey);
  }

  override sample<T = JsonObject>(params: JsonObject, options?: OutgoingRequestOptions): Promise<T> {
    if (!this.modern) return super.sample<T>(params, options);
    return this.askModern<T>('sampling/createMessage', 'sampling', params, options?.inputKey);
  }

  override elicit<T = JsonObject>(params: JsonObject, options?: OutgoingRequestOptions): Promise<T> {
    if (!this.modern) return super.elicit<T>(params, options);
    if (params.mode === 'url' && !this.clientCapabilities.elicitation?.url) {
      return Promise.reject(missingCapability({ elicitation: { url: {} } }, 'URL-mode elicitation needs "elicitation.url"'));
    }
    return this.askModern<T>('elicitation/create', 'elicitation', params.mode === undefined ? { mode: 'form', ...params } : params, options?.inputKey);
  }

  override roots<T = JsonObject>(options?: OutgoingRequestOptions): Promise<T> {
    if (!this.modern) return super.roots<T>(options);
    return this.askModern<T>('roots/list', 'roots', undefined, options?.inputKey);
  }

  private askModern<T>(method: InputMethod, capability: 'sampling' | 'elicitation' | 'roots', params: JsonObject | undefined, key?: string): Promise<T> {
    if (!this.supports(capability)) return Promise.reject(missingCapability({ [capability]: {} }, `${method} needs the "${capability}" capability`));
    return this.engine.ask<T>(this.live, method, params, key);
  }
}

const ASKABLE: Readonly<Record<string, true>> = { 'elicitation/create': true, 'sampling/createMessage': true, 'roots/list': true };
