/**
 * The greeting service: a tool, a resource template with argument completion, and a prompt.
 * Each decorated method is served to MCP clients; its first DTO-typed parameter receives the
 * client's input, already converted and validated.
 */
import { Complete, McpService, Prompt, Resource, Tool } from '@typemcp/core';
import { GreetInput, LANGUAGES, PhraseParams, WelcomeArgs, type Language } from './greeting.dto.js';

const PHRASES: Record<Language, string> = { en: 'Hello', fr: 'Bonjour', es: 'Hola', de: 'Hallo' };

/** Greetings in a few languages. */
@McpService()
export class GreetingService {
  @Tool({ description: 'Greets someone by name in English, French, Spanish or German.', annotations: { readOnlyHint: true } })
  greet(input: GreetInput): string {
    return `${PHRASES[input.language ?? 'en']}, ${input.name}!`;
  }

  @Resource('greetings://{language}', { name: 'greeting-phrase', description: 'The greeting word of one language.', mimeType: 'text/plain' })
  phrase(params: PhraseParams): string {
    return PHRASES[params.language];
  }

  /** Suggests values for `{language}` as a client fills in the template. */
  @Complete({ resource: 'greetings://{language}', argument: 'language' })
  languages(value: string): string[] {
    return LANGUAGES.filter((code) => code.startsWith(value));
  }

  @Prompt({ name: 'welcome_message', description: 'Asks the model to write a short welcome message for someone joining a team.' })
  welcome(args: WelcomeArgs): string {
    return `Write a short, friendly message welcoming ${args.name} to ${args.team ?? 'the team'}. Keep it under 80 words.`;
  }
}
