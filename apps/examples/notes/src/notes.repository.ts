/**
 * Where notes live: a Map in memory, optionally mirrored to one JSON file per note in a
 * directory. It knows nothing about MCP; the service is the only thing that talks to clients.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { Injectable } from '@typemcp/core';

/** One note. */
export interface Note {
  id: number;
  title: string;
  body: string;
  tags: string[];
  /** ISO 8601. */
  createdAt: string;
}

/** A note before it is stored: the repository assigns `id` and `createdAt`. */
export type NewNote = Pick<Note, 'title' | 'body' | 'tags'>;

/**
 * Configuration of {@link NotesRepository}. A plain class rather than an interface because the
 * DI container injects by type: createNotesServer() provides the value with `providers`.
 */
export class NotesConfig {
  /** Keep notes as `<id>.json` files here (the directory is the store); without it, notes live in memory only. */
  dataDir?: string;
  /** The notes an in-memory store starts with (default: {@link SAMPLE_NOTES}). */
  seed?: NewNote[];
}

/** What an in-memory store starts with, so a first run has something to search. */
export const SAMPLE_NOTES: NewNote[] = [
  { title: 'Welcome to TypeMCP notes', body: 'Search with search_notes, add with create_note, read notes://index.', tags: ['help'] },
  { title: 'Groceries', body: 'Milk, eggs, coffee beans, and bread for the weekend.', tags: ['home', 'shopping'] },
  { title: 'Release checklist', body: 'Run the tests, bump the version, write the changelog, tag the release.', tags: ['work'] },
];

/** Stores notes; injected into NotesService by the DI container. @publicApi */
@Injectable()
export class NotesRepository {
  private readonly notes = new Map<number, Note>();
  private nextId = 1;
  private readonly dataDir?: string;

  constructor(config: NotesConfig) {
    this.dataDir = config.dataDir;
    if (this.dataDir) {
      // Read once, synchronously, at start-up: every later read is a Map lookup.
      mkdirSync(this.dataDir, { recursive: true });
      for (const file of readdirSync(this.dataDir).filter((f) => /^\d+\.json$/.test(f))) {
        this.remember(JSON.parse(readFileSync(path.join(this.dataDir, file), 'utf8')) as Note);
      }
    } else {
      const now = new Date().toISOString();
      for (const note of config.seed ?? SAMPLE_NOTES) this.remember({ ...note, id: this.nextId, createdAt: now });
    }
  }

  /** Every note, oldest first. */
  all(): Note[] {
    return [...this.notes.values()];
  }

  find(id: number): Note | undefined {
    return this.notes.get(id);
  }

  /** Notes whose title or body contains every word of `query` (case-insensitive), optionally with `tag`. */
  search(query: string, tag?: string): Note[] {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const wanted = tag?.toLowerCase();
    return this.all().filter((note) => {
      const haystack = `${note.title}\n${note.body}`.toLowerCase();
      return words.every((w) => haystack.includes(w)) && (!wanted || note.tags.some((t) => t.toLowerCase() === wanted));
    });
  }

  async create(input: NewNote): Promise<Note> {
    const note: Note = { ...input, id: this.nextId, createdAt: new Date().toISOString() };
    if (this.dataDir) {
      // Write then rename: a crash mid-write never leaves a half-written note behind.
      const file = this.fileOf(note.id);
      await writeFile(`${file}.tmp`, JSON.stringify(note, null, 2));
      await rename(`${file}.tmp`, file);
    }
    this.remember(note);
    return note;
  }

  /** Removes a note; false when there was none. */
  async delete(id: number): Promise<boolean> {
    if (!this.notes.has(id)) return false;
    if (this.dataDir) await rm(this.fileOf(id), { force: true });
    return this.notes.delete(id);
  }

  private remember(note: Note): void {
    this.notes.set(note.id, note);
    this.nextId = Math.max(this.nextId, note.id + 1);
  }

  private fileOf(id: number): string {
    return path.join(this.dataDir!, `${id}.json`);
  }
}
