/**
 * The construction checks of createServer()'s own options (identity, services, providers,
 * container); the engine checks the options it takes over. A bad value throws an
 * InvalidOptionError (`TYPEMCP_ERR_INVALID_OPTION`) naming it.
 */
import { InvalidOptionError } from '@typemcp/protocol';
import { checkOption as check } from '@typemcp/protocol/internal';
import type { ServerOptions } from './server-options.interface.js';

function invalid(option: string, message: string): InvalidOptionError {
  return new InvalidOptionError(option, `Invalid option "${option}": ${message}.`);
}

/** Throws for the first of createServer()'s own options it cannot work with. */
export function checkServerOptions(options: ServerOptions): void {
  if (options === null || typeof options !== 'object') throw invalid('options', 'give createServer() an object with at least a name and a version');
  if (options.name === undefined)
    throw invalid('name', 'the server needs a name (clients show it), e.g. createServer({ name: "my-server", version: "1.0.0" })');
  check.string('name', options.name);
  if (options.version === undefined) throw invalid('version', 'the server needs a version, e.g. "1.0.0"');
  check.string('version', options.version);
  check.string('title', options.title);
  check.string('description', options.description, true);
  check.string('websiteUrl', options.websiteUrl);
  check.array('icons', options.icons);
  check.array('services', options.services);
  options.services?.forEach((service, i) => {
    if (typeof service !== 'function') throw invalid(`services[${i}]`, 'each service must be an @McpService() class');
  });
  check.array('providers', options.providers);
  check.array('interceptors', options.interceptors);
  options.extensions?.forEach((extension, i) => {
    const bind = (extension as { bindService?: unknown } | null)?.bindService;
    if (bind !== undefined && typeof bind !== 'function') throw invalid(`extensions[${i}].bindService`, 'it must be a function of the served class');
  });
  options.providers?.forEach((provider, i) => {
    const p = provider as { provide?: unknown; useValue?: unknown; useClass?: unknown } | null;
    const usable = p !== null && typeof p === 'object' && 'provide' in p && ('useValue' in p || typeof p.useClass === 'function');
    if (!usable) throw invalid(`providers[${i}]`, 'each provider must be { provide, useValue } or { provide, useClass: SomeClass }');
  });
  const container = options.container as Record<string, unknown> | undefined;
  if (container !== undefined && !['register', 'set', 'get'].every((m) => typeof container?.[m] === 'function')) {
    throw invalid('container', 'it must implement ContainerAdapter (register, set and get)');
  }
  const telemetry = options.telemetry as unknown;
  if (telemetry !== undefined && typeof telemetry !== 'boolean') {
    check.object('telemetry', telemetry);
    const t = telemetry as { tracerProvider?: { getTracer?: unknown }; meterProvider?: { getMeter?: unknown } };
    if (t.tracerProvider !== undefined && typeof t.tracerProvider?.getTracer !== 'function') {
      throw invalid('telemetry.tracerProvider', 'it must be an OpenTelemetry TracerProvider (with getTracer())');
    }
    if (t.meterProvider !== undefined && typeof t.meterProvider?.getMeter !== 'function') {
      throw invalid('telemetry.meterProvider', 'it must be an OpenTelemetry MeterProvider (with getMeter())');
    }
  }
  const manifest = options.schemaManifest as unknown;
  if (manifest !== undefined && manifest !== false && (typeof manifest !== 'string' || manifest === '')) {
    throw invalid('schemaManifest', `it must be the path of a schema manifest, or false to derive schemas at start-up, not ${JSON.stringify(manifest)}`);
  }
  check.object('schema', options.schema);
  check.boolean('schema.inlineRefs', options.schema?.inlineRefs);
  const unknownFields = options.schema?.unknownFields;
  if (unknownFields !== undefined && unknownFields !== 'reject' && unknownFields !== 'strip') {
    throw invalid(
      'schema.unknownFields',
      `it must be 'reject' (the default: an undeclared field is refused) or 'strip' (dropped), not ${JSON.stringify(unknownFields)}`,
    );
  }
}
