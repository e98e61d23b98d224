/** Builds the notes server; main.ts serves it over stdio, tests connect to it in memory. */
import { createServer, type StructuredLogger, type TypeMcpServer } from '@typemcp/core';
import { AuditInterceptor } from './audit.interceptor.js';
import { NotesConfig, type NewNote } from './notes.repository.js';
import { NotesService } from './notes.service.js';

/** Options of {@link createNotesServer}. */
export interface NotesServerOptions {
  /** Keep notes as JSON files in this directory (created if missing); default: in memory only. */
  dataDir?: string;
  /** The notes an in-memory store starts with (default: a few samples). */
  seed?: NewNote[];
  /**
   * OpenTelemetry spans and metrics (`@typemcp/otel`; the process registers the SDK); default: on
   * when the environment variable TYPEMCP_TELEMETRY is `1`.
   */
  telemetry?: boolean;
  /** A structured logger (pino, or anything of its shape): audit records of every call, and the server's own diagnostics. */
  logger?: StructuredLogger;
}

/** A notes server, ready to `listen()`. @publicApi */
export function createNotesServer(options: NotesServerOptions = {}): TypeMcpServer {
  return createServer({
    name: 'typemcp-notes',
    title: 'Notes',
    version: '0.1.0',
    description: 'A small notes store: search, create, delete and summarise notes',
    instructions: 'The user keeps notes here. Search before creating a note to avoid duplicates; note ids come from search_notes or notes://index.',
    services: [NotesService],
    // Every call goes through the audit interceptor (a no-op without a logger).
    interceptors: [AuditInterceptor],
    logger: options.logger,
    // NotesRepository asks for a NotesConfig; this is where its value comes from.
    providers: [{ provide: NotesConfig, useValue: Object.assign(new NotesConfig(), { dataDir: options.dataDir, seed: options.seed }) }],
    telemetry: options.telemetry ?? process.env.TYPEMCP_TELEMETRY === '1',
  });
}
