/**
 * The 2026-07-28 conformance fixtures: tools and a prompt that ask the client for input. Written
 * once with `ctx.elicit()`, `ctx.sample()` and `ctx.roots()`: a 2026-07-28 client gets
 * `input_required` results and retries, a legacy client gets real server->client requests.
 * `inputKey` names a question in `inputRequests` where the suite expects a particular key.
 */
import { Context, McpService, Prompt, Tool, TypeMcpServer, type ElicitResult, type JsonObject } from '@typemcp/core';

const NAME_FORM = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const CONFIRM_FORM = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };

const field = (r: ElicitResult<JsonObject>, key: string, fallback = 'unknown') =>
  String((r.action === 'accept' && (r.content[key] as string | number | boolean | string[] | undefined)) || fallback);
const textOf = (content: unknown) => (content as { text?: string } | undefined)?.text ?? 'no response';

/** Served only while toggled on by test_trigger_tool_change. */
@McpService({ deferred: true })
export class TriggeredToolService {
  @Tool({ name: 'test_triggered_tool', description: 'A tool that comes and goes (see test_trigger_tool_change)' })
  triggered() {
    return 'triggered tool called';
  }
}

/** Served only while toggled on by test_trigger_prompt_change. */
@McpService({ deferred: true })
export class DynamicPromptService {
  @Prompt({ name: 'test_dynamic_prompt', title: 'Dynamic Prompt', description: 'A prompt that comes and goes (see test_trigger_prompt_change)' })
  dynamic() {
    return 'dynamic prompt';
  }
}

@McpService()
export class MultiRoundService {
  constructor(private readonly server: TypeMcpServer) {}

  @Tool({ name: 'test_input_required_result_elicitation', description: 'Asks the user for their name, then greets them' })
  async elicitation(ctx: Context) {
    const answer = await ctx.elicit('What is your name?', NAME_FORM, { inputKey: 'user_name' });
    return `Hello, ${field(answer, 'name')}!`;
  }

  @Tool({ name: 'test_input_required_result_sampling', description: "Asks the client's model a question" })
  async sampling(ctx: Context) {
    const result = await ctx.sample('What is the capital of France?', { maxTokens: 100, inputKey: 'capital_question' });
    return `Sampling result: ${textOf(result.content)}`;
  }

  @Tool({ name: 'test_input_required_result_list_roots', description: "Counts the client's roots" })
  async listRoots(ctx: Context) {
    const roots = await ctx.roots({ inputKey: 'client_roots' });
    return `Found ${roots.length} root(s)`;
  }

  @Tool({ name: 'test_input_required_result_request_state', description: 'Asks for a confirmation carried across rounds' })
  async requestState(ctx: Context) {
    const answer = await ctx.elicit('Please confirm', CONFIRM_FORM, { inputKey: 'confirm' });
    return answer.action === 'accept' && answer.content.ok === true ? 'state-ok: requestState validated' : 'not confirmed';
  }

  @Tool({ name: 'test_input_required_result_multiple_inputs', description: 'Asks for a name, a greeting and the roots at once' })
  async multipleInputs(ctx: Context) {
    const [name, greeting, roots] = await Promise.all([
      ctx.elicit('What is your name?', NAME_FORM, { inputKey: 'user_name' }),
      ctx.sample('Generate a greeting', { maxTokens: 50, inputKey: 'greeting' }),
      ctx.roots({ inputKey: 'client_roots' }),
    ]);
    return `Name: ${field(name, 'name')}; Greeting: ${textOf(greeting.content)}; Roots: ${roots.length}`;
  }

  @Tool({ name: 'test_input_required_result_multi_round', description: 'Asks two questions, one after the other' })
  async multiRound(ctx: Context) {
    const name = await ctx.elicit('Step 1: What is your name?', NAME_FORM, { inputKey: 'step1' });
    const color = await ctx.elicit(
      'Step 2: What is your favorite color?',
      { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
      { inputKey: 'step2' },
    );
    return `Multi-round complete for ${field(name, 'name')} who likes ${field(color, 'color')}`;
  }

  @Tool({ name: 'test_input_required_result_tampered_state', description: 'Asks for a confirmation; its sealed request state must not be altered' })
  async tamperedState(ctx: Context) {
    const answer = await ctx.elicit('Please confirm', CONFIRM_FORM, { inputKey: 'confirm' });
    return answer.action === 'accept' ? 'integrity-ok: state verified' : 'not confirmed';
  }

  @Tool({ name: 'test_input_required_result_capabilities', description: 'Asks only for what the client declared it supports' })
  async capabilities(ctx: Context) {
    const asked: Promise<unknown>[] = [];
    const keys: string[] = [];
    if (ctx.supports('elicitation')) {
      keys.push('elicit_input');
      asked.push(ctx.elicit('Any input?', { type: 'object', properties: { value: { type: 'string' } } }, { inputKey: 'elicit_input' }));
    }
    if (ctx.supports('sampling')) {
      keys.push('sample_input');
      asked.push(ctx.sample('Sample request', { maxTokens: 50, inputKey: 'sample_input' }));
    }
    if (!asked.length) return 'No supported capabilities declared';
    await Promise.all(asked);
    return `capabilities-ok: received ${keys.join(', ')}`;
  }

  @Tool({ name: 'test_missing_capability', description: 'Needs the sampling capability; refused without it' })
  async missingCapability(ctx: Context) {
    await ctx.sample('Say anything', { maxTokens: 10 });
    return 'Success';
  }

  @Tool({ name: 'test_streaming_elicitation', description: 'Reports progress, then completes' })
  streaming(ctx: Context) {
    ctx.progress(1, 1, 'streaming');
    return 'Streaming complete';
  }

  @Tool({ name: 'test_logging_tool', description: 'Logs at every level; only requests that chose a log level receive them' })
  logging(ctx: Context) {
    ctx.log.debug('debug message');
    ctx.log.info('info message');
    ctx.log.error('error message');
    return 'Logging evaluated';
  }

  @Tool({ name: 'test_trigger_tool_change', description: 'Adds or removes a tool (tools/list_changed)' })
  triggerToolChange() {
    if (this.server.removeService(TriggeredToolService)) return 'removed test_triggered_tool';
    this.server.addService(TriggeredToolService);
    return 'added test_triggered_tool';
  }

  @Tool({ name: 'test_trigger_prompt_change', description: 'Adds or removes a prompt (prompts/list_changed)' })
  triggerPromptChange() {
    if (this.server.removeService(DynamicPromptService)) return 'removed test_dynamic_prompt';
    this.server.addService(DynamicPromptService);
    return 'added test_dynamic_prompt';
  }

  @Prompt({ name: 'test_input_required_result_prompt', title: 'Prompt Needing Input', description: 'Asks the user for context before building the prompt' })
  async prompt(ctx: Context) {
    const answer = await ctx.elicit(
      'What context should the prompt use?',
      { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
      { inputKey: 'user_context' },
    );
    return `Prompt with context: ${field(answer, 'context', 'none')}`;
  }
}
