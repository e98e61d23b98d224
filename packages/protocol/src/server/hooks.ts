/**
 * Engine hooks: observers of each request a method handler answers (with its result or error and
 * duration), of client notifications, of the errors the server reports, and of sessions opening
 * and closing. They run in registration order; one that throws (or rejects) is reported and never
 * changes the request. With no hook registered the server keeps its bare method table, so the
 * request path is exactly the one without hooks.
 */
import type { JsonObject } from '../jsonrpc/message.js';
import { isThenable } from '../util/is-thenable.js';
import type { SessionContract } from './contracts.js';
import type { MethodHandler } from './handlers/method-handler.type.js';
import type { RequestContext } from './request-context.js';

/** A request about to be handled (`onRequest`). @publicApi */
export interface RequestHookEvent {
  /** The JSON-RPC method, e.g. `tools/call`. */
  readonly method: string;
  /** The request's params (an empty object when it had none). */
  readonly params: JsonObject;
  /** The request's context: id, session, principal, signal. */
  readonly ctx: RequestContext;
}

/** A request its handler has answered (`onResponse`): `ok` with `result`, or the thrown `error`. @publicApi */
export interface ResponseHookEvent extends RequestHookEvent {
  /** True when the handler returned a result, false when it threw or rejected. */
  readonly ok: boolean;
  /** The handler's result (before the 2026-07-28 decoration of the answer). */
  readonly result?: unknown;
  /** What the handler threw: an McpError (answered as such) or another error (masked as -32603). */
  readonly error?: unknown;
  /** Milliseconds from the handler's call to its result or error. */
  readonly durationMs: number;
}

/** A notification from the client, handled or not (`onNotification`). @publicApi */
export interface NotificationHookEvent {
  /** The notification's method, e.g. `notifications/cancelled`. */
  readonly method: string;
  /** Its params (an empty object when it had none). */
  readonly params: JsonObject;
  /** The session it arrived on. */
  readonly session: SessionContract;
}

/**
 * An internal error the server reports (`onError`): exactly what the `onError` option receives
 * (a masked handler failure, a tool's exception, a notification handler's failure, a hook that
 * threw), with the request's context when there is one.
 * @publicApi
 */
export interface ErrorHookEvent {
  /** What was thrown. */
  readonly error: unknown;
  /** Where it happened, e.g. `tools/call echo (request 3)` or `hook onRequest`. */
  readonly where: string;
  /** The request it happened in, when there is one. */
  readonly ctx?: RequestContext;
}

/** The hook functions by name. A returned promise is not awaited; its rejection is reported. @publicApi */
export interface HookHandlers {
  /** Before a method handler runs. */
  onRequest: (event: RequestHookEvent) => unknown;
  /** When a method handler returned or threw, with the duration. */
  onResponse: (event: ResponseHookEvent) => unknown;
  /** For every notification from the client, handled or not. */
  onNotification: (event: NotificationHookEvent) => unknown;
  /** For every internal error the server reports. */
  onError: (event: ErrorHookEvent) => unknown;
  /** When a transport connects a session. */
  onSessionOpen: (session: SessionContract) => unknown;
  /** When a session has closed. */
  onSessionClose: (session: SessionContract) => unknown;
}

/** The name of a hook. @publicApi */
export type HookName = keyof HookHandlers;

/** `ProtocolServerOptions.hooks`: one function or a list per hook. @publicApi */
export type HooksOption = { [K in HookName]?: HookHandlers[K] | readonly HookHandlers[K][] };

/** The hook names, in a fixed order (for option checks). */
export const HOOK_NAMES: readonly HookName[] = ['onRequest', 'onResponse', 'onNotification', 'onError', 'onSessionOpen', 'onSessionClose'];

/** Where a hook's own failure goes: the server's `onError` option (and the `onError` hooks). */
type FailureReporter = (error: unknown, where: string, fromErrorHook: boolean) => void;

/** The registered hooks of one server, and how they run. */
export class Hooks {
  private readonly lists: { [K in HookName]: HookHandlers[K][] } = {
    onRequest: [],
    onResponse: [],
    onNotification: [],
    onError: [],
    onSessionOpen: [],
    onSessionClose: [],
  };

  constructor(private readonly reportFailure: FailureReporter) {}

  /** Adds `fn` after the hooks already registered under `name`. */
  add<K extends HookName>(name: K, fn: HookHandlers[K]): void {
    this.lists[name].push(fn);
  }

  /** Runs every hook registered under `name` with `event`; none can throw out of here. */
  emit<K extends HookName>(name: K, event: Parameters<HookHandlers[K]>[0]): void {
    const list = this.lists[name] as ((event: unknown) => unknown)[];
    for (let i = 0; i < list.length; i++) {
      try {
        const out = list[i](event);
        if (isThenable(out)) out.then(undefined, (error: unknown) => this.failed(name, error));
      } catch (error) {
        this.failed(name, error);
      }
    }
  }

  private failed(name: HookName, error: unknown): void {
    this.reportFailure(error, `hook ${name}`, name === 'onError');
  }
}

/** `handler`, run between `onRequest` and `onResponse`; synchronous when `handler` is. */
export function hookedHandler(handler: MethodHandler, hooks: Hooks): MethodHandler {
  return (params, ctx) => {
    const method = ctx.method;
    hooks.emit('onRequest', { method, params, ctx });
    const start = performance.now();
    const answered = (ok: boolean, result: unknown, error: unknown) =>
      hooks.emit('onResponse', { method, params, ctx, ok, result, error, durationMs: performance.now() - start });
    let out: unknown;
    try {
      out = handler(params, ctx);
    } catch (error) {
      answered(false, undefined, error);
      throw error;
    }
    if (!isThenable(out)) {
      answered(true, out, undefined);
      return out;
    }
    return Promise.resolve(out).then(
      (result) => {
        answered(true, result, undefined);
        return result;
      },
      (error: unknown) => {
        answered(false, undefined, error);
        throw error;
      },
    );
  };
}
