/**
 * The task fixtures of the conformance suite (io.modelcontextprotocol/tasks, SEP-2663, and the
 * 2025-11-25 experimental tasks). Ordinary tools: `task` in `@Tool` is all that makes them
 * long-running. The same methods answer a plain call when the client cannot take a task.
 */
import { Context, McpError, ErrorCode, McpService, Tool, ToolError } from '@typemcp/core';
import { ConfirmDeleteInput, GreetInput, SlowComputeInput } from '../dto/tasks.dto.js';
import { sleep } from '../fixtures.js';

const CONFIRM_FORM = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] };
const NAME_FORM = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

@McpService()
export class TasksService {
  @Tool({ name: 'greet', description: 'Greets someone at once (never a task)' })
  greet(input: GreetInput) {
    return `Hello, ${input.name}!`;
  }

  @Tool({
    name: 'slow_compute',
    description: 'Computes for `seconds` seconds, reporting progress each second; a task when the client can take one',
    task: 'optional',
  })
  async slowCompute(input: SlowComputeInput, ctx: Context) {
    const label = input.label ?? 'job';
    for (let elapsed = 0; elapsed < input.seconds; elapsed++) {
      ctx.progress(elapsed, input.seconds, `${label}: ${elapsed}/${input.seconds} s`);
      await sleep(Math.min(1, input.seconds - elapsed) * 1000, ctx.signal);
    }
    ctx.log.info(`${label} computed`);
    return `Computed ${label} in ${input.seconds} s`;
  }

  @Tool({ name: 'failing_job', description: 'Runs about a second, then reports a tool error; only as a task', task: 'required' })
  async failingJob(ctx: Context) {
    await sleep(1000, ctx.signal);
    throw new ToolError('The job failed: its input was rejected');
  }

  @Tool({ name: 'protocol_error_job', description: 'Ends with a JSON-RPC error (a failed task)', task: 'optional' })
  async protocolErrorJob(ctx: Context) {
    await sleep(100, ctx.signal);
    throw new McpError(ErrorCode.InternalError, 'The job crashed');
  }

  @Tool({ name: 'confirm_delete', description: 'Asks the user to confirm deleting a file, then reports the answer', task: 'optional' })
  async confirmDelete(input: ConfirmDeleteInput, ctx: Context) {
    const answer = await ctx.elicit(`Delete ${input.filename}?`, CONFIRM_FORM);
    const confirmed = answer.action === 'accept' && answer.content.confirm === true;
    return confirmed ? `Deleted ${input.filename}` : `Kept ${input.filename}`;
  }

  @Tool({ name: 'multi_input', description: 'Asks two questions at once and reports both answers', task: 'optional' })
  async multiInput(ctx: Context) {
    const [name, confirm] = await Promise.all([ctx.elicit('Your name?', NAME_FORM), ctx.elicit('Proceed?', CONFIRM_FORM)]);
    const who = name.action === 'accept' ? String(name.content.name) : 'nobody';
    const go = confirm.action === 'accept' && confirm.content.confirm === true;
    return `${who} ${go ? 'proceeds' : 'stops'}`;
  }
}
