/**
 * The counter view (ui://everything/counter), running in the host's frame: the official `App`
 * class does the lifecycle (ui/initialize, then ui/notifications/initialized; size-changed as the
 * page changes; the answer to ui/resource-teardown). It shows the count of show_counter's result
 * and calls increment_counter through the host. Bundled with its imports into one HTML file by
 * `typemcp build` (@typemcp/apps' bundleApp).
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

const app = new App({ name: 'everything-counter', version: '0.1.0' }, {}, { autoResize: true });
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
