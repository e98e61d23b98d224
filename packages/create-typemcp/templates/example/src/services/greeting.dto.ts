/**
 * What clients send to the greeting service. Each class is both the JSON Schema clients see and
 * the validator that runs before a method is called: methods only ever receive valid input.
 */
import { Description } from '@typemcp/core';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/** The languages the greeting service speaks. */
export const LANGUAGES = ['en', 'fr', 'es', 'de'] as const;

/** One of {@link LANGUAGES}. */
export type Language = (typeof LANGUAGES)[number];

/** Input of the `greet` tool. */
export class GreetInput {
  @IsString() @MinLength(1) @MaxLength(100) @Description('Who to greet')
  name!: string;

  @IsOptional() @IsIn(LANGUAGES) @Description('Language of the greeting: en (default), fr, es or de')
  language?: Language;
}

/** The variable of the `greetings://{language}` resource template. */
export class PhraseParams {
  @IsIn(LANGUAGES) @Description('A language code: en, fr, es or de')
  language!: Language;
}

/** Arguments of the `welcome_message` prompt (prompt arguments are strings). */
export class WelcomeArgs {
  @IsString() @MinLength(1) @Description('The person joining')
  name!: string;

  @IsOptional() @IsString() @Description('The team they join')
  team?: string;
}
