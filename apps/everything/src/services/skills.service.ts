/**
 * The everything server's skills (io.modelcontextprotocol/skills): the folder apps/everything/skills
 * (static skills with nested files) and one generated at request time from the server's own state.
 */
import * as path from 'node:path';
import { Context, McpService, TypeMcpServer } from '@typemcp/core';
import { Skill } from '@typemcp/skills';

/** The skills folder, beside src/ and dist/. */
export const SKILLS_DIR = path.join(__dirname, '..', '..', 'skills');

@McpService()
export class SkillsService {
  constructor(private readonly server: TypeMcpServer) {}

  @Skill({ name: 'server-status', prefix: 'live', description: "Read this server's tools and the calling client as they are now" })
  status(ctx: Context) {
    const tools = this.server.engine.registry.listTools().map((t) => t.name);
    return {
      body: `# Server status\n\nThis server has ${tools.length} tools; \`data/tools.json\` lists them. You are ${ctx.clientInfo?.name ?? 'an unnamed client'}.\n`,
      files: { 'data/tools.json': JSON.stringify(tools) },
    };
  }
}
