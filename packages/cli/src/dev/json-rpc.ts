/** The little of JSON-RPC both dev relays read: which messages a line or body holds, and errors for requests. */

/** A JSON-RPC message as the relays see it: only the fields they route by. */
export type Message = {
  id?: string | number | null;
  method?: string;
  result?: { capabilities?: Record<string, { listChanged?: boolean } | undefined>; protocolVersion?: string };
};

/** JSON-RPC "internal error": what a request the server cannot answer (restart, crash) gets. */
export const UNAVAILABLE = -32603;

/** What a restart does to a request the old process had not answered. */
export const RESTARTED = 'typemcp dev: the server restarted before answering; send the request again';

/** What every request gets while the server is down (it exited and waits for a change). */
export function downMessage(reason: string): string {
  return `typemcp dev: the server is not running (${reason}); fix it and save a file to restart it`;
}

/** The messages of a line or body (one, or a batch); none when it is not JSON. */
export function parseMessages(text: string): Message[] {
  try {
    const value: unknown = JSON.parse(text);
    return (Array.isArray(value) ? value : [value]).filter((m): m is Message => typeof m === 'object' && m !== null);
  } catch {
    return [];
  }
}

/** Whether a message is a request (it has a method and an id, so it needs an answer). */
export const isRequest = (m: Message): boolean => Boolean(m.method) && m.id !== undefined && m.id !== null;

/** Whether a message is an answer (a result or an error, with an id). */
export const isAnswer = (m: Message): boolean => !m.method && m.id !== undefined && m.id !== null;

/** An error answer to the request with `id`. */
export function errorAnswer(id: string | number, message: string): object {
  return { jsonrpc: '2.0', id, error: { code: UNAVAILABLE, message } };
}

/** The `list_changed` notifications a server that declared them sends after a restart (its lists may have changed). */
export function listChanges(capabilities: Record<string, { listChanged?: boolean } | undefined> = {}): object[] {
  return ['tools', 'resources', 'prompts']
    .filter((kind) => capabilities[kind]?.listChanged)
    .map((kind) => ({ jsonrpc: '2.0', method: `notifications/${kind}/list_changed` }));
}

/** An SSE event carrying one JSON-RPC message. */
export const sseEvent = (message: object): string => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
