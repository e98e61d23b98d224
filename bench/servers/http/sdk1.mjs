// MCP TypeScript SDK 1.x on express 5. `stateless`: StreamableHTTPServerTransport with
// sessionIdGenerator undefined, a new McpServer + transport per request (required since 1.26).
// `sse`: the deprecated SSEServerTransport at /sse + /messages.
import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import * as z from 'zod';
import { ready } from './ready.mjs';

function makeServer() {
  const server = new McpServer({ name: 'sdk1-http', version: '1.0.0' });
  server.registerTool('add', { description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  return server;
}

const app = express();
app.use(express.json({ limit: '4mb' }));
if (process.argv[2] !== 'sse') {
  app.post('/mcp', async (req, res) => {
    const server = makeServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
} else {
  const transports = new Map();
  app.get('/sse', async (_req, res) => {
    const transport = new SSEServerTransport('/messages', res);
    transports.set(transport.sessionId, transport);
    res.on('close', () => transports.delete(transport.sessionId));
    await makeServer().connect(transport);
  });
  app.post('/messages', async (req, res) => {
    const transport = transports.get(req.query.sessionId);
    if (!transport) return void res.status(404).end();
    await transport.handlePostMessage(req, res, req.body);
  });
}
const server = app.listen(0, '127.0.0.1', () => ready(server.address().port));
