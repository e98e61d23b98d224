/* global Deno */
import process from 'node:process';
// Cold-start floor for bench/web-standard.mjs: the runtime answering a fixed initialize result, on Deno.serve (PORT).
const RESULT = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'floor', version: '1' } };
Deno.serve({ hostname: '127.0.0.1', port: Number(process.env.PORT), onListen: () => {} }, async (request) =>
  Response.json({ jsonrpc: '2.0', id: (await request.json()).id, result: RESULT }),
);
