/** The conformance suite's content, logging, progress and error tools. */
import { audio, Context, embeddedResource, image, McpService, Tool, ToolError } from '@typemcp/core';
import type * as HttpPackage from '@typemcp/http';
import { JSON_SCHEMA_2020_12, sleep, TEST_AUDIO_BASE64, TEST_IMAGE_BASE64 } from '../fixtures.js';

// @typemcp/http loads with the first test_reconnection call (core loads it for `listen({ transport:
// 'http' })`), so `--transport stdio` starts without its modules.
let httpPackage: typeof HttpPackage | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const closeSseStream: typeof HttpPackage.closeSseStream = (request) => (httpPackage ??= require('@typemcp/http') as typeof HttpPackage).closeSseStream(request);

@McpService()
export class ContentToolsService {
  @Tool({ name: 'test_simple_text', description: 'Tests simple text content response' })
  simpleText() {
    return 'This is a simple text response for testing.';
  }

  @Tool({ name: 'test_image_content', description: 'Tests image content response' })
  imageContent() {
    return image(TEST_IMAGE_BASE64, 'image/png');
  }

  @Tool({ name: 'test_audio_content', description: 'Tests audio content response' })
  audioContent() {
    return audio(TEST_AUDIO_BASE64, 'audio/wav');
  }

  @Tool({ name: 'test_embedded_resource', description: 'Tests embedded resource content response' })
  embedded() {
    return embeddedResource('test://embedded-resource', { text: 'This is an embedded resource content.' }, 'text/plain');
  }

  @Tool({ name: 'test_multiple_content_types', description: 'Tests response with multiple content types (text, image, resource)' })
  multiple() {
    return [
      'Multiple content types test:',
      image(TEST_IMAGE_BASE64, 'image/png'),
      embeddedResource('test://mixed-content-resource', { text: JSON.stringify({ test: 'data', value: 123 }) }, 'application/json'),
    ];
  }

  @Tool({ name: 'test_tool_with_logging', description: 'Tests tool that emits log messages during execution' })
  async withLogging(ctx: Context) {
    ctx.log.info('Tool execution started', 'everything');
    await sleep(50, ctx.signal);
    ctx.log.info('Tool processing data', 'everything');
    await sleep(50, ctx.signal);
    ctx.log.info('Tool execution completed', 'everything');
    ctx.log.debug('Debug detail: only sent when the client asked for debug', 'everything');
    return 'Tool with logging executed successfully';
  }

  @Tool({ name: 'test_tool_with_progress', description: 'Tests tool that reports progress notifications' })
  async withProgress(ctx: Context) {
    for (const step of [0, 50, 100]) {
      ctx.progress(step, 100, `Completed step ${step} of 100`);
      if (step < 100) await sleep(50, ctx.signal);
    }
    return String(ctx.request.progressToken ?? 'no progress token');
  }

  @Tool({ name: 'test_error_handling', description: 'Tests error response handling' })
  failing(): string {
    throw new ToolError('This tool intentionally returns an error for testing');
  }

  @Tool({
    name: 'test_reconnection',
    description: 'Tests SSE stream disconnection and client reconnection (SEP-1699); on stdio it simply completes',
  })
  async reconnection(ctx: Context) {
    // Over Streamable HTTP (client at 2025-11-25) the connection closes now and the client
    // resumes with Last-Event-ID to get the result; elsewhere this does nothing.
    closeSseStream(ctx.request);
    await sleep(100, ctx.signal);
    return 'Reconnection test completed successfully.';
  }

  @Tool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)',
    inputSchema: JSON_SCHEMA_2020_12,
  })
  jsonSchema(args: Record<string, unknown>) {
    return `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`;
  }
}
