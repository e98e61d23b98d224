/** `typemcp add tool|resource|prompt <name> [--service <file or class>]`. */
import { Command, Option } from 'commander';
import { addItem } from '../add/add-item.js';
import { addSkill } from '../add/add-skill.js';
import { ITEM_KINDS, type ItemKind } from '../add/names.js';
import { addOpenApi, type AddOpenApiResult } from '../openapi/add-openapi.js';
import type { CommandResult } from './command-result.js';

/** Defines `add` on `program`. */
export function addCommand(program: Command, done: CommandResult): void {
  program
    .command('add')
    .description(
      'Add a tool, resource or prompt, with its DTO and a passing test; a skill (skills/<name>/SKILL.md); or a service with the tools of an OpenAPI document',
    )
    .addArgument(program.createArgument('<kind>', 'what to add').choices([...ITEM_KINDS, 'skill', 'openapi']))
    .argument('<name>', 'its MCP name, e.g. get_forecast (for openapi: the document, a file or URL)')
    .addOption(
      new Option(
        '-s, --service <service>',
        'add a method to this service (a file, a class name, or a short name like greeting) instead of creating a new service',
      ),
    )
    .option('--tag <tag...>', 'openapi: only the operations with one of these tags')
    .option('--path <path...>', 'openapi: only the operations under these paths (/pets also selects /pets/{id})')
    .option('--operation <operationId...>', 'openapi: only these operations')
    .option('--name <name>', 'openapi: the service name (default: from the document title)')
    .option('--no-validate', 'openapi: do not validate the document against the OpenAPI schemas first')
    .addHelpText(
      'after',
      '\nWithout --service, creates src/services/<name>.service.ts, <name>.dto.ts and test/<name>.service.spec.ts,\n' +
        'and registers the service in src/services/index.ts. With --service, adds the method to that class,\n' +
        'the DTO to its .dto.ts file, and test/<name>.<kind>.spec.ts.\n\n' +
        'typemcp add openapi <file-or-url> writes src/services/<name>.service.ts (one tool per operation), <name>.dto.ts,\n' +
        '<name>.client.ts (the HTTP call) and a test; run again, it rewrites the DTO file and the marked regions of the service.\n\n' +
        'typemcp add skill <name> writes skills/<name>/SKILL.md (an agent skill, served by @typemcp/skills).\n\n' +
        'Examples:\n  typemcp add tool get_forecast\n  typemcp add skill release-notes\n  typemcp add prompt summarise --service GreetingService\n  typemcp add openapi openapi.yaml --tag pets',
    )
    .action(async (kind: ItemKind | 'skill' | 'openapi', name: string, options: OpenApiFlags & { service?: string }) => {
      if (kind === 'openapi') {
        const { tag, path, operation, validate } = options;
        printOpenApi(await addOpenApi({ source: name, name: options.name, tags: tag, paths: path, operations: operation, validate, cwd: process.cwd() }));
        done.code = 0;
        return;
      }
      const result = kind === 'skill' ? addSkill({ name, cwd: process.cwd() }) : addItem({ kind, name, service: options.service, cwd: process.cwd() });
      for (const file of result.created) process.stdout.write(`created  ${file}\n`);
      for (const file of result.changed) process.stdout.write(`updated  ${file}\n`);
      for (const note of result.notes) process.stdout.write(`note: ${note}\n`);
      done.code = 0;
    });
}

/** The openapi flags. */
interface OpenApiFlags {
  tag?: string[];
  path?: string[];
  operation?: string[];
  name?: string;
  validate: boolean;
}

function printOpenApi(result: AddOpenApiResult): void {
  for (const file of result.created) process.stdout.write(`created  ${file}\n`);
  for (const file of result.changed) process.stdout.write(`updated  ${file}\n`);
  for (const file of result.kept) process.stdout.write(`kept     ${file} (yours: not rewritten)\n`);
  for (const file of result.overwritten) process.stdout.write(`note: rewrote the generated ${file}\n`);
  process.stdout.write(`${result.tools} tool${result.tools === 1 ? '' : 's'}\n`);
  for (const u of result.unmapped) process.stdout.write(`not mapped: ${u.method} ${u.path}${u.operationId ? ` (${u.operationId})` : ''}: ${u.reason}\n`);
  for (const note of result.notes) process.stdout.write(`note: ${note}\n`);
}
