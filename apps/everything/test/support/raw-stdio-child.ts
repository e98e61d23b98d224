/**
 * The everything server as a real child process spoken to in raw newline-delimited JSON, for
 * the inputs an SDK client would never send.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const MAIN = join(__dirname, '../../dist/main.js');

export type Json = Record<string, unknown>;

export class RawStdioChild {
  readonly proc: ChildProcessWithoutNullStreams;
  /** Every stdout line, unparsed. */
  readonly lines: string[] = [];
  stderr = '';
  private buffer = '';
  private listeners: (() => void)[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor() {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" first`);
    this.proc = spawn(process.execPath, [MAIN, '--transport', 'stdio'], { stdio: 'pipe' });
    this.proc.stdout.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        this.lines.push(this.buffer.slice(0, nl));
        this.buffer = this.buffer.slice(nl + 1);
      }
      for (const l of this.listeners.splice(0)) l();
    });
    this.proc.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => this.proc.once('exit', (code, signal) => resolve({ code, signal })));
  }

  /** Every stdout line parsed (throws if any line is not JSON). */
  get messages(): Json[] {
    return this.lines.map((l) => JSON.parse(l) as Json);
  }

  write(text: string): void {
    this.proc.stdin.write(text);
  }

  send(value: unknown): void {
    this.write(JSON.stringify(value) + '\n');
  }

  /** Waits until a message matching `test` has arrived. */
  async waitFor(test: (m: Json) => boolean, timeoutMs = 5000): Promise<Json> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(test);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching message; stdout so far:\n${this.lines.join('\n')}`);
      await new Promise<void>((resolve) => {
        this.listeners.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  async request(id: string | number, method: string, params?: Json): Promise<Json> {
    this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    return this.waitFor((m) => m.id === id);
  }

  async initialize(protocolVersion = '2025-11-25'): Promise<Json> {
    const response = await this.request('init', 'initialize', {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response;
  }

  kill(): void {
    if (this.proc.exitCode === null) this.proc.kill('SIGKILL');
  }
}
