// Ours for bench/scale-out.mjs: a ProtocolServer with `add` served by @typemcp/http with sessions
// (2025-11-25 sessions and stateless 2026-07-28 requests on one endpoint).
// argv[2]: `memory`, or a Redis URL (then `state: redisState({ url, prefix: argv[3] })`).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ready } from './ready.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { ProtocolServer, ToolError } = require(path.join(root, 'packages/protocol/dist/index.js'));
const { serveHttp } = require(path.join(root, 'packages/http/dist/index.js'));

const [where, prefix] = process.argv.slice(2);
const engine = new ProtocolServer({ serverInfo: { name: 'typemcp-shared', version: '1.0.0' } });
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
const state = where === 'memory' ? undefined : require(path.join(root, 'packages/redis/dist/index.js')).redisState({ url: where, prefix });
const listener = await serveHttp(engine, { port: 0, keepAliveMs: 0, state, maxSessions: 100_000 });
ready(listener.port);
