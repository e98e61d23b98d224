/** Builds the everything server: one ProtocolServer with every tool, resource and prompt registered. */
import { ProtocolServer } from '@typemcp/protocol';
import { registerPrompts, registerResources } from './resources.js';
import { registerTools } from './tools.js';

/** A fresh everything server. */
export function createEverythingServer(): ProtocolServer {
  const server = new ProtocolServer({
    serverInfo: {
      name: 'typemcp-everything',
      title: 'TypeMCP Everything',
      version: '0.1.0',
      description: 'Every MCP feature under the conformance suite fixture names',
    },
    instructions: 'A test server: every tool, resource and prompt of the MCP conformance suite, plus `add`.',
  });
  registerTools(server);
  registerResources(server);
  registerPrompts(server);
  return server;
}
