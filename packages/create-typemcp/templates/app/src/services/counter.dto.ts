/** What clients (and the counter's view) send: the JSON Schemas clients see and the validators in one. */
import { Description } from '@typemcp/core';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** Input of `show_counter`. */
export class ShowCounterInput {
  @IsOptional() @IsInt() @Min(-1_000_000) @Max(1_000_000) @Description('The count to start from (default: the current count)')
  start?: number;
}

/** Input of `increment_counter`. */
export class IncrementInput {
  @IsOptional() @IsInt() @Min(-1000) @Max(1000) @Description('How much to add (default 1)')
  by?: number;
}
