// The JSON-RPC answer in an HTTP body: the one plain JSON message, or the first SSE `data:` event
// that carries a result or an error.
export function answerIn(contentType, text) {
  if (!(contentType ?? '').includes('text/event-stream')) return JSON.parse(text);
  return text
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice(5).trim())
    .filter(Boolean)
    .map((d) => JSON.parse(d))
    .find((m) => 'result' in m || 'error' in m);
}
