/** A minimal service: one tool. Add more with `npx typemcp add tool|resource|prompt <name>`. */
import { McpService, Tool } from '@typemcp/core';
import { EchoInput } from './echo.dto.js';

/** Sends text back. */
@McpService()
export class EchoService {
  @Tool({ description: 'Sends the given text back unchanged.', annotations: { readOnlyHint: true } })
  echo(input: EchoInput): string {
    return input.text;
  }
}
