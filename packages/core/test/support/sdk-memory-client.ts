/**
 * The official SDK 1.x `Client` connected to a TypeMCP server in this process: the SDK's own
 * InMemoryTransport carries each message to a real engine session as serialised JSON text, so
 * only the pipe is in memory. The tool list is fetched once, which is where the SDK compiles
 * each tool's output validator (its `callTool` then checks `structuredContent` against it).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { TypeMcpServer } from '@typemcp/core';

/** A connected SDK client; close it before the server. */
export async function sdkClient(server: TypeMcpServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const session = server.engine.connect({ send: (text) => void serverSide.send(JSON.parse(text) as JSONRPCMessage) });
  serverSide.onmessage = (message) => session.receive(JSON.stringify(message));
  await serverSide.start();
  const client = new Client({ name: 'sdk1-memory', version: '1.0.0' });
  await client.connect(clientSide);
  await client.listTools();
  return client;
}
