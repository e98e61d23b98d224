// Ours: a ProtocolServer with `add` served by @typemcp/http. argv[2]: `stateless` (sessions: false) or `sse` (defaults, legacy /sse on);
// a `-json` suffix adds `jsonResponse: true`.
// TYPEMCP_BENCH_ROOT: the checkout whose build to serve (bench/http.mjs --baseline); this one by default.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ready } from './ready.mjs';

const require = createRequire(import.meta.url);
const root = process.env.TYPEMCP_BENCH_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { ProtocolServer, ToolError } = require(path.join(root, 'packages/protocol/dist/index.js'));
const { serveHttp } = require(path.join(root, 'packages/http/dist/index.js'));

const engine = new ProtocolServer({ serverInfo: { name: 'typemcp-http', version: '1.0.0' } });
engine.registry.addTool(
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
const mode = process.argv[2] ?? 'stateless';
const stateless = !mode.startsWith('sse');
const json = mode.endsWith('-json');
const listener = await serveHttp(engine, { port: 0, sessions: stateless ? false : true, keepAliveMs: 0, ...(json ? { jsonResponse: true } : {}) });
ready(listener.port);
