// Minimal JSON-RPC-over-stdio client for benchmarking: spawns a server child process,
// frames its stdout with a linear-time line buffer and dispatches responses by id.
// Callback-based on the hot path; writes issued while dispatching one stdout chunk are
// corked and flushed together so the client stays cheap under pipelining.
import { spawn } from 'node:child_process';
import { serverEnv } from './process.mjs';

export const PROTOCOL_VERSION = '2025-06-18';

export class StdioClient {
  constructor(name, command, args, { cwd, stderr = 'inherit' } = {}) {
    this.name = name;
    this.pending = new Map(); // id -> callback(msg)
    this.nextIdValue = 1;
    this.exited = false;
    this.child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', stderr], env: serverEnv() });
    this.child.stdin.on('error', () => {}); // EPIPE after a crash surfaces via 'exit'
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      this.failAll(`${name}: server exited (code ${code}, signal ${signal})`);
    });
    this.chunks = [];
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk) => this.onData(chunk));
  }

  onData(chunk) {
    const stdin = this.child.stdin;
    stdin.cork();
    try {
      this.frame(chunk);
    } finally {
      stdin.uncork();
    }
  }

  frame(chunk) {
    let start = 0;
    let nl;
    while ((nl = chunk.indexOf('\n', start)) !== -1) {
      let line = chunk.slice(start, nl);
      if (this.chunks.length > 0) {
        this.chunks.push(line);
        line = this.chunks.join('');
        this.chunks = [];
      }
      start = nl + 1;
      if (line.length > 0) this.onLine(line);
    }
    if (start < chunk.length) this.chunks.push(start === 0 ? chunk : chunk.slice(start));
  }

  onLine(line) {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      this.failAll(`${this.name}: non-JSON line on stdout: ${line.slice(0, 200)}`);
      this.killNow();
      return;
    }
    if (msg.id === undefined || msg.id === null) return; // server notification / log
    const cb = this.pending.get(msg.id);
    if (!cb) return;
    this.pending.delete(msg.id);
    cb(msg);
  }

  failAll(message) {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const cb of pending) cb({ error: { message } });
  }

  nextId() {
    return this.nextIdValue++;
  }

  /** Send a pre-serialised request (string or Buffer, INCLUDING the trailing newline); cb(msg) on response. */
  sendLine(id, data, cb) {
    if (this.exited) return cb({ error: { message: `${this.name}: server is not running` } });
    this.pending.set(id, cb);
    this.child.stdin.write(data);
  }

  request(method, params, cb) {
    const id = this.nextId();
    this.sendLine(id, JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n', cb);
  }

  requestAsync(method, params) {
    return new Promise((resolve, reject) =>
      this.request(method, params, (msg) => (msg.error ? reject(rpcError(this.name, method, msg.error)) : resolve(msg.result))),
    );
  }

  notify(method, params) {
    this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method, params }) + '\n');
  }

  async initialize() {
    const result = await this.requestAsync('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'typemcp-bench', version: '1.0.0' },
    });
    this.notify('notifications/initialized');
    return result;
  }

  /** Close stdin, give the child a moment to exit, then SIGKILL it. */
  async close(graceMs = 1000) {
    if (this.exited) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }

  killNow() {
    if (!this.exited) this.child.kill('SIGKILL');
  }
}

export function rpcError(name, method, error) {
  return new Error(`${name}: ${method} returned error ${JSON.stringify(error).slice(0, 500)}`);
}
