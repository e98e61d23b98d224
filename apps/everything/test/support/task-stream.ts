/** A tool called through the SDK 1.x experimental tasks client, its stream collected. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject } from '../../../../test/support/spec-schemas';

/** Every message of a callToolStream run (`status:<status>` for status messages), the created task's id and the final message. */
export async function streamTool(client: Client, name: string, args: JsonObject, timeout: number, onprogress?: (p: Progress) => void) {
  const seen: string[] = [];
  let taskId: string | undefined;
  let last: { type: string; result?: unknown; error?: unknown } | undefined;
  for await (const message of client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, { timeout, onprogress })) {
    seen.push(message.type === 'taskStatus' ? `status:${message.task.status}` : message.type);
    if (message.type === 'taskCreated') taskId = message.task.taskId;
    last = message;
  }
  return { seen, taskId, last };
}
