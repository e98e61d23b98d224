import * as path from 'node:path';
import { App, AppOnly, AppView, appsExtension, viewFile } from '@typemcp/apps';
import { createServer, McpService, Resource, Tool } from '@typemcp/core';
import { IsString, MaxLength } from 'class-validator';

class NewTask {
  @IsString() @MaxLength(200) title!: string;
}

const BOARD = 'ui://tasks/board';

@McpService()
export class TaskBoard {
  private readonly tasks: string[] = [];
  private readonly html = viewFile(path.join(__dirname, 'board.html'));

  // The model calls it; hosts that render MCP Apps show the board, every other client the text.
  @Tool({ name: 'show_board', description: 'Shows the task board' })
  @App({ resourceUri: BOARD })
  show() {
    return { content: [{ type: 'text' as const, text: `${this.tasks.length} tasks: ${this.tasks.join(', ')}` }], structuredContent: { tasks: this.tasks } };
  }

  // Only the board's button calls it: hosts keep it from the model.
  @Tool({ name: 'add_task', description: 'Adds a task to the board' })
  @AppOnly({ resourceUri: BOARD })
  add(input: NewTask) {
    this.tasks.push(input.title);
    return this.show();
  }

  // board.app.html, bundled into one file by `typemcp build` (dist/board.html beside the server).
  @Resource(BOARD, { name: 'task-board', description: 'The task board view' })
  @AppView({ csp: { connectDomains: [] }, permissions: { clipboardWrite: true }, prefersBorder: true })
  board() {
    return this.html();
  }
}

export const server = createServer({ name: 'tasks', version: '1.0.0', services: [TaskBoard], extensions: [appsExtension()] });
