/** Builds the notes server; main.ts serves it over stdio, tests connect to it in memory. */
import { createServer, type TypeMcpServer } from '@typemcp/core';
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
    // NotesRepository asks for a NotesConfig; this is where its value comes from.
    providers: [{ provide: NotesConfig, useValue: Object.assign(new NotesConfig(), options) }],
    telemetry: options.telemetry ?? process.env.TYPEMCP_TELEMETRY === '1',
  });
}
