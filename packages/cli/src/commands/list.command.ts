/** `typemcp list`: what a server offers. */
import { Command } from 'commander';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { connect, type ServerTarget } from '../client/connect.js';
import { formatListing, type ListedSkill, type Listing } from '../client/format.js';
import type { CommandResult } from './command-result.js';
import { serverOptions, withServer, type ServerFlags } from './server-options.js';

const SKILLS = 'io.modelcontextprotocol/skills';
/** Pages of skills/list followed at most (a server that keeps handing out cursors is cut off). */
const MAX_SKILL_PAGES = 100;

/** Every page of skills/list. */
async function listSkills(client: Awaited<ReturnType<typeof connect>>['client']): Promise<ListedSkill[]> {
  const skills: ListedSkill[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_SKILL_PAGES; page++) {
    const result = (await client.request({ method: 'skills/list', params: cursor ? { cursor } : {} }, ResultSchema)) as {
      skills?: unknown;
      nextCursor?: unknown;
    };
    if (Array.isArray(result.skills)) skills.push(...(result.skills as ListedSkill[]));
    cursor = typeof result.nextCursor === 'string' && result.nextCursor ? result.nextCursor : undefined;
    if (!cursor) break;
  }
  return skills;
}

/** Lists every tool, resource, resource template and prompt the server declares, and its skills (io.modelcontextprotocol/skills). */
export async function listAll(target: ServerTarget): Promise<Listing> {
  const connection = await connect(target);
  try {
    const { client } = connection;
    const caps = client.getServerCapabilities() ?? {};
    const listing: Listing = {
      tools: caps.tools ? (await client.listTools()).tools : [],
      resources: caps.resources ? (await client.listResources()).resources : [],
      resourceTemplates: caps.resources ? (await client.listResourceTemplates()).resourceTemplates : [],
      prompts: caps.prompts ? (await client.listPrompts()).prompts : [],
    };
    const extensions = (caps as { extensions?: Record<string, unknown> }).extensions;
    if (extensions && SKILLS in extensions) listing.skills = await listSkills(client);
    return listing;
  } finally {
    await connection.close();
  }
}

/** Defines `list` on `program`. */
export function listCommand(program: Command, done: CommandResult): void {
  serverOptions(
    program
      .command('list')
      .description("List a server's tools, resources, resource templates, prompts and skills")
      .argument('[command...]', 'the server command after --, e.g. -- node dist/main.js --transport stdio (default: node dist/main.js)'),
  ).action(async (command: string[], flags: ServerFlags) => {
    done.code = await withServer(command, flags, async (target) => {
      const listing = await listAll(target);
      process.stdout.write(`${flags.json ? JSON.stringify(listing, null, 2) : formatListing(listing)}\n`);
      return 0;
    });
  });
}
