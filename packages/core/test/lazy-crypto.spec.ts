/**
 * Start-up cost: node:crypto (5-15 ms to load) is loaded on first use — task ids, sealed
 * 2026-07-28 request state, principal digests, the rate limiter's key for a stdio session — not
 * by importing `@typemcp/core` or answering `initialize`. Measured on the built packages in a
 * fresh process (jest's module registry would hide it), with a real engine session. The script
 * is read from stdin: `node -e` loads node:crypto itself.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const CORE = path.resolve(__dirname, '../dist/index.js');

const script = `
  require('reflect-metadata');
  const core = require(${JSON.stringify(CORE)});
  const cryptoLoaded = () => process.moduleLoadList.includes('NativeModule crypto');
  class Service {}
  Service.prototype.tool = function () { return 'done'; };
  core.Tool({ description: 'no DTO' })(Service.prototype, 'tool', Object.getOwnPropertyDescriptor(Service.prototype, 'tool'));
  core.McpService()(Service);
  const server = core.createServer({ name: 'n', version: '1', services: [Service], interceptors: [core.rateLimit({ capacity: 5, refillPerSecond: 1 })] });
  const report = { answers: [] };
  const session = server.engine.connect({ send: (text) => {
    const message = JSON.parse(text);
    report.answers.push(message);
    if (message.id === 1) {
      report.atInitialize = cryptoLoaded();
      // node:zlib fingerprints a schema manifest; without one it is not loaded either.
      report.zlibAtInitialize = process.moduleLoadList.includes('NativeModule zlib');
    }
    if (message.id === 2) {
      report.afterCall = cryptoLoaded();
      console.log(JSON.stringify(report));
    }
  } });
  session.receive(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }));
  session.receive(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  session.receive(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'tool', arguments: {} } }));`;

describe('node:crypto loads on first use, not at start-up', () => {
  it('a server with a rate limit answers initialize without it; the first limited call (a stdio-like session key) loads it', () => {
    const { answers, atInitialize, zlibAtInitialize, afterCall } = JSON.parse(
      execFileSync(process.execPath, ['-'], { input: script, encoding: 'utf8', cwd: __dirname }),
    ) as {
      answers: { id: number; result?: { protocolVersion?: string; content?: { text: string }[] } }[];
      atInitialize: boolean;
      zlibAtInitialize: boolean;
      afterCall: boolean;
    };
    expect(answers[0].result?.protocolVersion).toBe('2025-06-18');
    expect(atInitialize).toBe(false);
    expect(zlibAtInitialize).toBe(false);
    expect(answers[1].result?.content?.[0].text).toBe('done');
    expect(afterCall).toBe(true);
  });
});
