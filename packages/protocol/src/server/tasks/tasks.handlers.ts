/**
 * tasks/get, tasks/update, tasks/cancel (2026-07-28 extension) and tasks/get, tasks/result,
 * tasks/list, tasks/cancel (2025-11-25). Which exist depends on the request: a 2026-07-28
 * request must declare the extension (-32021 otherwise) and has no tasks/result or tasks/list
 * (-32601); a legacy session has them from 2025-11-25 on, without tasks/update.
 */
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { isJsonObject, type JsonObject } from '../../jsonrpc/message.js';
import { McpError } from '../../jsonrpc/protocol.error.js';
import type { MethodTable } from '../handlers/method-handler.type.js';
import { missingCapability } from '../modern-request.js';
import { requireString } from '../params.js';
import type { RequestContext } from '../request-context.js';
import { declaresTasks, TASKS_EXTENSION, type TaskEngine } from './task-engine.js';

type Era = 'legacy' | 'modern';

const MODERN_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);
const LEGACY_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel']);

/** Refuses a tasks method the request's era does not have; resolves its era otherwise. */
function gate(ctx: RequestContext, method: string): Era {
  if (ctx.modern) {
    if (!MODERN_METHODS.has(method)) throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method} (not part of the ${TASKS_EXTENSION} extension)`);
    if (!declaresTasks(ctx.clientCapabilities))
      throw missingCapability({ extensions: { [TASKS_EXTENSION]: {} } }, `${method} needs the ${TASKS_EXTENSION} extension`);
    return 'modern';
  }
  if (!ctx.features.legacyTasks || !LEGACY_METHODS.has(method)) {
    throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method} (not part of protocol revision ${ctx.features.revision})`);
  }
  return 'legacy';
}

export function taskHandlers(tasks: () => TaskEngine): MethodTable {
  return {
    'tasks/get'(params, ctx) {
      gate(ctx, 'tasks/get');
      return tasks().get(ctx, requireString(params, 'taskId', 'tasks/get'));
    },
    'tasks/update'(params, ctx) {
      gate(ctx, 'tasks/update');
      const taskId = requireString(params, 'taskId', 'tasks/update');
      const responses = params.inputResponses;
      if (!isJsonObject(responses)) throw new McpError(ErrorCode.InvalidParams, 'Invalid params: tasks/update requires "inputResponses" to be an object');
      return tasks().update(ctx, taskId, responses);
    },
    'tasks/cancel'(params, ctx) {
      gate(ctx, 'tasks/cancel');
      return tasks().cancel(ctx, requireString(params, 'taskId', 'tasks/cancel'));
    },
    'tasks/result'(params, ctx) {
      gate(ctx, 'tasks/result');
      return tasks().result(ctx, requireString(params, 'taskId', 'tasks/result'));
    },
    'tasks/list'(params: JsonObject, ctx) {
      gate(ctx, 'tasks/list');
      return tasks().list(ctx, params.cursor);
    },
  };
}
