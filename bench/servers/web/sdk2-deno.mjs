/* global Deno */
import process from 'node:process';
// Cold-start server for bench/web-standard.mjs: the SDK 2.x web-standard handler (createMcpHandler) with `add`, on Deno.serve (PORT).
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import * as z from 'zod';

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'sdk2-deno', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.registerTool('add', { description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
    }));
    return server;
  },
  { keepAliveMs: 0 },
);
Deno.serve({ hostname: '127.0.0.1', port: Number(process.env.PORT), onListen: () => {} }, (request) => handler.fetch(request));
