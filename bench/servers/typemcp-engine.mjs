// @typemcp/protocol alone (no decorators, no DTO validation): the engine and stdio transport
// with an `add` tool registered on the registry, its two arguments checked by hand. Separates
// the engine's cost from the authoring layer's (typemcp = the decorated everything server).
import { createRequire } from 'node:module';

const { ProtocolServer, ToolError, serveStdio } = createRequire(import.meta.url)('../../packages/protocol/dist/index.js');

const server = new ProtocolServer({ serverInfo: { name: 'typemcp-engine', version: '1.0.0' } });
server.registry.addTool(
  {
    name: 'add',
    description: 'Add two numbers',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  },
  ({ a, b }) => {
    if (typeof a !== 'number' || typeof b !== 'number') throw new ToolError('a and b must be numbers');
    return { content: [{ type: 'text', text: String(a + b) }] };
  },
);
serveStdio(server).closed.then(() => process.exit(0));
