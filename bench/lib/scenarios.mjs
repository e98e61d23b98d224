// Benchmark scenarios against one StdioClient: sequential calls, a fixed number of calls in
// flight (pipelining), and large padded requests. Every `add` response is checked (a + b).
import { summarize, median } from './stats.mjs';

const now = process.hrtime.bigint;

function addLine(id, a, b) {
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"add","arguments":{"a":${a},"b":${b}}}}\n`;
}

/**
 * A tools/call add request whose serialised line (incl. '\n') is exactly `size` bytes. The bulk
 * rides in `params._meta`, which every server must accept, not in the arguments, where a server
 * may refuse a field its tool does not declare (TypeMCP does by default).
 */
function bigLine(id, a, b, size) {
  const head = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"add","arguments":{"a":${a},"b":${b}},"_meta":{"pad":"`;
  const tail = '"}}}\n';
  const buf = Buffer.alloc(size, 'x');
  buf.write(head, 0, 'latin1');
  buf.write(tail, size - tail.length, 'latin1');
  return buf;
}

/** Returns an Error if `msg` is not a correct add result for a + b, else null. */
function checkAdd(name, msg, a, b) {
  if (msg.error) return new Error(`${name}: tools/call add returned error ${JSON.stringify(msg.error).slice(0, 500)}`);
  const text = msg.result?.content?.[0]?.text;
  if (msg.result?.isError || text !== String(a + b)) {
    return new Error(`${name}: wrong add result for ${a}+${b}: ${JSON.stringify(msg.result).slice(0, 500)}`);
  }
  return null;
}

function callChecked(client, id, data, a, b) {
  return new Promise((resolve, reject) =>
    client.sendLine(id, data, (msg) => {
      const err = checkAdd(client.name, msg, a, b);
      if (err) reject(err);
      else resolve();
    }),
  );
}

/** n sequential calls, one in flight. */
export async function runSeq(client, n) {
  const { lat, elapsedNs } = await seqSamples(client, n);
  return summarize(lat, elapsedNs);
}

/** n sequential calls, one in flight: each call's µs and the time they took together (ns). */
export async function seqSamples(client, n) {
  const lat = new Float64Array(n);
  const t0 = now();
  for (let i = 0; i < n; i++) {
    const id = client.nextId();
    const line = addLine(id, i, 7);
    const s = now();
    await callChecked(client, id, line, i, 7);
    lat[i] = Number(now() - s) / 1e3;
  }
  return { lat, elapsedNs: now() - t0 };
}

/**
 * Sequential calls side by side: `n` per server, run as slices of `slice` calls that take turns
 * across the servers (the order rotated every slice), so that a slow spell of the machine, which
 * lasts longer than one slice, falls on every server alike instead of on whichever ran then.
 * `run(server, fn)` runs one slice (timeouts and failures are the caller's); a server whose slice
 * fails leaves the rotation. Returns the summaries by server.
 */
export async function runSeqSliced(servers, n, slice, run) {
  const parts = new Map(servers.map((s) => [s, { lat: [], elapsedNs: 0n }]));
  for (let k = 0; k * slice < n; k++) {
    const size = Math.min(slice, n - k * slice);
    const live = [...parts.keys()];
    for (let i = 0; i < live.length; i++) {
      const server = live[(i + k) % live.length];
      const part = parts.get(server);
      const done = await run(server, (client) => seqSamples(client, size));
      if (!done) {
        parts.delete(server);
        continue;
      }
      part.lat.push(done.lat);
      part.elapsedNs += done.elapsedNs;
    }
  }
  const out = new Map();
  for (const [server, part] of parts) {
    const all = new Float64Array(part.lat.reduce((sum, l) => sum + l.length, 0));
    let at = 0;
    for (const l of part.lat) all.set(l, (at += l.length) - l.length);
    out.set(server, summarize(all, part.elapsedNs));
  }
  return out;
}

/** n calls with exactly `depth` in flight: a new call is sent each time one completes. */
export function runPipe(client, n, depth) {
  return new Promise((resolve, reject) => {
    const lat = new Float64Array(n);
    let sent = 0;
    let done = 0;
    let failed = false;
    const t0 = now();
    const send = () => {
      const i = sent++;
      const id = client.nextId();
      const line = addLine(id, i, 3);
      const s = now();
      client.sendLine(id, line, (msg) => {
        lat[i] = Number(now() - s) / 1e3;
        if (failed) return;
        const err = checkAdd(client.name, msg, i, 3);
        if (err) {
          failed = true;
          return reject(err);
        }
        if (++done === n) return resolve(summarize(lat, now() - t0));
        if (sent < n) send();
      });
    };
    for (let k = 0; k < Math.min(depth, n); k++) send();
  });
}

/** m sequential round trips of a `size`-byte request; returns the median ms per round trip. */
export async function runBig(client, size, m) {
  const times = [];
  for (let i = 0; i < m; i++) {
    const id = client.nextId();
    const data = bigLine(id, i, 5, size);
    const s = now();
    await callChecked(client, id, data, i, 5);
    times.push(Number(now() - s) / 1e6);
  }
  return { ms: median(times) };
}
