/**
 * The `typemcp dev` preview: an MCP Apps host in the browser, on the official parts only. The
 * SDK 2.x client (`@modelcontextprotocol/client`) connects over Streamable HTTP to `/mcp` of the
 * page's own origin, which `typemcp dev` relays to the server (preview-server.ts), declaring the
 * io.modelcontextprotocol/ui extension; ext-apps' `AppBridge` renders a tool's view in a
 * sandboxed frame (`sandbox="allow-scripts"`, no same origin) under the CSP the resource
 * declares (the specification's restrictive default when it declares none), and forwards the
 * view's tools/call, resources/read and logging to the server through that client.
 *
 * The page lists the tools whose definition names a view (`_meta.ui.resourceUri`) and the model
 * may call; Call runs the tool with the JSON arguments, shows the text fallback and the
 * structuredContent, and renders the view with the call's input and result. `?tool=&args=`
 * (kept in the address on each call) opens a tool at once. When `typemcp dev` says the server or
 * a view changed (`/events`, server-sent events), the page connects again, reads the view again
 * and runs the last call again, without reloading itself.
 */
import { AppBridge, PostMessageTransport, buildAllowAttribute, getToolUiResourceUri, isToolVisibilityAppOnly } from '@modelcontextprotocol/ext-apps/app-bridge';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';
const HOST = { name: 'typemcp-dev-preview', version: '1.0.0' };
/** How long a view gets to answer ui/resource-teardown before it is removed anyway. */
const TEARDOWN_MS = 1000;

type Tool = Awaited<ReturnType<Client['listTools']>>['tools'][number];
type CallResult = Awaited<ReturnType<Client['callTool']>>;
interface UiMeta {
  csp?: { connectDomains?: string[]; resourceDomains?: string[]; frameDomains?: string[]; baseUriDomains?: string[] };
  permissions?: Parameters<typeof buildAllowAttribute>[0];
  prefersBorder?: boolean;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = $('preview-status');
const reloads = $('reloads');
const toolList = $<HTMLUListElement>('tools');
const argsBox = $<HTMLTextAreaElement>('args');
const callError = $('call-error');
const appLog = $<HTMLOListElement>('app-log');

let client: Client | undefined;
let transport: StreamableHTTPClientTransport | undefined;
let tools: Tool[] = [];
let selected: Tool | undefined;
let lastCall: { tool: string; args: Record<string, unknown> } | undefined;
let bridge: AppBridge | undefined;
/** Each render gets a number: a render overtaken by a newer one stops. */
let renders = 0;

function setStatus(text: string): void {
  status.textContent = text;
}

/** The CSP of a view's frame: the specification's restrictive default, opened only for the origins the resource declares. */
export function viewCsp(csp: UiMeta['csp'] = {}): string {
  const resources = (csp.resourceDomains ?? []).join(' ');
  const sources = (extra: string) => ["'self'", extra, resources].filter(Boolean).join(' ');
  return [
    "default-src 'none'",
    `script-src ${sources("'unsafe-inline'")}`,
    `style-src ${sources("'unsafe-inline'")}`,
    `img-src ${sources('data:')}`,
    `font-src ${sources('data:')}`,
    `media-src ${sources('data:')}`,
    `connect-src ${csp.connectDomains?.length ? csp.connectDomains.join(' ') : "'none'"}`,
    `frame-src ${csp.frameDomains?.length ? csp.frameDomains.join(' ') : "'none'"}`,
    `base-uri ${csp.baseUriDomains?.length ? csp.baseUriDomains.join(' ') : "'self'"}`,
  ].join('; ');
}

function appEvent(text: string): void {
  const item = document.createElement('li');
  item.textContent = text;
  appLog.append(item);
}

async function connect(): Promise<void> {
  // The previous session is ended (DELETE), so neither typemcp dev nor the server keeps it.
  await transport?.terminateSession().catch(() => undefined);
  await client?.close().catch(() => undefined);
  const next = new Client(HOST, { capabilities: { extensions: { [UI]: { mimeTypes: [MIME] } } } });
  transport = new StreamableHTTPClientTransport(new URL('/mcp', location.origin));
  await next.connect(transport);
  client = next;
  const info = next.getServerVersion();
  $('server').textContent = info ? `${info.name} ${info.version}` : 'connected';
  tools = [];
  let cursor: string | undefined;
  do {
    const page = await next.listTools(cursor ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  showTools();
}

/** The tools a host offers the model that have a view (app-only tools are the views' own). */
function appTools(): Tool[] {
  return tools.filter((t) => getToolUiResourceUri(t) && !isToolVisibilityAppOnly(t));
}

function showTools(): void {
  const shown = appTools();
  toolList.replaceChildren(
    ...shown.map((tool) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = tool.title ?? tool.name;
      button.dataset.tool = tool.name;
      button.addEventListener('click', () => select(tool.name));
      item.append(button);
      return item;
    }),
  );
  $('no-tools').hidden = shown.length > 0;
}

function select(name: string, args?: Record<string, unknown>): void {
  const tool = appTools().find((t) => t.name === name);
  if (!tool) {
    callError.textContent = `The server has no app tool ${name}`;
    return;
  }
  selected = tool;
  $('call').hidden = false;
  $('tool-name').textContent = tool.name;
  $('tool-description').textContent = tool.description ?? '';
  if (args) argsBox.value = JSON.stringify(args, null, 2);
  else if (lastCall?.tool !== name) argsBox.value = '{}';
}

function readArgs(): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(argsBox.value || '{}');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('the arguments must be a JSON object');
    return value as Record<string, unknown>;
  } catch (error) {
    callError.textContent = `Arguments: ${(error as Error).message}`;
    return undefined;
  }
}

/** Tears the current view down (ui/resource-teardown, answered or not within a second) and removes its frame. */
async function removeView(): Promise<void> {
  const old = bridge;
  bridge = undefined;
  if (old) {
    await Promise.race([old.teardownResource({}).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, TEARDOWN_MS))]);
    await old.close().catch(() => undefined);
  }
  $('frame').replaceChildren();
}

function showResult(result: CallResult): void {
  const text = (result.content as { type: string; text?: string }[] | undefined)?.filter((c) => c.type === 'text').map((c) => c.text ?? '');
  $('fallback').textContent = text?.length ? text.join('\n') : '(no text content)';
  $('structured').textContent = result.structuredContent === undefined ? '(none)' : JSON.stringify(result.structuredContent, null, 2);
  if (result.isError) callError.textContent = 'The tool answered with isError: true';
}

/** Calls the tool for real, as a host does when the model asks for it, and renders its view with the input and the result. */
async function run(tool: Tool, args: Record<string, unknown>): Promise<void> {
  const render = ++renders;
  const mcp = client!;
  callError.textContent = '';
  appLog.replaceChildren();
  lastCall = { tool: tool.name, args };
  history.replaceState(null, '', `?tool=${encodeURIComponent(tool.name)}&args=${encodeURIComponent(JSON.stringify(args))}`);
  setStatus('calling');
  await removeView();

  const uri = getToolUiResourceUri(tool)!;
  const read = await mcp.readResource({ uri });
  const item = read.contents[0] as { mimeType?: string; text?: string; blob?: string; _meta?: { ui?: UiMeta } } | undefined;
  if (!item || (item.text === undefined && item.blob === undefined)) throw new Error(`${uri} has no content`);
  if (item.mimeType !== MIME) appEvent(`warning: ${uri} is ${item.mimeType}, not ${MIME}`);
  const html = item.text ?? new TextDecoder().decode(Uint8Array.from(atob(item.blob!), (c) => c.charCodeAt(0)));
  const ui = item._meta?.ui ?? {};

  const iframe = document.createElement('iframe');
  iframe.id = 'view';
  iframe.title = `${tool.name} (${uri})`;
  iframe.setAttribute('sandbox', 'allow-scripts');
  const allow = buildAllowAttribute(ui.permissions);
  if (allow) iframe.setAttribute('allow', allow);
  if (ui.prefersBorder === false) iframe.style.border = 'none';
  $('frame').append(iframe);

  const view = new AppBridge(mcp, HOST, { serverTools: {}, serverResources: {}, logging: {}, openLinks: {} }, { hostContext: { displayMode: 'inline' } });
  view.onsizechange = ({ height }) => {
    if (height) iframe.style.height = `${height}px`;
  };
  view.onloggingmessage = ({ level, data }) => appEvent(`log ${level}: ${typeof data === 'string' ? data : JSON.stringify(data)}`);
  view.onmessage = (params) => (appEvent(`ui/message: ${JSON.stringify(params.content)}`), Promise.resolve({}));
  view.onopenlink = ({ url }) => (appEvent(`ui/open-link: ${url} (not opened by the preview)`), Promise.resolve({}));
  const initialized = new Promise<void>((resolve) => (view.oninitialized = () => resolve()));
  await view.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  bridge = view;
  iframe.srcdoc = html.replace(/<head([^>]*)>/i, `<head$1><meta http-equiv="Content-Security-Policy" content="${viewCsp(ui.csp)}">`);

  // The call and the view's start side by side, as in a host; the result goes once both are done.
  const result = await mcp.callTool({ name: tool.name, arguments: args });
  if (render !== renders) return;
  showResult(result);
  await initialized;
  if (render !== renders) return;
  await view.sendToolInput({ arguments: args });
  await view.sendToolResult(result as never);
  setStatus('ready');
}

async function runSelected(): Promise<void> {
  const args = readArgs();
  if (!selected || !args) return;
  await run(selected, args).catch(failed);
}

function failed(error: unknown): void {
  callError.textContent = String((error as Error)?.message ?? error);
  setStatus('failed');
}

/** The server or a view changed: connect again, then run the last call again. */
async function reload(why: string): Promise<void> {
  setStatus(`reloading (${why})`);
  await removeView();
  await connect();
  reloads.textContent = String(Number(reloads.textContent) + 1);
  const again = lastCall && appTools().find((t) => t.name === lastCall!.tool);
  if (!again) return setStatus(lastCall ? `${lastCall.tool} is gone` : 'ready');
  select(again.name, lastCall!.args);
  await run(again, lastCall!.args);
}

let reloading = Promise.resolve();
function listen(): void {
  const events = new EventSource('/events');
  events.addEventListener('reload', (event) => {
    const why = (JSON.parse((event as MessageEvent<string>).data) as { reason?: string }).reason ?? 'changed';
    reloading = reloading.then(() => reload(why)).catch(failed);
  });
  events.addEventListener('problem', (event) => {
    callError.textContent = (JSON.parse((event as MessageEvent<string>).data) as { message: string }).message;
  });
}

async function main(): Promise<void> {
  $('run').addEventListener('click', () => void runSelected());
  listen();
  await connect();
  const query = new URLSearchParams(location.search);
  const name = query.get('tool');
  if (name) {
    select(name, JSON.parse(query.get('args') ?? '{}') as Record<string, unknown>);
    if (selected) return run(selected, readArgs() ?? {});
  }
  setStatus('ready');
}

main().catch(failed);
