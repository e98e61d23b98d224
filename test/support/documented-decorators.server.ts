/**
 * A server using every decorator the READMEs document, and the other class-validator decorators
 * the schema generator maps to a typed schema: the fixture of the schema portability test (and of
 * a manual run of the Inspector's `--strict`: `node -r ts-node/register/transpile-only
 * test/support/documented-decorators.server.ts`). Decorators that accept any value (`@Allow()`,
 * `@IsDefined()`, `@IsNotEmpty()` alone, `@IsArray()` without an element rule, a `@ValidateIf`
 * field) are left out: their schema is open on purpose, which the Inspector reports as untyped.
 */
import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsBase64,
  IsBoolean,
  IsDate,
  IsDateString,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsIP,
  IsISO8601,
  IsNegative,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import {
  Complete,
  createServer,
  Description,
  Injectable,
  McpService,
  Nullable,
  Prompt,
  Resource,
  Tool,
  UseInterceptors,
  type TypeMcpServer,
} from '@typemcp/core';
import type { CallNext, Interceptor, InterceptorCall } from '@typemcp/core';

enum Priority {
  Low = 1,
  High = 2,
}

class Person {
  @IsString() @MinLength(1) @Description('Who') name!: string;
  @IsOptional() @IsEmail() email?: string;
}

class TaskInput {
  @IsString() @Length(1, 80) @Description('What to do', { title: 'Title' }) title!: string;
  @IsOptional() @IsInt() @Min(1) @Max(50) limit?: number = 10;
  @IsNumber() ratio!: number;
  @IsOptional() @IsPositive() weight?: number;
  @IsOptional() @IsNegative() offset?: number;
  @IsBoolean() urgent!: boolean;
  @IsUrl() link!: string;
  @IsISO8601() due!: string;
  @IsOptional() @IsDateString() on?: string;
  @IsDate() @Type(() => Date) at!: Date;
  @IsEnum(Priority) priority!: Priority;
  @IsIn(['todo', 'done']) state!: string;
  @IsOptional() @IsUUID() id?: string;
  @IsOptional() @IsIP() host?: string;
  @IsOptional() @IsBase64() blob?: string;
  @IsOptional() @Matches(/^[A-Z]{3}$/) code?: string;
  @IsOptional() @MaxLength(200) @IsString() note?: string;
  @IsString({ each: true }) @ArrayMinSize(1) @ArrayMaxSize(5) tags!: string[];
  @ValidateNested() @Type(() => Person) owner!: Person;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Person) watchers?: Person[];
  @Nullable() @IsString() @Description('Nullable scalar') comment!: string | null;
  @IsOptional() @Nullable() @IsInt() @Min(0) estimate?: number | null;
  @IsOptional() @Nullable() @IsIn(['a', 'b']) letter?: string | null;
  @IsOptional() @Nullable() @ValidateNested() @Type(() => Person) assignee?: Person | null;
}

class TaskOutput {
  @IsInt() id!: number;
  @IsISO8601() savedAt!: string;
  @IsDate() @Type(() => Date) at!: Date;
  @Nullable() @IsISO8601() doneAt!: string | null;
  @ValidateNested() @Type(() => Person) owner!: Person;
}

class NoteRef {
  @IsInt() @Min(1) id!: number;
}

class ReviewArgs {
  @IsString() noteId!: string;
  @IsOptional() @IsString() tone?: string;
}

@Injectable()
class Timing implements Interceptor {
  intercept(_call: InterceptorCall, next: CallNext) {
    return next();
  }
}

@McpService()
@UseInterceptors(Timing)
class DocumentedService {
  @Tool({ description: 'Saves a task', output: TaskOutput })
  save(input: TaskInput): TaskOutput {
    return { id: 1, savedAt: new Date(0).toISOString(), at: input.at, doneAt: null, owner: input.owner };
  }

  @Tool({ description: 'Raw JSON Schema input', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } })
  raw(input: Record<string, unknown>) {
    return JSON.stringify(input);
  }

  @Tool({ description: 'No input at all' })
  ping() {
    return 'pong';
  }

  @Resource('notes://{id}', { description: 'One note', mimeType: 'text/plain' })
  note(params: NoteRef) {
    return `note ${params.id}`;
  }

  @Prompt({ description: 'Drafts a review' })
  review(args: ReviewArgs) {
    return `Review ${args.noteId} (${args.tone ?? 'friendly'})`;
  }

  @Complete({ prompt: 'review', argument: 'noteId' })
  noteIds(value: string) {
    return ['1', '2'].filter((id) => id.startsWith(value));
  }
}

/** The fixture server. */
export function createDocumentedServer(): TypeMcpServer {
  return createServer({ name: 'documented-decorators', version: '1.0.0', services: [DocumentedService] });
}

if (require.main === module) void createDocumentedServer().listen({ transport: 'stdio' });
