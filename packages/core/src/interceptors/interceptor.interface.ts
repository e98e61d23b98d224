/**
 * The contract of an interceptor: code that wraps the call of a tool, resource or prompt method,
 * in the style of NestJS interceptors. It sees the validated input, the principal and the
 * context, and may call the method (`next()`), skip it, or map its result or error.
 */
import type { RequestContext } from '@typemcp/protocol';
import type { Context } from '../context/context.js';
import type { ClassType } from '../metadata/metadata-args.interface.js';

/** What an interceptor knows about the call it wraps. @publicApi */
export interface InterceptorCall {
  /** The kind of feature called. */
  readonly kind: 'tool' | 'resource' | 'prompt';
  /** The tool's or prompt's name, or the resource's name. */
  readonly name: string;
  /** The URI read (resources only). */
  readonly uri?: string;
  /** The `@McpService()` class. */
  readonly service: ClassType;
  /** The name of the method called. */
  readonly method: string;
  /**
   * The validated input: the DTO instance (a resource's from its URI variables); a tool's
   * arguments as sent when it has no input DTO or a raw `inputSchema`; undefined for a resource
   * or prompt without input.
   */
  readonly input: unknown;
  /** Who the client is, as the transport's authentication established it (undefined on stdio). */
  readonly principal: unknown;
  /** The request's Context (signal, progress, logging, questions to the client). */
  readonly context: Context;
  /** The engine's request context. */
  readonly request: RequestContext;
}

/** Calls the next interceptor, or the method itself; resolves with what the method returned. @publicApi */
export type CallNext = () => Promise<unknown>;

/**
 * Wraps the call of a tool, resource or prompt. Return `next()` (or what it resolves with, mapped)
 * to proceed, or any value without calling `next` to short-circuit; throw to fail the call (a
 * `ToolError` becomes a tool's `isError` result). What it returns is normalised like a method's
 * return value.
 * @publicApi
 */
export interface Interceptor {
  /** Wraps one call: `next()` runs the rest of the chain and the method. */
  intercept(call: InterceptorCall, next: CallNext): unknown;
}

/** An interceptor class (built by the DI container, with its dependencies) or an instance. @publicApi */
export type InterceptorRef = ClassType<Interceptor> | Interceptor;
