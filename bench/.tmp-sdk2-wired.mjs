import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';
const server = new McpServer({ name: 'sdk2-wired', version: '1.0.0' }, { capabilities: { tools: {} } });
server.registerTool('add', { description: 'Add', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
await server.connect(new StdioServerTransport());
