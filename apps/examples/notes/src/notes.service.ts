/**
 * Everything the notes server exposes to MCP clients: four tools, a resource, a resource
 * template, a prompt and argument completion. Each method receives validated input and, when it
 * declares one, the request's Context.
 */
import {
  Complete,
  Context,
  embeddedResource,
  ErrorCode,
  McpError,
  McpService,
  Prompt,
  Resource,
  resourceLink,
  ResourceNotFoundError,
  Tool,
  ToolError,
  TypeMcpServer,
} from '@typemcp/core';
import { CreatedNote, CreateNoteInput, DeleteConfirmation, ExportNotesInput, NoteRef, ReviewNoteArgs, SearchNotesInput } from './notes.dto.js';
import { NotesRepository, type Note } from './notes.repository.js';

/** The Markdown list of every note. */
export const INDEX_URI = 'notes://index';

const noteUri = (id: number) => `notes://${id}`;

/** Waits `ms`; rejects with the signal's reason when it aborts first. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

function toMarkdown(note: Note): string {
  const tags = note.tags.length ? `Tags: ${note.tags.join(', ')}. ` : '';
  return `# ${note.title}\n\n${note.body}\n\n_${tags}Created ${note.createdAt}._\n`;
}

/** The notes tools, resources and prompt. @publicApi */
@McpService()
export class NotesService {
  constructor(
    private readonly notes: NotesRepository,
    // Injected by TypeMCP: used to tell subscribed clients that a resource changed.
    private readonly server: TypeMcpServer,
  ) {}

  @Tool({
    name: 'search_notes',
    title: 'Search notes',
    description: 'Finds notes whose title or body contains every word of the query; returns links to them (notes://<id>).',
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  search(input: SearchNotesInput, ctx: Context) {
    const found = this.notes.search(input.query, input.tag);
    const shown = found.slice(0, input.limit ?? 10);
    ctx.log.debug(`search_notes "${input.query}": ${found.length} match(es)`);
    const filter = `"${input.query}"${input.tag ? ` with tag "${input.tag}"` : ''}`;
    if (!shown.length) return `No note matches ${filter}.`;
    const more = found.length > shown.length ? ` (showing the first ${shown.length})` : '';
    return [
      `${found.length} note(s) match ${filter}${more}:`,
      ...shown.map((note) =>
        resourceLink({
          uri: noteUri(note.id),
          name: note.title,
          description: `Note ${note.id}${note.tags.length ? `, tags: ${note.tags.join(', ')}` : ''}`,
          mimeType: 'text/markdown',
        }),
      ),
    ];
  }

  @Tool({ name: 'create_note', title: 'Create a note', description: 'Stores a new note and returns its id.', output: CreatedNote })
  async create(input: CreateNoteInput, ctx: Context): Promise<CreatedNote> {
    const note = await this.notes.create({ title: input.title, body: input.body, tags: input.tags ?? [] });
    ctx.log.info(`created note ${note.id}`);
    this.server.notifyResourceUpdated(INDEX_URI);
    return { id: note.id, createdAt: note.createdAt };
  }

  @Tool({
    name: 'delete_note',
    title: 'Delete a note',
    description: 'Deletes a note by id. Clients that support elicitation ask the user to confirm first.',
    annotations: { destructiveHint: true, openWorldHint: false },
  })
  async delete(input: NoteRef, ctx: Context) {
    const note = this.mustFind(input.id);
    if (ctx.supports('elicitation')) {
      const answer = await ctx.elicit(`Delete note ${note.id} "${note.title}"?`, DeleteConfirmation);
      if (answer.action !== 'accept' || !answer.content.confirm) return `Kept note ${note.id}: the user did not confirm the deletion.`;
    }
    await this.notes.delete(note.id);
    ctx.log.notice(`deleted note ${note.id}`);
    this.server.notifyResourceUpdated(INDEX_URI);
    this.server.notifyResourceUpdated(noteUri(note.id));
    return `Deleted note ${note.id} "${note.title}".`;
  }

  /**
   * A long tool: `task: 'optional'` lets a client that can take a task get a handle at once and
   * poll (or come back after reconnecting over HTTP) while the export runs in the background.
   * The method is an ordinary one: progress, logs and cancellation (`ctx.signal`, aborted by
   * `tasks/cancel`) work the same either way.
   */
  @Tool({
    name: 'export_notes',
    title: 'Export every note',
    description: 'Renders every note into one Markdown digest, note by note, reporting progress. Long: runs as a task for clients that support tasks.',
    annotations: { readOnlyHint: true, openWorldHint: false },
    task: 'optional',
  })
  async export(input: ExportNotesInput, ctx: Context) {
    const notes = this.notes.all();
    const parts: string[] = [];
    for (const [i, note] of notes.entries()) {
      ctx.progress(i, notes.length, `exporting note ${note.id}`);
      await delay(input.msPerNote ?? 500, ctx.signal);
      parts.push(toMarkdown(note));
    }
    ctx.log.info(`exported ${notes.length} note(s)`);
    return `# Notes (${notes.length})\n\n${parts.join('\n\n---\n\n')}`;
  }

  @Tool({
    name: 'summarise_note',
    title: 'Summarise a note',
    description: "Summarises a note in one sentence with the client's own model (needs a client that supports sampling).",
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  async summarise(input: NoteRef, ctx: Context) {
    const note = this.mustFind(input.id);
    if (!ctx.supports('sampling')) {
      throw new ToolError(`This client does not support sampling, so the server cannot ask its model. Read ${noteUri(note.id)} and summarise it instead.`);
    }
    const reply = await ctx.sample(`Summarise this note in one sentence:\n\n${toMarkdown(note)}`, { maxTokens: 200 });
    // From 2025-11-25 the content may be a list of blocks.
    const summary = [reply.content]
      .flat()
      .flatMap((b) => (b.type === 'text' ? [b.text] : []))
      .join('\n');
    if (!summary) throw new ToolError("The client's model did not answer with text.");
    return summary;
  }

  @Resource(INDEX_URI, { name: 'notes-index', title: 'All notes', description: 'Every note as a Markdown list of links.', mimeType: 'text/markdown' })
  index() {
    const lines = this.notes.all().map((n) => `- [${n.title}](${noteUri(n.id)})${n.tags.length ? ` (${n.tags.join(', ')})` : ''}`);
    return `# Notes\n\n${lines.length ? lines.join('\n') : 'No notes yet.'}\n`;
  }

  @Resource('notes://{id}', { name: 'note', title: 'Note', description: 'One note as Markdown.', mimeType: 'text/markdown' })
  note(params: NoteRef) {
    const note = this.notes.find(params.id);
    // The engine answers it with the revision's "no such resource" code (-32002, or -32602 at 2026-07-28).
    if (!note) throw new ResourceNotFoundError(noteUri(params.id), `Note ${params.id} not found`);
    return toMarkdown(note);
  }

  @Prompt({ name: 'review_note', title: 'Review a note', description: 'Asks the model to review one note and suggest concrete improvements.' })
  review(args: ReviewNoteArgs) {
    const note = this.notes.find(args.noteId);
    if (!note) throw new McpError(ErrorCode.InvalidParams, `Note ${args.noteId} not found; complete the noteId argument to see the ids.`);
    return [
      { role: 'user' as const, content: embeddedResource(noteUri(note.id), { text: toMarkdown(note) }, 'text/markdown') },
      `Review the note above${args.focus ? `, focusing on ${args.focus}` : ''}. Suggest concrete improvements.`,
    ];
  }

  @Complete({ prompt: 'review_note', argument: 'noteId' })
  @Complete({ resource: 'notes://{id}', argument: 'id' })
  completeNoteId(value: string) {
    return this.notes
      .all()
      .map((n) => String(n.id))
      .filter((id) => id.startsWith(value));
  }

  /** The note, or a ToolError the model can act on. */
  private mustFind(id: number): Note {
    const note = this.notes.find(id);
    if (!note) throw new ToolError(`There is no note ${id}; search_notes or notes://index list the ids.`);
    return note;
  }
}
