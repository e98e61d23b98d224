/** `typemcp list`: what a server offers. */
import { Command } from 'commander';
import { connect, type ServerTarget } from '../client/connect.js';
import { formatListing, type Listing } from '../client/format.js';
import type { CommandResult } from './command-result.js';
import { serverOptions, withServer, type ServerFlags } from './server-options.js';

/** Lists every tool, resource, resource template and prompt the server declares. */
export async function listAll(target: ServerTarget): Promise<Listing> {
  const connection = await connect(target);
  try {
    const { client } = connection;
    const caps = client.getServerCapabilities() ?? {};
    return {
      tools: caps.tools ? (await client.listTools()).tools : [],
      resources: caps.resources ? (await client.listResources()).resources : [],
      resourceTemplates: caps.resources ? (await client.listResourceTemplates()).resourceTemplates : [],
      prompts: caps.prompts ? (await client.listPrompts()).prompts : [],
    };
  } finally {
    await connection.close();
  }
}

/** Defines `list` on `program`. */
export function listCommand(program: Command, done: CommandResult): void {
  serverOptions(
    program
      .command('list')
      .description("List a server's tools, resources, resource templates and prompts")
      .argument('[command...]', 'the server command after --, e.g. -- node dist/main.js --transport stdio (default: node dist/main.js)'),
  ).action(async (command: string[], flags: ServerFlags) => {
    done.code = await withServer(command, flags, async (target) => {
      const listing = await listAll(target);
      process.stdout.write(`${flags.json ? JSON.stringify(listing, null, 2) : formatListing(listing)}\n`);
      return 0;
    });
  });
}
