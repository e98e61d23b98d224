// MCP TypeScript SDK v2 (@modelcontextprotocol/server 2.x) `add` server over stdio.
// Uses serveStdio(factory): the opening message picks the protocol era; a legacy
// `initialize` (2025-era, e.g. 2025-06-18) is served by a pinned instance (legacy: 'serve').
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

serveStdio(
  () => {
    const server = new McpServer({ name: 'sdk2-add', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.registerTool('add', { description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
    }));
    return server;
  },
  { onerror: (err) => process.stderr.write(`sdk2-add: ${err?.stack ?? err}\n`) },
);
