import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@typemcp/protocol';

/**
 * The text of a result, blocks joined with a newline: the text blocks of a tool result, the
 * text contents of a resource, the text messages of a prompt. Other blocks are skipped.
 * @publicApi
 */
export function textOf(result: CallToolResult | ReadResourceResult | GetPromptResult): string {
  const texts: string[] = [];
  if ('content' in result) for (const block of result.content) if (block.type === 'text') texts.push(block.text);
  if ('contents' in result) for (const item of result.contents) if ('text' in item) texts.push(item.text);
  if ('messages' in result) for (const m of result.messages) if (m.content.type === 'text') texts.push(m.content.text);
  return texts.join('\n');
}
