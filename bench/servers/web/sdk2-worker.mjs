// Cold-start worker for bench/web-standard.mjs: the SDK 2.x web-standard handler (createMcpHandler) with `add`, bundled for workerd.
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import * as z from 'zod';

let handler;
export default {
  fetch(request) {
    handler ??= createMcpHandler(
      () => {
        const server = new McpServer({ name: 'sdk2-worker', version: '1.0.0' }, { capabilities: { tools: {} } });
        server.registerTool('add', { description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
          content: [{ type: 'text', text: String(a + b) }],
        }));
        return server;
      },
      { keepAliveMs: 0 },
    );
    return handler.fetch(request);
  },
};
