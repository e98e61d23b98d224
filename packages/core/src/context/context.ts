/**
 * What a tool, resource or prompt method receives when it declares a parameter of type
 * `Context`: the request's signal, progress, logging, the client's identity and capabilities,
 * the negotiated revision, and questions to the client (elicit, sample, roots).
 */
import {
  ErrorCode,
  LOGGING_LEVELS,
  McpError,
  ToolError,
  type ClientCapabilities,
  type ContentBlock,
  type Implementation,
  type JsonObject,
  type LoggingLevel,
  type OutgoingRequestOptions,
  type RequestContext,
  type UserState,
  type UserStateSlot,
} from '@typemcp/protocol';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import type { DtoValidator } from '../pipeline/dto-validator.js';

/** Sends `notifications/message` at one level; filtered by the client's `logging/setLevel`. */
export type LogMethod = (data: unknown, logger?: string) => void;

/** One method per syslog level. */
export type ContextLogger = Record<LoggingLevel, LogMethod>;

/** The answer to {@link Context.elicit}. */
export type ElicitResult<T> = { action: 'accept'; content: T } | { action: 'decline' } | { action: 'cancel' };

/** Options of {@link Context.sample}. */
export interface SampleOptions extends OutgoingRequestOptions {
  maxTokens?: number;
  systemPrompt?: string;
  temperature?: number;
}

/** What the client's model answered; `content` is one block (or, from 2025-11-25, possibly several). */
export interface SampleResult extends JsonObject {
  role: 'user' | 'assistant';
  content: ContentBlock | ContentBlock[];
  model: string;
  stopReason?: string;
}

/** A client root. */
export interface Root {
  uri: string;
  name?: string;
}

/**
 * Elicitation forms take flat properties with one primitive `type`: a nullable DTO field's
 * `anyOf: [T, null]` (or a `[T, 'null']` type a `@JSONSchema()` wrote) becomes plain T; not
 * answering is how a user leaves it empty.
 */
function elicitationForm(schema: JsonObject): JsonObject {
  const properties = Object.fromEntries(
    Object.entries((schema.properties ?? {}) as Record<string, JsonObject>).map(([name, p]) => {
      if (Array.isArray(p.type)) return [name, { ...p, type: (p.type as string[]).find((t) => t !== 'null') }];
      if (Array.isArray(p.anyOf)) {
        const rest = (p.anyOf as JsonObject[]).filter((alt) => alt.type !== 'null');
        if (rest.length === 1) {
          const { anyOf: _anyOf, ...own } = p;
          return [name, { ...own, ...rest[0] }];
        }
      }
      return [name, p];
    }),
  );
  // An elicitation form is a flat object of primitive fields and nothing else (no
  // `additionalProperties`, no `$defs`): the answer is still checked against the full schema.
  return { type: 'object', properties, ...(schema.required ? { required: schema.required } : {}) };
}

/** @publicApi */
export class Context {
  private logger?: ContextLogger;

  /** @internal Built by TypeMCP for each request. */
  constructor(
    /** The engine's request context (advanced use). */
    readonly request: RequestContext,
    private readonly validator: DtoValidator,
  ) {}

  /** Aborted when the client cancels the request or the connection closes. */
  get signal(): AbortSignal {
    return this.request.signal;
  }

  /** The JSON-RPC id of the request. */
  get requestId(): string | number {
    return this.request.id;
  }

  /** The protocol revision of the request, e.g. `2025-06-18` (negotiated) or `2026-07-28` (per request). */
  get revision(): string {
    return this.request.features.revision;
  }

  /** The client's name and version: from `initialize`, or from this request's `_meta` (2026-07-28). */
  get clientInfo(): Implementation | undefined {
    return this.request.clientInfo;
  }

  /** Who the client is, as the HTTP auth hook established it (undefined on stdio). */
  get principal(): unknown {
    return this.request.principal;
  }

  /** The capabilities the client declared. */
  get clientCapabilities(): ClientCapabilities {
    return this.request.clientCapabilities;
  }

  /**
   * This user's value of a slot of per-user state (`userState<T>(name)` from `@typemcp/core`):
   * `await ctx.userState(cart).update((c) => ...)`. The user is the authenticated principal (the
   * same value on every instance, in both eras), or without authentication the legacy session.
   */
  userState<T>(slot: UserStateSlot<T>): UserState<T> {
    return this.request.userState(slot);
  }

  /**
   * The client's settings for extension `id` when it declared the extension, undefined when it
   * did not: decided per request (a 2026-07-28 request's own capabilities, else the session's),
   * so a tool can answer each client as it can take it, e.g. a text fallback without MCP Apps.
   */
  clientExtension(id: string): JsonObject | undefined {
    return this.request.clientExtension(id);
  }

  /**
   * True when the client can be asked for `sampling`, `elicitation` or `roots`: it declared the
   * capability and its protocol revision has the feature. Check before offering a fallback.
   */
  supports(feature: 'sampling' | 'elicitation' | 'roots'): boolean {
    return this.request.supports(feature);
  }

  /** Logs to the client (`notifications/message`), e.g. `ctx.log.info('Indexed 20 notes')`. */
  get log(): ContextLogger {
    if (!this.logger) {
      const logger = {} as ContextLogger;
      for (const level of LOGGING_LEVELS) logger[level] = (data, name) => this.request.log(level, data, name);
      this.logger = logger;
    }
    return this.logger;
  }

  /**
   * Reports progress when the client asked for it (a `progressToken`); values must increase.
   * Returns false when nothing was sent.
   */
  progress(progress: number, total?: number, message?: string): boolean {
    return this.request.progress(progress, total, message);
  }

  /**
   * Asks the user for input. Pass a DTO class (its schema becomes the form; an accepted answer
   * is validated and returned as an instance) or a raw `requestedSchema` object.
   */
  async elicit<T = JsonObject>(message: string, form: ClassType<T> | JsonObject, options?: OutgoingRequestOptions): Promise<ElicitResult<T>> {
    const dto = typeof form === 'function' ? (form as ClassType<T>) : undefined;
    const requestedSchema = dto ? elicitationForm(this.validator.schemas.forClass(dto)) : (form as JsonObject);
    const answer = await this.request.elicit<{ action: string; content?: JsonObject }>({ mode: 'form', message, requestedSchema }, options);
    if (answer.action !== 'accept') return { action: answer.action === 'decline' ? 'decline' : 'cancel' };
    if (!dto) return { action: 'accept', content: (answer.content ?? {}) as T };
    const checked = await this.validator.answer(dto, answer.content ?? {});
    if (!checked.ok) throw new ToolError(`The answer to "${message}" is invalid: ${checked.problems.join('; ')}`);
    return { action: 'accept', content: checked.value };
  }

  /**
   * Asks the client's model (`sampling/createMessage`). A string becomes one user message; the
   * options add `maxTokens` (default 1024), `systemPrompt` and `temperature`. Pass full params
   * as an object for anything else.
   */
  sample(request: string | JsonObject, options: SampleOptions = {}): Promise<SampleResult> {
    const { maxTokens = 1024, systemPrompt, temperature, ...rest } = options;
    const params: JsonObject = typeof request === 'string' ? { messages: [{ role: 'user', content: { type: 'text', text: request } }], maxTokens } : request;
    if (systemPrompt !== undefined) params.systemPrompt = systemPrompt;
    if (temperature !== undefined) params.temperature = temperature;
    return this.request.sample<SampleResult>(params, rest);
  }

  /** The client's roots (`roots/list`). */
  async roots(options?: OutgoingRequestOptions): Promise<Root[]> {
    const result = await this.request.roots<{ roots?: unknown }>(options);
    if (!Array.isArray(result.roots)) throw new McpError(ErrorCode.InvalidParams, 'The client answered roots/list without a roots array');
    return result.roots as Root[];
  }
}
