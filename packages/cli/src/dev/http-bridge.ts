/**
 * `typemcp dev --bridge`: a stdio client (Claude Desktop, an IDE) of a server that serves only
 * Streamable HTTP. The stdio relay hands the client's lines to this bridge, which sends them to
 * the server's endpoint through `typemcp dev`'s own HTTP listener with the official SDK's client
 * transport, and writes what comes back (answers, notifications, the server's requests) as lines.
 * Going through the listener, the session survives restarts like any other (dev-sessions.ts).
 */
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { errorAnswer, isRequest, parseMessages, type Message } from './json-rpc.js';
import type { ServerPipes } from './stdio-relay.js';

/** The pipes the stdio relay attaches to, in front of `endpoint`. */
export function httpBridge(endpoint: URL): ServerPipes {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new StreamableHTTPClientTransport(endpoint);
  const write = (message: object) => stdout.write(`${JSON.stringify(message)}\n`);
  const initializing = new Set<string | number>();
  transport.onmessage = (message) => {
    const answer = message as Message;
    // The SDK's Client does this after the handshake; here the client is at the other end of stdio.
    if (answer.id !== undefined && answer.id !== null && initializing.delete(answer.id) && answer.result?.protocolVersion) {
      transport.setProtocolVersion(answer.result.protocolVersion);
    }
    write(message);
  };
  transport.onerror = () => undefined; // a failed send is answered below; a dropped stream is retried by the transport
  const started = transport.start();
  // What is sent after an `initialize` waits for its answer: it carries the session id.
  let gate: Promise<unknown> = started;

  createInterface({ input: stdin, crlfDelay: Infinity }).on('line', (line) => {
    for (const message of parseMessages(line)) {
      const sent = gate
        .then(() => transport.send(message as JSONRPCMessage))
        .catch((error: unknown) => {
          if (isRequest(message)) write(errorAnswer(message.id!, `typemcp dev: ${error instanceof Error ? error.message : String(error)}`));
        });
      if (message.method === 'initialize' && isRequest(message)) {
        initializing.add(message.id!);
        gate = sent;
      }
    }
  });
  // The client is gone: end the session, so the server does not keep it until it expires.
  stdin.on('end', () => {
    void started
      .then(() => transport.terminateSession())
      .catch(() => undefined)
      .finally(() => void transport.close().then(() => stdout.end()));
  });
  return { stdin, stdout };
}
