/**
 * addService() and removeService() after start-up: a service added later is checked like the
 * ones given to createServer() (@Complete targets included), and removing one takes its
 * completion handlers and the `completions` capability they implied with it.
 */
import { IsString } from 'class-validator';
import { Complete, createServer, DefinitionError, getMetadataStorage, McpService, Prompt, Tool, type TypeMcpServer } from '@typemcp/core';
import type { JsonObject } from '@typemcp/protocol';
import { MetaKey } from '@typemcp/protocol/internal';
import { MemoryPeer } from '../../protocol/test/support/memory-peer';

const servers: TypeMcpServer[] = [];
beforeEach(() => getMetadataStorage().reset());
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** server/discover (2026-07-28, on a fresh connection) derives capabilities on every call. */
async function capabilities(server: TypeMcpServer): Promise<JsonObject> {
  const peer = new MemoryPeer(server.engine);
  const meta = { [MetaKey.protocolVersion]: '2026-07-28', [MetaKey.clientCapabilities]: {}, [MetaKey.clientInfo]: { name: 't', version: '1' } };
  return (await peer.request('server/discover', { _meta: meta })).result!.capabilities as JsonObject;
}

function domain() {
  class GreetArgs {
    @IsString() name!: string;
  }

  @McpService()
  class Prompts {
    @Prompt({ description: 'Greets' })
    greet(args: GreetArgs) {
      return `Hello ${args.name}`;
    }
  }

  @McpService()
  class Names {
    @Complete({ prompt: 'greet', argument: 'name' })
    names(value: string) {
      return ['Ada', 'Alan'].filter((n) => n.startsWith(value));
    }
  }

  @McpService()
  class Stray {
    @Tool({ description: 'Would be served with the stray completion' })
    stray() {
      return 'stray';
    }

    @Complete({ prompt: 'no-such-prompt', argument: 'x' })
    nothing() {
      return [];
    }
  }
  return { Prompts, Names, Stray };
}

function serve(services: unknown[]) {
  const server = createServer({ name: 's', version: '1', services: services as never });
  servers.push(server);
  return { server, peer: new MemoryPeer(server.engine) };
}

describe('addService', () => {
  it('refuses a @Complete whose target no served service declares, exactly like createServer, and serves nothing of it', async () => {
    const { Prompts, Stray } = domain();
    expect(() => createServer({ name: 's', version: '1', services: [Prompts, Stray] })).toThrow(
      expect.objectContaining({ code: 'TYPEMCP_ERR_UNKNOWN_COMPLETION_TARGET' }),
    );
    const { server, peer } = serve([Prompts]);
    let thrown: unknown;
    try {
      server.addService(Stray);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DefinitionError);
    expect(thrown).toMatchObject({ code: 'TYPEMCP_ERR_UNKNOWN_COMPLETION_TARGET', message: expect.stringContaining('no-such-prompt') });
    await peer.initialize();
    expect(server.engine.registry.tool('stray')).toBeUndefined();
    expect((await peer.request('tools/list')).result).toEqual({ tools: [] });
  });

  it('accepts a @Complete for a prompt of a service already served, and announces completions', async () => {
    const { Prompts, Names } = domain();
    const { server } = serve([Prompts]);
    expect(await capabilities(server)).not.toHaveProperty('completions');
    server.addService(Names);
    expect(await capabilities(server)).toHaveProperty('completions');
  });
});

describe('removeService', () => {
  it('removes the completion handlers and the completions capability with the service', async () => {
    const { Prompts, Names } = domain();
    const { server, peer } = serve([Prompts, Names]);
    await peer.initialize();
    const complete = async () =>
      (await peer.request('completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'A' } })).result;
    expect(await complete()).toEqual({ completion: { values: ['Ada', 'Alan'] } });
    expect(await capabilities(server)).toHaveProperty('completions');

    expect(server.removeService(Names)).toBe(true);
    expect(await complete()).toEqual({ completion: { values: [] } });
    expect(await capabilities(server)).not.toHaveProperty('completions');

    server.addService(Names);
    expect(await complete()).toEqual({ completion: { values: ['Ada', 'Alan'] } });
    expect(await capabilities(server)).toHaveProperty('completions');
  });
});
