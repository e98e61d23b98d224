/** Tools that ask the client: sampling, elicitation (form, SEP-1034 defaults, SEP-1330 enums), roots. */
import { Context, McpService, Tool, type ElicitResult, type JsonObject } from '@typemcp/core';
import { SamplingInput, ElicitationInput } from '../dto/inputs.dto.js';
import { ELICIT_DEFAULTS_SCHEMA, ELICIT_ENUMS_SCHEMA } from '../fixtures.js';

const summary = (r: ElicitResult<JsonObject>) => `action=${r.action}, content=${JSON.stringify(r.action === 'accept' ? r.content : {})}`;

@McpService()
export class ClientRequestsService {
  @Tool({ name: 'test_sampling', description: 'Tests server-initiated sampling (LLM completion request)' })
  async sampling(input: SamplingInput, ctx: Context) {
    const result = await ctx.sample(input.prompt, { maxTokens: 100 });
    const content = result.content as { text?: string } | undefined;
    return `LLM response: ${content?.text ?? 'No response'}`;
  }

  @Tool({ name: 'test_elicitation', description: 'Tests server-initiated elicitation (user input request)' })
  async elicitation(input: ElicitationInput, ctx: Context) {
    const result = await ctx.elicit(input.message, {
      type: 'object',
      properties: { response: { type: 'string', description: "User's response" } },
      required: ['response'],
    });
    return `User response: ${summary(result)}`;
  }

  @Tool({ name: 'test_elicitation_sep1034_defaults', description: 'Tests elicitation with default values per SEP-1034' })
  async defaults(ctx: Context) {
    return `Elicitation completed: ${summary(await ctx.elicit('Please review and update the form fields with defaults', ELICIT_DEFAULTS_SCHEMA))}`;
  }

  @Tool({ name: 'test_elicitation_sep1330_enums', description: 'Tests elicitation with enum schema improvements per SEP-1330' })
  async enums(ctx: Context) {
    return `Elicitation completed: ${summary(await ctx.elicit('Please select options from the enum fields', ELICIT_ENUMS_SCHEMA))}`;
  }

  @Tool({ name: 'test_list_roots', description: 'Asks the client for its roots and returns them as JSON' })
  async roots(ctx: Context) {
    return JSON.stringify({ roots: await ctx.roots() });
  }
}
