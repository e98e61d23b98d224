// MCP TypeScript SDK 2.x: createMcpHandler (web-standard fetch handler; 2025-era requests go to its
// stateless legacy fallback), behind the hand-written node:http
// bridge of fetch-bridge.mjs (@modelcontextprotocol/node is not installed).
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { serveFetch } from './fetch-bridge.mjs';

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'sdk2-http', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.registerTool('add', { description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
    }));
    return server;
  },
  { keepAliveMs: 0 },
);

serveFetch('bridge', (request) => handler.fetch(request));
