/**
 * A minimal MCP Apps host for the browser tests, on the official parts only: the SDK 2.x client
 * (`@modelcontextprotocol/client`, Streamable HTTP to the server this page is served beside)
 * declaring io.modelcontextprotocol/ui, and ext-apps' `AppBridge` with a `PostMessageTransport`
 * to a sandboxed frame (`sandbox="allow-scripts"`, no same origin) holding the view's HTML under
 * the restrictive CSP the specification gives hosts (inline scripts, no eval, no network).
 *
 * `?tool=show_counter&args={"start":41}` picks the tool; the page calls it for real, opens the
 * view its definition names, and hands the view the call's input and result. What happened is
 * recorded on `window.hostLog` for the test to read; `window.teardown()` tears the view down.
 */
import { AppBridge, PostMessageTransport, getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';
// The specification's restrictive default for a view that declares no CSP.
const CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'";

interface HostLog {
  events: string[];
  sizes: { width?: number; height?: number }[];
  viewMessages: unknown[];
  errors: string[];
  mimeType?: string;
  contents?: number;
  resourceUri?: string;
  teardown?: unknown;
}

declare global {
  interface Window {
    hostLog: HostLog;
    teardown(): Promise<unknown>;
  }
}

const log: HostLog = { events: [], sizes: [], viewMessages: [], errors: [] };
window.hostLog = log;
const status = document.getElementById('host-status')!;

async function main(): Promise<void> {
  const query = new URLSearchParams(location.search);
  const toolName = query.get('tool') ?? 'show_counter';
  const args = JSON.parse(query.get('args') ?? '{}') as Record<string, unknown>;

  const client = new Client({ name: 'typemcp-test-host', version: '1.0.0' }, { capabilities: { extensions: { [UI]: { mimeTypes: [MIME] } } } });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', location.origin)));
  log.events.push('connected');

  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === toolName);
  if (!tool) throw new Error(`no tool ${toolName}`);
  const uri = getToolUiResourceUri(tool);
  if (!uri) throw new Error(`${toolName} has no view`);
  log.resourceUri = uri;
  const read = await client.readResource({ uri });
  log.contents = read.contents.length;
  const item = read.contents[0] as { mimeType?: string; text?: string };
  log.mimeType = item.mimeType;
  if (typeof item.text !== 'string') throw new Error('the view has no text');

  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.id = 'view';
  iframe.style.width = '400px';
  iframe.style.border = '1px solid #ccc';
  document.getElementById('frame')!.append(iframe);

  const bridge = new AppBridge(client, { name: 'typemcp-test-host', version: '1.0.0' }, { serverTools: {}, serverResources: {}, logging: {} });
  bridge.onsizechange = (size) => {
    log.sizes.push(size);
    if (size.height) iframe.style.height = `${size.height}px`;
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => {
      log.events.push('initialized');
      resolve();
    };
  });
  const transport = new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!);
  await bridge.connect(transport);
  // Records what the view sends (the test checks it against ext-apps' schema).
  const received = transport.onmessage;
  transport.onmessage = (message, extra) => {
    log.viewMessages.push(message);
    received?.(message, extra);
  };

  const head = `<meta http-equiv="Content-Security-Policy" content="${CSP}">`;
  iframe.srcdoc = item.text.replace(/<head([^>]*)>/i, `<head$1>${head}`);

  window.teardown = async () => (log.teardown = await bridge.teardownResource({}));

  // The real call, as a host makes it when the model asks for the tool.
  const result = await client.callTool({ name: toolName, arguments: args });
  log.events.push('called');
  await initialized;
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(result as never);
  log.events.push('result-sent');
  status.textContent = 'ready';
}

main().catch((error: unknown) => {
  log.errors.push(String((error as Error)?.stack ?? error));
  status.textContent = 'failed';
});
