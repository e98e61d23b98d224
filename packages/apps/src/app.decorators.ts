/**
 * The decorators of MCP Apps: `@App` ties a `@Tool` to its view, `@AppOnly` makes a `@Tool` one
 * only views call, `@AppView` makes a `@Resource('ui://...')` a view. Each is `ExtensionData` for
 * `io.modelcontextprotocol/ui`: the server must install `appsExtension()`. Options are checked
 * where the decorator is written (a bad one throws as the class is defined).
 */
import { ExtensionData } from '@typemcp/core';
import { appOnlyData, toolData, viewData, type AppData, type AppOnlyOptions, type AppToolOptions, type AppViewOptions } from './app-options.js';
import { UI_EXTENSION } from './constants.js';

function record(data: AppData): MethodDecorator {
  const decorate = ExtensionData(UI_EXTENSION, data) as MethodDecorator;
  return (target, method, descriptor) => decorate(target, method, descriptor);
}

/**
 * The tool's results render in the view at `resourceUri` (a `ui://` resource served with
 * `@AppView`): the tool's definition carries `_meta.ui.resourceUri` (and the deprecated flat
 * `_meta["ui/resourceUri"]`). The tool still answers every client as usual: its text content is
 * what a client without views shows.
 * @publicApi
 */
export function App(options: AppToolOptions | string): MethodDecorator {
  return record({ tool: toolData(options, '@App') });
}

/**
 * A tool only views call (`_meta.ui.visibility: ["app"]`): hosts keep it from the model. It stays
 * in `tools/list` for clients that declared the extension and answers every `tools/call` (the
 * server cannot tell a view's call from the model's); a client that did not declare the
 * extension has no views, so its list leaves the tool out.
 * @publicApi
 */
export function AppOnly(options: AppOnlyOptions = {}): MethodDecorator {
  return record({ tool: appOnlyData(options, '@AppOnly') });
}

/**
 * The `@Resource('ui://...')` is a view: listed and read as `text/html;profile=mcp-app`, its one
 * content item carrying the CSP, permissions, border and domain in `_meta.ui`.
 * @publicApi
 */
export function AppView(options: AppViewOptions = {}): MethodDecorator {
  return record({ view: viewData(options, '@AppView') });
}
