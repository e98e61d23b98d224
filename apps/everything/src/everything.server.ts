/** Builds the everything server from its decorated services. */
import { appsExtension } from '@typemcp/apps';
import { createServer, runAsTask, type ServerOptions, type TypeMcpServer } from '@typemcp/core';
import { AppsService } from './services/apps.service.js';
import { ClientRequestsService } from './services/client-requests.service.js';
import { ContentToolsService } from './services/content-tools.service.js';
import { ExtrasService } from './services/extras.service.js';
import { MultiRoundService } from './services/multi-round.service.js';
import { PromptsService, ResourcesService } from './services/resources.service.js';
import { TasksService } from './services/tasks.service.js';
import { SKILLS_DIR, SkillsService } from './services/skills.service.js';
import { skills } from '@typemcp/skills';
import { sleep } from './fixtures.js';

/**
 * A fresh everything server, for every revision from 2024-11-05 to 2026-07-28 (the dynamic
 * tool and prompt services are added at run time by the toggle/trigger tools), with the skills
 * extension.
 */
export function createEverythingServer(options: Pick<ServerOptions, 'tasks'> = {}): TypeMcpServer {
  const server = createServer({
    ...options,
    name: 'typemcp-everything',
    title: 'TypeMCP Everything',
    version: '0.1.0',
    description: 'Every MCP feature under the conformance suite fixture names',
    instructions: 'A test server: every tool, resource and prompt of the MCP conformance suite, plus `add`.',
    services: [
      ExtrasService,
      ContentToolsService,
      ClientRequestsService,
      ResourcesService,
      PromptsService,
      MultiRoundService,
      TasksService,
      SkillsService,
      AppsService,
    ],
    // io.modelcontextprotocol/skills: the skills folder and SkillsService's generated skill; io.modelcontextprotocol/ui: the counter app.
    extensions: [skills({ dir: SKILLS_DIR }), appsExtension()],
  });
  addTaskAfterQuestionTool(server);
  return server;
}

const NAME_FORM = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

/**
 * test_tool_with_task (tasks-mrtr-composition): asks for a name in the request (a 2026-07-28
 * multi round-trip; a real elicitation for 2025-11-25), then continues as a task with
 * `runAsTask`. Registered on the engine because it starts its task itself (`start: 'handler'`).
 */
function addTaskAfterQuestionTool(server: TypeMcpServer): void {
  server.engine.registry.addTool(
    { name: 'test_tool_with_task', description: 'Asks for your name, then greets you from a task', inputSchema: { type: 'object', properties: {} } },
    async (_args, ctx) => {
      const answer = await ctx.elicit<{ action: string; content?: { name?: unknown } }>(
        { mode: 'form', message: 'What is your name?', requestedSchema: NAME_FORM },
        { inputKey: 'user_name' },
      );
      const name = answer.action === 'accept' && typeof answer.content?.name === 'string' ? answer.content.name : 'stranger';
      return runAsTask(ctx, async (task) => {
        await sleep(200, task.signal);
        return { content: [{ type: 'text', text: `Hello, ${name}! (greeted from a task)` }] };
      });
    },
    { task: { support: 'required', start: 'handler' } },
  );
}
