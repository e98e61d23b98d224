/**
 * The counter's view, running in the host's frame. The official `App` class does the lifecycle
 * (ui/initialize, ui/notifications/initialized, size-changed, the answer to ui/resource-teardown);
 * `npm run build` (typemcp build) bundles this page and its imports into dist/apps/counter.html.
 */
import { App } from '@modelcontextprotocol/ext-apps';

const count = document.getElementById('count') as HTMLOutputElement;
const button = document.getElementById('increment') as HTMLButtonElement;
const status = document.getElementById('status') as HTMLParagraphElement;

function show(result: { structuredContent?: unknown; isError?: boolean }): void {
  const value = (result.structuredContent as { count?: unknown } | undefined)?.count;
  if (result.isError || typeof value !== 'number') {
    status.textContent = 'The server answered without a count';
    return;
  }
  count.textContent = String(value);
  status.textContent = '';
}

const app = new App({ name: '{{name}}-counter', version: '0.1.0' }, {}, { autoResize: true });
app.ontoolresult = (result) => {
  show(result);
  button.disabled = false;
};
app.onteardown = () => ({});

async function increment(): Promise<void> {
  button.disabled = true;
  try {
    show(await app.callServerTool({ name: 'increment_counter', arguments: { by: 1 } }));
  } catch (error) {
    status.textContent = `increment_counter failed: ${(error as Error).message}`;
  } finally {
    button.disabled = false;
  }
}
button.addEventListener('click', () => void increment());

await app.connect();
