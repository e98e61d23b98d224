/**
 * An MCP App: `show_counter` renders in the view ui://counter/view (src/apps/counter.app.html,
 * bundled into one file by `npm run build`), whose button calls the app-only `increment_counter`
 * through the host. Clients that render no views get the text `Counter: N`.
 */
import * as path from 'node:path';
import { App, AppOnly, AppView, viewFile } from '@typemcp/apps';
import { McpService, Resource, Tool } from '@typemcp/core';
import { IncrementInput, ShowCounterInput } from './counter.dto.js';

const VIEW = 'ui://counter/view';

/** The bundle `typemcp build` writes for src/apps/counter.app.html (the same path from src/ and dist/). */
export const COUNTER_HTML = path.resolve(__dirname, '..', '..', 'dist', 'apps', 'counter.html');

const result = (count: number) => ({ content: [{ type: 'text' as const, text: `Counter: ${count}` }], structuredContent: { count } });

@McpService()
export class CounterService {
  private count = 0;
  private readonly html = viewFile(COUNTER_HTML);

  @Tool({ name: 'show_counter', description: 'Shows the counter (an interactive view in hosts that render MCP Apps)' })
  @App({ resourceUri: VIEW })
  show(input: ShowCounterInput) {
    if (input.start !== undefined) this.count = input.start;
    return result(this.count);
  }

  @Tool({ name: 'increment_counter', description: 'Adds to the counter (called by its view)' })
  @AppOnly({ resourceUri: VIEW })
  increment(input: IncrementInput) {
    this.count += input.by ?? 1;
    return result(this.count);
  }

  // CSP: the view reaches no network (add origins to connectDomains/resourceDomains if it must).
  @Resource(VIEW, { name: 'counter-view', title: 'Counter', description: 'The counter, with an Increment button' })
  @AppView({ prefersBorder: true })
  view() {
    return this.html();
  }
}
