/**
 * A small decorated domain for the kit's tests, declared by a function so each test can reset
 * the metadata storage and declare it afresh (decorators record when a class is defined).
 */
import { IsBoolean, IsInt, IsString, Min } from 'class-validator';
import { Complete, Context, Description, ErrorCode, Injectable, McpError, McpService, Prompt, Resource, Tool, ToolError, TypeMcpServer } from '@typemcp/core';

export function defineFixture() {
  @Injectable()
  class ItemStore {
    items = ['apple', 'banana', 'cherry'];
    list(): string[] {
      return this.items;
    }
  }

  class AddInput {
    @IsInt() @Description('First addend') a!: number;
    @IsInt() @Description('Second addend') b!: number;
  }

  class Sum {
    @IsInt() sum!: number;
  }

  class Steps {
    @IsInt() @Min(1) steps!: number;
  }

  class ItemRef {
    @IsInt() @Min(0) index!: number;
  }

  class GreetArgs {
    @IsString() @Description('Who to greet') name!: string;
  }

  class Confirm {
    @IsBoolean() @Description('Go ahead?') ok!: boolean;
  }

  @McpService()
  class ShopService {
    constructor(
      readonly store: ItemStore,
      readonly server: TypeMcpServer,
    ) {}

    @Tool({ title: 'Add', description: 'Adds two integers', output: Sum, annotations: { readOnlyHint: true } })
    add(input: AddInput): Sum {
      return { sum: input.a + input.b };
    }

    @Tool({ description: 'Lists the items of the store' })
    items() {
      return this.store.list().join(', ');
    }

    @Tool({ description: 'Reports progress and logs at two levels' })
    work(input: Steps, ctx: Context) {
      ctx.log.debug('starting');
      for (let i = 1; i <= input.steps; i++) ctx.progress(i, input.steps, `step ${i}`);
      ctx.log.info(`did ${input.steps} steps`);
      return 'done';
    }

    @Tool({ description: 'Always fails with a message for the model' })
    fail() {
      throw new ToolError('This tool always fails');
    }

    @Tool({ description: "Asks the client's model" })
    async ask(ctx: Context) {
      const reply = await ctx.sample('Say hi', { maxTokens: 10 });
      return [reply.content]
        .flat()
        .flatMap((b) => (b.type === 'text' ? [b.text] : []))
        .join('');
    }

    @Tool({ description: 'Asks the user to confirm' })
    async confirm(ctx: Context) {
      const answer = await ctx.elicit('Proceed?', Confirm);
      return answer.action === 'accept' ? `ok=${answer.content.ok}` : answer.action;
    }

    @Tool({ description: "Lists the client's roots" })
    async roots(ctx: Context) {
      return (await ctx.roots()).map((r) => r.uri).join(',');
    }

    @Tool({ description: 'Tells who the client is' })
    whoami(ctx: Context) {
      return JSON.stringify({ principal: ctx.principal ?? null, client: ctx.clientInfo?.name ?? null, capabilities: ctx.clientCapabilities });
    }

    @Tool({ description: 'Waits until the request is cancelled' })
    async hang(ctx: Context) {
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
      return 'cancelled';
    }

    @Resource('shop://greeting', { description: 'A greeting', mimeType: 'text/plain' })
    greeting() {
      return 'Hello from the shop';
    }

    @Resource('shop://items/{index}', { name: 'item', description: 'One item by index', mimeType: 'text/plain' })
    item(params: ItemRef) {
      const item = this.store.list()[params.index];
      if (item === undefined) throw new McpError(ErrorCode.ResourceNotFound, `No item ${params.index}`, { uri: `shop://items/${params.index}` });
      return item;
    }

    @Prompt({ title: 'Greet', description: 'Greets someone by name' })
    greet(args: GreetArgs) {
      return `Please greet ${args.name} warmly.`;
    }

    @Complete({ prompt: 'greet', argument: 'name' })
    names(value: string) {
      return ['alice', 'albert', 'bob'].filter((n) => n.startsWith(value));
    }
  }

  @McpService()
  class ExtraService {
    @Tool({ description: 'Added at run time' })
    extra() {
      return 'extra';
    }
  }

  return { ItemStore, ShopService, ExtraService };
}

export type Fixture = ReturnType<typeof defineFixture>;
