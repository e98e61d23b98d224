// The floor of any fetch handler behind an adapter: read the body, JSON.parse, answer a fixed
// CallToolResult with the sum in a plain Response (what raw.mjs does on node:http, as a fetch
// handler). argv[2]: `hono` or `bridge` (fetch-bridge.mjs). What it costs is the adapter's share.
import { serveFetch } from './fetch-bridge.mjs';

serveFetch(process.argv[2], async (request) => {
  const msg = JSON.parse(await request.text());
  const { a, b } = msg.params.arguments;
  const body = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: String(a + b) }] } });
  return new Response(body, { headers: { 'content-type': 'application/json' } });
});
