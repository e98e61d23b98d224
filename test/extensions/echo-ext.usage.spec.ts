import { IsString } from 'class-validator';
import { Context, McpService, Tool } from '@typemcp/core';
import { createTestClient, textOf } from '@typemcp/testing';
import { ECHO_EXT, Echo, echoExtension, EchoSource } from './echo-ext.extension';

class ShoutInput {
  @IsString() text!: string;
}

@McpService()
class EchoService {
  @Tool({ description: 'Shouts its text' })
  @Echo({ label: 'loud' })
  shout(input: ShoutInput) {
    return input.text.toUpperCase();
  }

  @EchoSource()
  greeting(ctx: Context) {
    return `hello ${ctx.clientInfo?.name ?? 'stranger'}`;
  }
}

it.each(['2025-11-25', '2026-07-28'])('serves com.example/echo-ext at %s', async (revision) => {
  const client = await createTestClient({
    revision,
    services: [EchoService],
    extensions: [echoExtension({ maxLength: 40 })],
    clientExtensions: { [ECHO_EXT]: { prefix: '>> ' } },
  });
  try {
    expect(client.serverCapabilities.extensions).toEqual({ [ECHO_EXT]: { maxLength: 40 } });
    expect((await client.listTools())[0]._meta).toEqual({ [ECHO_EXT]: { label: 'loud' } });
    expect(await client.call('echo/say', { text: 'hi' })).toEqual({ text: '>> hi' });
    expect(await client.call('echo/history')).toEqual({ entries: [{ source: 'EchoService.greeting', text: 'hello typemcp-test-client' }] });
    expect(textOf(await client.callTool('shout', { text: 'hi' }))).toBe('HI');
  } finally {
    await client.close();
  }
});
