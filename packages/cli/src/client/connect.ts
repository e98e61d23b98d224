/**
 * Connects the official MCP SDK client to a server: a command run over stdio (default
 * `node dist/main.js` in the project) or a Streamable HTTP URL.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UsageError } from '../usage.error.js';
import { CLI_VERSION } from '../version.js';

/** Which server to talk to. @publicApi */
export interface ServerTarget {
  /** A Streamable HTTP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  url?: string;
  /** A command that serves MCP over stdio, e.g. `['node', 'dist/main.js']` (default in `cwd`). */
  command?: string[];
  cwd: string;
}

/** A connected client, and what the server printed on stderr (shown when something fails). */
export interface Connection {
  client: Client;
  stderr(): string;
  close(): Promise<void>;
}

/** The command to run: the given one, or the project's built entry point (`node dist/main.js`), which must exist. */
export function serverCommand(target: ServerTarget): string[] {
  if (target.command?.length) return target.command;
  if (!existsSync(path.join(target.cwd, 'dist', 'main.js'))) {
    throw new UsageError('dist/main.js not found: build the project first (npm run build), or give the server: -- <command> [args...], or --url <url>');
  }
  return [process.execPath, 'dist/main.js'];
}

function environment(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
}

async function connectHttp(client: Client, target: string): Promise<Connection> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new UsageError(`--url ${target} is not a URL`);
  }
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  const close = async () => {
    // End the session (DELETE) so the server does not keep it until it expires.
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  };
  return { client, stderr: () => '', close };
}

async function connectStdio(client: Client, target: ServerTarget): Promise<Connection> {
  const [command, ...args] = serverCommand(target);
  const transport = new StdioClientTransport({ command, args, cwd: target.cwd, env: environment(), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    await client.connect(transport);
  } catch (error) {
    // The server's own words say more than the SDK's "Connection closed".
    if (error instanceof Error && stderr.trim()) error.message += `\n${command} ${args.join(' ')} printed:\n${stderr.trim()}`;
    throw error;
  }
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** Starts (or reaches) the server and completes the MCP handshake. */
export function connect(target: ServerTarget): Promise<Connection> {
  const client = new Client({ name: 'typemcp-cli', version: CLI_VERSION });
  return target.url ? connectHttp(client, target.url) : connectStdio(client, target);
}
