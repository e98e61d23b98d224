/**
 * The everything app, unchanged, as a Cloudflare Worker: bundled by esbuild (see workerd.ts) from
 * the built JS and run by workerd. Served stateless (`sessions: false`): a Worker's isolates
 * share no memory, and 2026-07-28 needs no session. The handler is made on the first request:
 * workerd allows timers and I/O only while a request is served. The validators `typemcp build`
 * precompiled are bundled with it: workerd forbids the code generation Ajv compiles them with.
 */
import { usePrecompiledValidators } from '@typemcp/core';
import { createFetchHandler } from '@typemcp/http/fetch';
import validators from '../../../dist/typemcp.validators.cjs';
import { createEverythingServer } from '../../../dist/everything.server.js';
import options from './options.cjs';

usePrecompiledValidators(validators);
let handler;

export default {
  fetch(request) {
    handler ??= createFetchHandler(createEverythingServer(), { ...options, sessions: false });
    return handler(request);
  },
};
