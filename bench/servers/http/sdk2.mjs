// MCP TypeScript SDK 2.x: createMcpHandler (web-standard fetch handler; 2025-era requests go to its
// stateless legacy fallback), wrapped for node:http by hand (@modelcontextprotocol/node is not installed):
// the body is read, a web Request built, the Response written back.
import { createServer } from 'node:http';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { ready } from './ready.mjs';

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

const server = createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  const body = chunks.length ? Buffer.concat(chunks) : undefined;
  const response = await handler.fetch(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body }));
  const out = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, Object.fromEntries(response.headers)).end(out);
});
server.listen(0, '127.0.0.1', () => ready(server.address().port));
