/**
 * The readiness checks the framework adds from the options: the shared state (its connections are
 * up and it answers a ping), and the authorization server a token check depends on (the JWKS
 * answers with keys; the introspection endpoint answers at all, below 500). An endpoint that
 * answered is not asked again for `ENDPOINT_CACHE_MS`, so probes do not load the authorization
 * server.
 */
import type { HttpOptions } from '../http-options.interface.js';
import type { HealthCheck } from './readiness.js';

const ENDPOINT_CACHE_MS = 10_000;
const ENDPOINT_TIMEOUT_MS = 2_000;

/** A check that `url` answers (2xx JSON with `keys` when `jwks`), remembered while it does. */
function endpointCheck(name: string, url: string, jwks: boolean): HealthCheck {
  let okUntil = 0;
  return {
    name,
    timeoutMs: ENDPOINT_TIMEOUT_MS + 500,
    check: async () => {
      if (Date.now() < okUntil) return true;
      // A configured URL (not user input); redirects are not followed.
      const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(ENDPOINT_TIMEOUT_MS), headers: { accept: 'application/json' } });
      const ok = jwks ? res.ok && Array.isArray(((await res.json()) as { keys?: unknown }).keys) : res.status < 500;
      if (!jwks) await res.body?.cancel();
      if (ok) okUntil = Date.now() + ENDPOINT_CACHE_MS;
      return ok;
    },
  };
}

/** The framework's readiness checks for these options. */
export function frameworkChecks(options: HttpOptions): HealthCheck[] {
  const checks: HealthCheck[] = [];
  const state = options.state;
  if (state) {
    checks.push({
      name: 'shared-state',
      check: async () => {
        if (!state.health().ok) return false;
        await state.ping?.();
        return true;
      },
    });
  }
  const jwksUri = options.auth?.jwt?.jwksUri;
  if (jwksUri) checks.push(endpointCheck('jwks', jwksUri, true));
  const introspection = options.auth?.introspection?.endpoint;
  if (introspection) checks.push(endpointCheck('introspection', introspection, false));
  return checks;
}
