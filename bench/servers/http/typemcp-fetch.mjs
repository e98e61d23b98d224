// Ours as a web-standard handler: a ProtocolServer with `add` behind createFetchHandler, stateless.
// argv[2]: `hono` (through @hono/node-server, how a Node deployment serves a fetch handler) or
// `bridge` (the same hand-written node:http -> Request -> Response bridge as sdk2.mjs, so the two
// fetch handlers are compared on equal terms); see fetch-bridge.mjs. TYPEMCP_ROOT: another
// checkout's build to load instead of this one (web-standard.mjs --baseline).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { registerAdd } from '../add-tool.mjs';
import { serveFetch } from './fetch-bridge.mjs';

const require = createRequire(import.meta.url);
const root = process.env.TYPEMCP_ROOT ?? fileURLToPath(new URL('../../..', import.meta.url));
const protocol = require(path.join(root, 'packages/protocol/dist/index.js'));
const { createFetchHandler } = require(path.join(root, 'packages/http/dist/fetch/index.js'));

const engine = new protocol.ProtocolServer({ serverInfo: { name: 'typemcp-fetch', version: '1.0.0' } });
registerAdd(engine, protocol);
serveFetch(process.argv[2], createFetchHandler(engine, { sessions: false, keepAliveMs: 0 }));
