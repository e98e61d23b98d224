/* global Bun */
// Cold-start server for bench/web-standard.mjs: createFetchHandler with a ProtocolServer and `add`, on Bun.serve (PORT).
import { createRequire } from 'node:module';
import { registerAdd } from '../add-tool.mjs';

const require = createRequire(import.meta.url);
const protocol = require('../../../packages/protocol/dist/index.js');
const { createFetchHandler } = require('../../../packages/http/dist/fetch/index.js');
const engine = new protocol.ProtocolServer({ serverInfo: { name: 'typemcp-bun', version: '1.0.0' } });
registerAdd(engine, protocol);
const handler = createFetchHandler(engine, { sessions: false, keepAliveMs: 0 });
Bun.serve({ hostname: '127.0.0.1', port: Number(process.env.PORT), fetch: (request) => handler(request) });
