/**
 * `com.example/echo-ext`, an extension written as a package outside TypeMCP would write one:
 * with @typemcp/core's public API only. (docs/guide/extensions.md shows this file as it is.)
 */
import { ExtensionData, extensionMethod, invalidParams, requireString, type ExtensionApi, type ExtensionMember, type ServerExtension } from '@typemcp/core';

export const ECHO_EXT = 'com.example/echo-ext';

/** Marks a tool as an echo in `tools/list`; `hidden`: listed only to clients that declared the extension. */
export function Echo(options: { label: string; hidden?: boolean }): MethodDecorator {
  return ExtensionData(ECHO_EXT, options);
}

/** A method whose answer `echo/history` lists (any method of a served class: it gets its Context). */
export function EchoSource(): MethodDecorator {
  return ExtensionData(ECHO_EXT, { source: true });
}

/** The extension: `echo/say`, `echo/history`, and the resource `echo://last` (the last text said). */
export function echoExtension(options: { maxLength?: number } = {}): ServerExtension {
  const maxLength = options.maxLength ?? 100;
  const sources = new Set<ExtensionMember>();
  let last = '';
  let api: ExtensionApi;
  return {
    id: ECHO_EXT,
    // Advertised in capabilities.extensions (initialize, server/discover).
    settings: { maxLength },
    setup(given) {
      api = given;
      given.registry.addResource(
        { uri: 'echo://last', name: 'last-echo', mimeType: 'text/plain' },
        (uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: last }] }),
        { extensions: { [ECHO_EXT]: { live: true } } },
      );
    },
    methods: {
      // Only for clients that declared the extension; their settings give the prefix.
      'echo/say': extensionMethod<{ text: string }>({
        requiresClient: true,
        params(raw) {
          const text = requireString(raw, 'text', 'echo/say');
          if (text.length > maxLength) throw invalidParams(`echo/say "text" is longer than ${maxLength} characters`);
          return { text };
        },
        handler({ text }, ctx) {
          last = text;
          const prefix = ctx.clientExtension(ECHO_EXT)?.prefix;
          return { text: typeof prefix === 'string' ? prefix + text : text };
        },
      }),
      // For every client; paged like the built-in lists, with their 2026-07-28 caching hints.
      'echo/history': {
        cache: 'list',
        async handler(params, ctx) {
          const entries = await Promise.all([...sources].map(async (m) => ({ source: m.origin, text: String(await m.call(undefined, ctx)) })));
          const page = api.page(entries, params.cursor);
          return page.nextCursor ? { entries: page.items, nextCursor: page.nextCursor } : { entries: page.items };
        },
      },
    },
    decorate: {
      // Once per revision, when tools/list is built: no cost per call.
      tool: (definition, { data }) => {
        const echo = data as { label: string } | undefined;
        return echo ? { ...definition, _meta: { ...definition._meta, [ECHO_EXT]: { label: echo.label } } } : definition;
      },
      contents: (item, { data }) => (data ? { ...item, _meta: { ...item._meta, [ECHO_EXT]: { length: last.length } } } : item),
    },
    visible: {
      tools: (_tool, { data, ctx }) => !(data as { hidden?: boolean } | undefined)?.hidden || ctx.clientExtension(ECHO_EXT) !== undefined,
    },
    // Each served class that carries echo-ext data: keep its sources while it is served.
    bindService(service) {
      const mine = service.members.filter((m) => (m.data as { source?: boolean }).source);
      for (const m of mine) sources.add(m);
      return () => mine.forEach((m) => sources.delete(m));
    },
  };
}
