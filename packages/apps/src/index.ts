/**
 * @typemcp/apps: MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865, ext-apps 2026-01-26) for
 * TypeMCP servers. `appsExtension()` on the engine's extension API, the decorators `@App`,
 * `@AppOnly` and `@AppView`, and `bundleApp()` (esbuild, loaded only when a view is bundled).
 */
export { App, AppOnly, AppView } from './app.decorators.js';
export type { AppCsp, AppOnlyOptions, AppPermissions, AppToolOptions, AppViewOptions, AppVisibility } from './app-options.js';
export { appsExtension, clientSupportsApps, type AppsExtensionOptions } from './apps.extension.js';
export { bundleApp } from './bundle.js';
export type { BundleAppOptions, BundledApp } from './bundle.types.js';
export { APP_MIME_TYPE, RESOURCE_URI_META_KEY, UI_EXTENSION } from './constants.js';
export { AppsError, AppsErrorCode } from './errors.js';
export { viewFile } from './view-file.js';
