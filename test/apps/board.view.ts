import { App } from '@modelcontextprotocol/ext-apps';

const list = document.getElementById('tasks') as HTMLUListElement;
const render = (result: { structuredContent?: unknown }) => {
  const { tasks } = (result.structuredContent ?? { tasks: [] }) as { tasks: string[] };
  list.replaceChildren(...tasks.map((t) => Object.assign(document.createElement('li'), { textContent: t })));
};

const app = new App({ name: 'task-board', version: '1.0.0' });
app.ontoolresult = render;
document.getElementById('add')!.addEventListener('click', () => {
  void app.callServerTool({ name: 'add_task', arguments: { title: `Task ${list.children.length + 1}` } }).then(render);
});
await app.connect();
