/**
 * The MCP Apps fixture (io.modelcontextprotocol/ui): show_counter renders in the view
 * ui://everything/counter, whose Increment button calls the app-only increment_counter through
 * the host. Every client gets the text fallback `Counter: N` beside `structuredContent`.
 */
import * as path from 'node:path';
import { App, AppOnly, AppView, viewFile } from '@typemcp/apps';
import { McpService, Resource, Tool } from '@typemcp/core';
import { IncrementCounterInput, ShowCounterInput } from '../dto/inputs.dto.js';

export const COUNTER_VIEW = 'ui://everything/counter';

/** The view `typemcp build` bundled from src/apps/counter.app.html (the same path from src/ and dist/). */
export const COUNTER_HTML = path.resolve(__dirname, '..', '..', 'dist', 'apps', 'counter.html');

const counterResult = (count: number) => ({ content: [{ type: 'text' as const, text: `Counter: ${count}` }], structuredContent: { count } });

@McpService()
export class AppsService {
  private count = 0;
  private readonly html = viewFile(COUNTER_HTML);

  @Tool({ name: 'show_counter', description: 'Shows the counter (an interactive view in hosts that render MCP Apps)' })
  @App({ resourceUri: COUNTER_VIEW })
  show(input: ShowCounterInput) {
    if (input.start !== undefined) this.count = input.start;
    return counterResult(this.count);
  }

  @Tool({ name: 'increment_counter', description: 'Adds to the counter (called by the counter view)' })
  @AppOnly({ resourceUri: COUNTER_VIEW })
  increment(input: IncrementCounterInput) {
    this.count += input.by ?? 1;
    return counterResult(this.count);
  }

  @Resource(COUNTER_VIEW, { name: 'counter-view', title: 'Counter', description: 'The counter of show_counter, with an Increment button' })
  @AppView({ prefersBorder: true })
  view() {
    return this.html();
  }
}
