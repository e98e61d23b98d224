// Ours for bench/scale-out.mjs: a ProtocolServer with `add` served by @typemcp/http with sessions
// (2025-11-25 sessions and stateless 2026-07-28 requests on one endpoint).
// argv[2]: `memory`, or a Redis URL (then `state: redisState({ url, prefix: argv[3] })`).
import { createRequire } from 'node:module';
import { registerAdd } from '../add-tool.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ready } from './ready.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const protocol = require(path.join(root, 'packages/protocol/dist/index.js'));
const { ProtocolServer } = protocol;
const { serveHttp } = require(path.join(root, 'packages/http/dist/index.js'));

const [where, prefix] = process.argv.slice(2);
const engine = new ProtocolServer({ serverInfo: { name: 'typemcp-shared', version: '1.0.0' } });
registerAdd(engine, protocol);
const state = where === 'memory' ? undefined : require(path.join(root, 'packages/redis/dist/index.js')).redisState({ url: where, prefix });
const listener = await serveHttp(engine, { port: 0, keepAliveMs: 0, state, maxSessions: 100_000 });
ready(listener.port);
