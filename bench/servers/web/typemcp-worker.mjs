// Cold-start worker for bench/web-standard.mjs: createFetchHandler with a ProtocolServer and `add`, bundled for workerd.
import { ProtocolServer } from '@typemcp/protocol';
import { createFetchHandler } from '@typemcp/http/fetch';

let handler;
export default {
  fetch(request) {
    if (!handler) {
      const engine = new ProtocolServer({ serverInfo: { name: 'typemcp-worker', version: '1.0.0' } });
      engine.registry.addTool({ name: 'add', description: 'Add two numbers', inputSchema: { type: 'object' } }, ({ a, b }) => ({
        content: [{ type: 'text', text: String(a + b) }],
      }));
      handler = createFetchHandler(engine, { sessions: false, keepAliveMs: 0 });
    }
    return handler(request);
  },
};
