/**
 * Start-up cost of `--transport stdio`: the built app answers `initialize` without loading
 * @typemcp/http or express (the only HTTP-specific tool, test_reconnection, loads @typemcp/http
 * on its first call, and on stdio it simply completes), and verifies its schema manifest without
 * loading node:crypto (5-15 ms). Measured in a fresh process on the build (jest's module registry
 * would hide it), with a real engine session.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as path from 'node:path';

const SERVER = path.resolve(__dirname, '../dist/everything.server.js');
const MANIFEST = path.resolve(__dirname, '../dist/typemcp.manifest.json');

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

describe('everything over stdio verifies its schema manifest without node:crypto', () => {
  // The manifest `npm run build` wrote; its schemas are used only if its fingerprint matches. The
  // script is read from stdin: `node -e` loads node:crypto itself.
  const script = `
    const { createEverythingServer } = require(${JSON.stringify(SERVER)});
    const server = createEverythingServer();
    const session = server.engine.connect({ send: (text) => {
      const message = JSON.parse(text);
      if (message.id === 1) {
        console.log(JSON.stringify({ protocolVersion: message.result.protocolVersion, crypto: process.moduleLoadList.includes('NativeModule crypto') }));
        process.exit(0);
      }
    } });
    session.receive(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }));`;

  it('answers initialize with the manifest verified (no stale warning) and node:crypto not loaded', () => {
    const run = (manifest: string) =>
      spawnSync(process.execPath, ['-'], { input: script, encoding: 'utf8', cwd: __dirname, env: { ...process.env, TYPEMCP_MANIFEST: manifest } });
    const used = run(MANIFEST);
    expect(used.status).toBe(0);
    // A stale or unreadable manifest is reported on stderr (TYPEMCP_WARN_STALE_MANIFEST).
    expect(used.stderr).toBe('');
    expect(JSON.parse(used.stdout)).toEqual({ protocolVersion: '2025-11-25', crypto: false });
    // The same run with a manifest that is not there does warn: the empty stderr above is a verdict.
    const missing = run(path.join(path.dirname(MANIFEST), 'absent.manifest.json'));
    expect(missing.stderr).toContain('TYPEMCP_WARN_STALE_MANIFEST');
  });
});
