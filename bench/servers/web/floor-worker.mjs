// Cold-start floor for bench/web-standard.mjs: workerd answering a fixed initialize result.
const RESULT = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'floor', version: '1' } };
export default {
  fetch: async (request) => Response.json({ jsonrpc: '2.0', id: (await request.json()).id, result: RESULT }),
};
