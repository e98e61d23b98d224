/** `typemcp add tool|resource|prompt <name> [--service <file or class>]`. */
import { Command, Option } from 'commander';
import { addItem } from '../add/add-item.js';
import { ITEM_KINDS, type ItemKind } from '../add/names.js';
import type { CommandResult } from './command-result.js';

/** Defines `add` on `program`. */
export function addCommand(program: Command, done: CommandResult): void {
  program
    .command('add')
    .description('Add a tool, resource or prompt, with its DTO and a passing test')
    .addArgument(program.createArgument('<kind>', 'what to add').choices(ITEM_KINDS))
    .argument('<name>', 'its MCP name, e.g. get_forecast')
    .addOption(
      new Option(
        '-s, --service <service>',
        'add a method to this service (a file, a class name, or a short name like greeting) instead of creating a new service',
      ),
    )
    .addHelpText(
      'after',
      '\nWithout --service, creates src/services/<name>.service.ts, <name>.dto.ts and test/<name>.service.spec.ts,\n' +
        'and registers the service in src/services/index.ts. With --service, adds the method to that class,\n' +
        'the DTO to its .dto.ts file, and test/<name>.<kind>.spec.ts.\n\n' +
        'Examples:\n  typemcp add tool get_forecast\n  typemcp add prompt summarise --service GreetingService',
    )
    .action((kind: ItemKind, name: string, options: { service?: string }) => {
      const result = addItem({ kind, name, service: options.service, cwd: process.cwd() });
      for (const file of result.created) process.stdout.write(`created  ${file}\n`);
      for (const file of result.changed) process.stdout.write(`updated  ${file}\n`);
      for (const note of result.notes) process.stdout.write(`note: ${note}\n`);
      done.code = 0;
    });
}
