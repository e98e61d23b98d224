/**
 * Start-up cost of `--transport stdio`: the built app answers `initialize` without loading
 * @typemcp/http or express (the only HTTP-specific tool, test_reconnection, loads @typemcp/http
 * on its first call, and on stdio it simply completes). Measured in a fresh process on the build
 * (jest's module registry would hide it), with a real engine session.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const SERVER = path.resolve(__dirname, '../dist/everything.server.js');

type Loaded = { http: number; express: number };

const script = `
  const { createEverythingServer } = require(${JSON.stringify(SERVER)});
  const server = createEverythingServer();
  const loaded = () => {
    const count = (re) => Object.keys(require.cache).filter((k) => re.test(k)).length;
    return { http: count(/[\\\\/]packages[\\\\/]http[\\\\/]dist[\\\\/]/), express: count(/[\\\\/]node_modules[\\\\/]express[\\\\/]/) };
  };
  const answers = [];
  const report = {};
  const session = server.engine.connect({ send: (text) => {
    const message = JSON.parse(text);
    answers.push(message);
    if (message.id === 1) report.atInitialize = loaded();
    if (message.id === 2) {
      report.afterReconnection = loaded();
      console.log(JSON.stringify({ answers, ...report }));
      process.exit(0);
    }
  } });
  session.receive(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }));
  session.receive(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  session.receive(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_reconnection', arguments: {} } }));`;

describe('everything over stdio starts without the HTTP transport', () => {
  it('answers initialize with no @typemcp/http or express module loaded; test_reconnection still completes', () => {
    const { answers, atInitialize, afterReconnection } = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as {
      answers: { id: number; result?: { protocolVersion?: string; content?: { text: string }[] } }[];
      atInitialize: Loaded;
      afterReconnection: Loaded;
    };
    expect(answers[0].result?.protocolVersion).toBe('2025-11-25');
    expect(atInitialize).toEqual({ http: 0, express: 0 });
    expect(answers[1].result?.content?.[0].text).toBe('Reconnection test completed successfully.');
    // The call loaded the package (so the measure above can see it), but not express.
    expect(afterReconnection.http).toBeGreaterThan(0);
    expect(afterReconnection.express).toBe(0);
  });
});
