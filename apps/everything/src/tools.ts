/** The tools of the everything server: the conformance suite's fixtures plus `add` (benchmarks) and a few extras. */
import { ToolError, type CallToolResult, type JsonObject, type ProtocolServer } from '@typemcp/protocol';
import { argsChecker } from './args.js';
import { NO_INPUT, sleep, TEST_AUDIO_BASE64, TEST_IMAGE_BASE64 } from './fixtures.js';

const addArgs = argsChecker<{ a: number; b: number }>({ a: 'number', b: 'number' });
const promptArgs = argsChecker<{ prompt: string }>({ prompt: 'string' });
const messageArgs = argsChecker<{ message: string }>({ message: 'string' });
const durationMsArgs = argsChecker<{ durationMs?: number }>({ durationMs: 'integer?' });

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
  },
  properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
  additionalProperties: false,
} as const;

const ELICIT_DEFAULTS_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
  required: [],
};

const ELICIT_ENUMS_SCHEMA = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      description: 'Select one option with titles',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      description: 'Select one option (legacy)',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array',
      description: 'Select multiple options',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array',
      description: 'Select multiple options with titles',
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
  required: [],
};

interface ElicitResult {
  action: string;
  content?: JsonObject;
}

const elicitSummary = (r: ElicitResult) => `action=${r.action}, content=${JSON.stringify(r.content ?? {})}`;

/** Registers every tool on `server`. */
export function registerTools(server: ProtocolServer): void {
  const { registry } = server;

  registry.addTool(
    {
      name: 'add',
      title: 'Add two numbers',
      description: 'Adds two numbers and returns the sum as text',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number', description: 'First addend' }, b: { type: 'number', description: 'Second addend' } },
        required: ['a', 'b'],
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      icons: [{ src: 'data:image/png;base64,' + TEST_IMAGE_BASE64, mimeType: 'image/png', sizes: ['1x1'] }],
    },
    (args) => {
      const { a, b } = addArgs(args);
      return text(String(a + b));
    },
  );

  registry.addTool({ name: 'test_simple_text', description: 'Tests simple text content response', inputSchema: NO_INPUT }, () =>
    text('This is a simple text response for testing.'),
  );

  registry.addTool({ name: 'test_image_content', description: 'Tests image content response', inputSchema: NO_INPUT }, () => ({
    content: [{ type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' }],
  }));

  registry.addTool({ name: 'test_audio_content', description: 'Tests audio content response', inputSchema: NO_INPUT }, () => ({
    content: [{ type: 'audio', data: TEST_AUDIO_BASE64, mimeType: 'audio/wav' }],
  }));

  registry.addTool(
    { name: 'test_embedded_resource', description: 'Tests embedded resource content response', inputSchema: NO_INPUT },
    () => ({
      content: [
        {
          type: 'resource',
          resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
        },
      ],
    }),
  );

  registry.addTool(
    {
      name: 'test_multiple_content_types',
      description: 'Tests response with multiple content types (text, image, resource)',
      inputSchema: NO_INPUT,
    },
    () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  );

  registry.addTool(
    { name: 'test_tool_with_logging', description: 'Tests tool that emits log messages during execution', inputSchema: NO_INPUT },
    async (_args, ctx) => {
      ctx.log('info', 'Tool execution started', 'everything');
      await sleep(50, ctx.signal);
      ctx.log('info', 'Tool processing data', 'everything');
      await sleep(50, ctx.signal);
      ctx.log('info', 'Tool execution completed', 'everything');
      ctx.log('debug', 'Debug detail: only sent when the client asked for debug', 'everything');
      return text('Tool with logging executed successfully');
    },
  );

  registry.addTool(
    { name: 'test_tool_with_progress', description: 'Tests tool that reports progress notifications', inputSchema: NO_INPUT },
    async (_args, ctx) => {
      for (const step of [0, 50, 100]) {
        ctx.progress(step, 100, `Completed step ${step} of 100`);
        if (step < 100) await sleep(50, ctx.signal);
      }
      return text(String(ctx.progressToken ?? 'no progress token'));
    },
  );

  registry.addTool({ name: 'test_error_handling', description: 'Tests error response handling', inputSchema: NO_INPUT }, () => {
    throw new ToolError('This tool intentionally returns an error for testing');
  });

  registry.addTool(
    {
      name: 'test_reconnection',
      description: 'Tests SSE stream disconnection and client reconnection (SEP-1699); on stdio it simply completes',
      inputSchema: NO_INPUT,
    },
    async (_args, ctx) => {
      await sleep(100, ctx.signal);
      return text('Reconnection test completed successfully.');
    },
  );

  registry.addTool(
    {
      name: 'test_sampling',
      description: 'Tests server-initiated sampling (LLM completion request)',
      inputSchema: {
        type: 'object',
        properties: { prompt: { type: 'string', description: 'The prompt to send to the LLM' } },
        required: ['prompt'],
      },
    },
    async (args, ctx) => {
      const { prompt } = promptArgs(args);
      const result = await ctx.sample<{ content?: { type: string; text?: string } }>({
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: 100,
      });
      return text(`LLM response: ${result.content?.text ?? 'No response'}`);
    },
  );

  registry.addTool(
    {
      name: 'test_elicitation',
      description: 'Tests server-initiated elicitation (user input request)',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string', description: 'The message to show the user' } },
        required: ['message'],
      },
    },
    async (args, ctx) => {
      const { message } = messageArgs(args);
      const result = await ctx.elicit<ElicitResult>({
        mode: 'form',
        message,
        requestedSchema: {
          type: 'object',
          properties: { response: { type: 'string', description: "User's response" } },
          required: ['response'],
        },
      });
      return text(`User response: ${elicitSummary(result)}`);
    },
  );

  registry.addTool(
    { name: 'test_elicitation_sep1034_defaults', description: 'Tests elicitation with default values per SEP-1034', inputSchema: NO_INPUT },
    async (_args, ctx) => {
      const result = await ctx.elicit<ElicitResult>({
        mode: 'form',
        message: 'Please review and update the form fields with defaults',
        requestedSchema: ELICIT_DEFAULTS_SCHEMA,
      });
      return text(`Elicitation completed: ${elicitSummary(result)}`);
    },
  );

  registry.addTool(
    {
      name: 'test_elicitation_sep1330_enums',
      description: 'Tests elicitation with enum schema improvements per SEP-1330',
      inputSchema: NO_INPUT,
    },
    async (_args, ctx) => {
      const result = await ctx.elicit<ElicitResult>({
        mode: 'form',
        message: 'Please select options from the enum fields',
        requestedSchema: ELICIT_ENUMS_SCHEMA,
      });
      return text(`Elicitation completed: ${elicitSummary(result)}`);
    },
  );

  registry.addTool(
    {
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)',
      inputSchema: JSON_SCHEMA_2020_12,
    },
    (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
  );

  registry.addTool(
    {
      name: 'test_structured_output',
      title: 'Structured output',
      description: 'Returns structured content matching its output schema (also as JSON text)',
      inputSchema: NO_INPUT,
      outputSchema: {
        type: 'object',
        properties: { temperature: { type: 'number' }, conditions: { type: 'string' } },
        required: ['temperature', 'conditions'],
      },
    },
    () => {
      const structuredContent = { temperature: 22.5, conditions: 'sunny' };
      return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
    },
  );

  registry.addTool(
    { name: 'test_resource_link', description: 'Returns a link to the static text resource', inputSchema: NO_INPUT },
    () => ({
      content: [
        {
          type: 'resource_link',
          uri: 'test://static-text',
          name: 'static-text',
          title: 'Static Text Resource',
          description: 'A static text resource for testing',
          mimeType: 'text/plain',
        },
      ],
    }),
  );

  registry.addTool(
    { name: 'test_list_roots', description: "Asks the client for its roots and returns them as JSON", inputSchema: NO_INPUT },
    async (_args, ctx) => text(JSON.stringify(await ctx.roots())),
  );

  registry.addTool(
    {
      name: 'test_slow_operation',
      description: 'Waits durationMs (default 10 000), reporting progress every 100 ms; stops early when cancelled',
      inputSchema: {
        type: 'object',
        properties: { durationMs: { type: 'integer', minimum: 0, maximum: 60000 } },
      },
    },
    async (args, ctx) => {
      const { durationMs = 10_000 } = durationMsArgs(args);
      if (durationMs < 0 || durationMs > 60_000) throw new ToolError('"durationMs" must be between 0 and 60000');
      for (let elapsed = 0; elapsed < durationMs; elapsed += 100) {
        ctx.progress(elapsed, durationMs);
        await sleep(Math.min(100, durationMs - elapsed), ctx.signal);
      }
      return text(`Waited ${durationMs} ms`);
    },
  );

  const dynamic = { name: 'test_dynamic_tool', description: 'A tool that comes and goes (see test_toggle_dynamic_tool)', inputSchema: NO_INPUT };
  registry.addTool(
    { name: 'test_toggle_dynamic_tool', description: 'Adds or removes test_dynamic_tool (sends tools/list_changed)', inputSchema: NO_INPUT },
    () => {
      if (registry.removeTool(dynamic.name)) return text('removed test_dynamic_tool');
      registry.addTool(dynamic, () => text('dynamic tool called'));
      return text('added test_dynamic_tool');
    },
  );
}
