/**
 * What the protected server offers, and which OAuth scopes each part needs: `notes:read` for
 * everything in the class (`@McpService({ scopes })`), `notes:write` on top for adding a note and
 * for the prompt that drafts one. A caller whose token lacks a scope does not see the feature in
 * its lists and gets `403 insufficient_scope` naming the scopes to ask for (step-up).
 */
import { Context, Description, Injectable, McpService, Prompt, Resource, Tool, ToolError } from '@typemcp/core';
import type { VerifiedPrincipal } from '@typemcp/http';
import { IsInt, IsString, MaxLength, Min, MinLength } from 'class-validator';

/** The notes, in memory, per user (the token's subject). */
@Injectable()
export class NotesStore {
  private readonly byUser = new Map<string, string[]>();

  of(user: string): string[] {
    let notes = this.byUser.get(user);
    if (!notes) this.byUser.set(user, (notes = []));
    return notes;
  }
}

export class AddNoteInput {
  @IsString() @MinLength(1) @MaxLength(500) @Description('The note') text!: string;
}

export class NoteRef {
  @IsInt() @Min(1) index!: number;
}

export class DraftArgs {
  @IsString() @MinLength(1) @Description('What the note is about') topic!: string;
}

/** The user a verified access token speaks for (`sub`, else the client of a client-credentials token). */
function userOf(ctx: Context): string {
  const principal = ctx.principal as VerifiedPrincipal;
  return principal.subject ?? principal.clientId ?? 'unknown';
}

/** The protected notes. @publicApi */
@McpService({ scopes: ['notes:read'] })
export class NotesService {
  constructor(private readonly store: NotesStore) {}

  @Tool({ name: 'list_notes', description: "Lists the caller's notes", annotations: { readOnlyHint: true } })
  list(ctx: Context) {
    const notes = this.store.of(userOf(ctx));
    return notes.length ? notes.map((n, i) => `${i + 1}. ${n}`).join('\n') : 'No notes yet.';
  }

  @Tool({ name: 'add_note', description: 'Adds a note', scopes: ['notes:write'] })
  add(input: AddNoteInput, ctx: Context) {
    const notes = this.store.of(userOf(ctx));
    notes.push(input.text);
    return `Added note ${notes.length}.`;
  }

  @Tool({ name: 'whoami', description: 'Who the access token says the caller is, and what it may do', annotations: { readOnlyHint: true } })
  whoami(ctx: Context) {
    const { issuer, subject, clientId, scopes } = ctx.principal as VerifiedPrincipal;
    return JSON.stringify({ issuer, subject, clientId, scopes });
  }

  @Resource('notes://{index}', { description: 'One note of the caller', mimeType: 'text/plain' })
  note(ref: NoteRef, ctx: Context) {
    const text = this.store.of(userOf(ctx))[ref.index - 1];
    if (text === undefined) throw new ToolError(`There is no note ${ref.index}`);
    return text;
  }

  @Prompt({ name: 'draft_note', description: 'Asks the model to draft a note and add it', scopes: ['notes:write'] })
  draft(args: DraftArgs) {
    return `Draft a short note about ${args.topic}, then add it with the add_note tool.`;
  }
}
