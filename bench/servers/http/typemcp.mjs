// Ours: a ProtocolServer with `add` served by @typemcp/http. argv[2]: `stateless` (sessions: false) or `sse` (defaults, legacy /sse on);
// a `-json` suffix adds `jsonResponse: true`.
// TYPEMCP_BENCH_ROOT: the checkout whose build to serve (bench/http.mjs --baseline); this one by default.
import { createRequire } from 'node:module';
import { registerAdd } from '../add-tool.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ready } from './ready.mjs';

const require = createRequire(import.meta.url);
const root = process.env.TYPEMCP_BENCH_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const protocol = require(path.join(root, 'packages/protocol/dist/index.js'));
const { ProtocolServer } = protocol;
const { serveHttp } = require(path.join(root, 'packages/http/dist/index.js'));

const engine = new ProtocolServer({ serverInfo: { name: 'typemcp-http', version: '1.0.0' } });
registerAdd(engine, protocol);
const mode = process.argv[2] ?? 'stateless';
const stateless = !mode.startsWith('sse');
const json = mode.endsWith('-json');
const listener = await serveHttp(engine, { port: 0, sessions: stateless ? false : true, keepAliveMs: 0, ...(json ? { jsonResponse: true } : {}) });
ready(listener.port);
