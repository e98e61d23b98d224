/** Tools beyond the conformance fixtures: `add` (benchmarks), structured output, links, a slow tool, a dynamic tool. */
import { Context, McpService, resourceLink, Tool, TypeMcpServer } from '@typemcp/core';
import { AddInput, SlowInput, WeatherOutput } from '../dto/inputs.dto.js';
import { sleep, TEST_IMAGE_BASE64 } from '../fixtures.js';

/** Served only while toggled on by test_toggle_dynamic_tool. */
@McpService({ deferred: true })
export class DynamicToolService {
  @Tool({ name: 'test_dynamic_tool', description: 'A tool that comes and goes (see test_toggle_dynamic_tool)' })
  dynamic() {
    return 'dynamic tool called';
  }
}

@McpService()
export class ExtrasService {
  constructor(private readonly server: TypeMcpServer) {}

  @Tool({
    name: 'add',
    title: 'Add two numbers',
    description: 'Adds two numbers and returns the sum as text',
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    icons: [{ src: 'data:image/png;base64,' + TEST_IMAGE_BASE64, mimeType: 'image/png', sizes: ['1x1'] }],
  })
  add(input: AddInput) {
    return String(input.a + input.b);
  }

  @Tool({
    name: 'test_structured_output',
    title: 'Structured output',
    description: 'Returns structured content matching its output schema (also as JSON text)',
    output: WeatherOutput,
  })
  weather(): WeatherOutput {
    return { temperature: 22.5, conditions: 'sunny' };
  }

  @Tool({ name: 'test_resource_link', description: 'Returns a link to the static text resource' })
  link() {
    return resourceLink({
      uri: 'test://static-text',
      name: 'static-text',
      title: 'Static Text Resource',
      description: 'A static text resource for testing',
      mimeType: 'text/plain',
    });
  }

  @Tool({ name: 'test_slow_operation', description: 'Waits durationMs (default 10 000), reporting progress every 100 ms; stops early when cancelled' })
  async slow(input: SlowInput, ctx: Context) {
    const duration = input.durationMs ?? 10_000;
    for (let elapsed = 0; elapsed < duration; elapsed += 100) {
      ctx.progress(elapsed, duration);
      await sleep(Math.min(100, duration - elapsed), ctx.signal);
    }
    return `Waited ${duration} ms`;
  }

  @Tool({
    name: 'test_header_param',
    description: 'Echoes its region; 2026-07-28 HTTP clients mirror it in the Mcp-Param-Region header (SEP-2243)',
    inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } }, required: ['region'] },
  })
  headerParam(args: { region: string }) {
    return `region=${args.region}`;
  }

  @Tool({ name: 'test_toggle_dynamic_tool', description: 'Adds or removes test_dynamic_tool (sends tools/list_changed)' })
  toggle() {
    if (this.server.removeService(DynamicToolService)) return 'removed test_dynamic_tool';
    this.server.addService(DynamicToolService);
    return 'added test_dynamic_tool';
  }
}
