/**
 * An interceptor: one audit record per tool, resource or prompt call, through the server's
 * structured logger (`createNotesServer({ logger })`): what was called, by whom, how it ended and
 * how long it took. Never the arguments: a note's body is the user's, not the log's. Without a
 * logger it only calls the method.
 */
import { Injectable, principalId, ToolError, TypeMcpServer, type CallNext, type Interceptor, type InterceptorCall } from '@typemcp/core';

/** Applied to every call by createNotesServer(); built by the DI container, which injects the server. @publicApi */
@Injectable()
export class AuditInterceptor implements Interceptor {
  constructor(private readonly server: TypeMcpServer) {}

  async intercept(call: InterceptorCall, next: CallNext): Promise<unknown> {
    const logger = this.server.logger;
    if (!logger) return next();
    const started = performance.now();
    const record = (outcome: string) => ({
      kind: call.kind,
      name: call.uri ?? call.name,
      principalId: principalId(call.principal),
      outcome,
      ms: Math.round((performance.now() - started) * 100) / 100,
    });
    try {
      const result = await next();
      logger.info(record('ok'), 'audit');
      return result;
    } catch (error) {
      // A ToolError is an answer the model reads (a bad id, no sampling); anything else is a failure.
      if (error instanceof ToolError) logger.info(record('tool error'), 'audit');
      else logger.warn(record('failed'), 'audit');
      throw error;
    }
  }
}
