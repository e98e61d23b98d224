/**
 * The shapes clients send and receive. Each class is both the JSON Schema clients see and the
 * validator that runs before a method is called: the method only ever gets valid input.
 */
import { Description } from '@typemcp/core';
import { IsArray, IsBoolean, IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';

/** Input of `search_notes`. */
export class SearchNotesInput {
  @IsString()
  @MinLength(1)
  @Description('Words that must all appear in the title or body')
  query!: string;

  @IsOptional()
  @IsString()
  @Description('Only notes carrying this tag')
  tag?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  @Description('At most this many notes (default 10)')
  limit?: number;
}

/** Input of `create_note`. */
export class CreateNoteInput {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @Description('A short title')
  title!: string;

  @IsString()
  @Description('The note itself (Markdown)')
  body!: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Description('Labels to find the note by later')
  tags?: string[];
}

/** What `create_note` returns: becomes the tool's `outputSchema` and `structuredContent`. */
export class CreatedNote {
  @IsInt()
  @Description('The new note id')
  id!: number;

  @IsISO8601()
  @Description('When the note was stored (ISO 8601)')
  createdAt!: string;
}

/**
 * One note by id: the input of `delete_note` and `summarise_note`, and the variables of the
 * `notes://{id}` template (where `id` arrives as a string and is converted to a number).
 */
export class NoteRef {
  @IsInt()
  @Min(1)
  @Description('The note id, as listed by search_notes or notes://index')
  id!: number;
}

/** The form `delete_note` shows the user before deleting. */
export class DeleteConfirmation {
  @IsBoolean()
  @Description('Delete this note for good?', { title: 'Delete' })
  confirm!: boolean;
}

/** Arguments of the `review_note` prompt (prompt arguments are strings; `noteId` is converted). */
export class ReviewNoteArgs {
  @IsInt()
  @Min(1)
  @Description('The note to review')
  noteId!: number;

  @IsOptional()
  @IsString()
  @Description('What to pay attention to, e.g. "clarity" or "missing steps"')
  focus?: string;
}

/** Input of `export_notes`. */
export class ExportNotesInput {
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(5000)
  @Description('Time spent on each note, in ms (default 500): stands for real work such as rendering or uploading')
  msPerNote?: number;
}
