/** Input DTOs of the everything server's tools: the JSON Schemas clients see come from these. */
import { IsInt, IsNumber, IsOptional, IsString, Max, Min } from 'class-validator';
import { Description } from '@typemcp/core';

export class AddInput {
  @IsNumber() @Description('First addend') a!: number;
  @IsNumber() @Description('Second addend') b!: number;
}

export class SamplingInput {
  @IsString() @Description('The prompt to send to the LLM') prompt!: string;
}

export class ElicitationInput {
  @IsString() @Description('The message to show the user') message!: string;
}

export class SlowInput {
  @IsOptional() @IsInt() @Min(0) @Max(60000) @Description('How long to wait, in ms') durationMs?: number = 10000;
}

export class WatchedUpdateInput {
  @IsOptional() @IsString() @Description('The new content') text?: string;
}

export class WeatherOutput {
  @IsNumber() temperature!: number;
  @IsString() conditions!: string;
}

export class TemplateParams {
  @IsString() @Description('Any id') id!: string;
}

export class PromptWithArguments {
  @IsString() @Description('First test argument', { title: 'First argument' }) arg1!: string;
  @IsString() @Description('Second test argument', { title: 'Second argument' }) arg2!: string;
}

export class EmbeddedResourceArgs {
  @IsString() @Description('URI of the resource to embed') resourceUri!: string;
}

export class ShowCounterInput {
  @IsOptional() @IsInt() @Min(-1_000_000) @Max(1_000_000) @Description('The count to start from (default: the current count)') start?: number;
}

export class IncrementCounterInput {
  @IsOptional() @IsInt() @Min(-1000) @Max(1000) @Description('How much to add (default 1)') by?: number;
}
