/**
 * The readiness checks the framework adds from the options: the shared state (its connections are
 * up and it answers a ping), and the authorization server a token check depends on: the JWKS
 * answers with keys (or, when it is discovered, the issuer's metadata answers); the introspection
 * endpoint answers at all, below 500 (it refuses a request without credentials, and that is an
 * answer). An endpoint that answered is not asked again for `ENDPOINT_CACHE_MS`, so probes do not
 * load the authorization server. Outbound requests follow the shared rules (no redirects, a time
 * limit, a size cap); the URLs come from the configuration, never from a request.
 */
import type { HttpOptions } from '../http-options.interface.js';
import { fetchJsonObject } from '../outbound/fetch-json.js';
import { fetchIssuerMetadata } from '../outbound/issuer-metadata.js';
import type { HealthCheck } from './readiness.js';

const ENDPOINT_CACHE_MS = 10_000;
const ENDPOINT_TIMEOUT_MS = 2_000;
const MAX_BYTES = 256 * 1024;

/** A check that `ask()` is true, remembered for ENDPOINT_CACHE_MS while it is. */
function endpointCheck(name: string, ask: () => Promise<boolean>): HealthCheck {
  let okUntil = 0;
  return {
    name,
    timeoutMs: ENDPOINT_TIMEOUT_MS + 500,
    check: async () => {
      if (Date.now() < okUntil) return true;
      const ok = await ask();
      if (ok) okUntil = Date.now() + ENDPOINT_CACHE_MS;
      return ok;
    },
  };
}

const limits = { timeoutMs: ENDPOINT_TIMEOUT_MS, maxBytes: MAX_BYTES };

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
  const jwt = options.auth?.jwt;
  if (jwt?.jwksUri !== undefined) {
    const uri = jwt.jwksUri;
    checks.push(endpointCheck('jwks', async () => Array.isArray((await fetchJsonObject(uri, { headers: { accept: 'application/json' } }, limits)).body.keys)));
  } else if (jwt && jwt.key === undefined) {
    const issuer = [jwt.issuer].flat()[0];
    checks.push(endpointCheck('jwks', async () => typeof (await fetchIssuerMetadata(issuer, ENDPOINT_TIMEOUT_MS)).jwks_uri === 'string'));
  }
  const introspection = options.auth?.introspection?.endpoint;
  if (introspection) {
    checks.push(
      endpointCheck('introspection', async () => {
        const res = await fetch(introspection, { method: 'POST', redirect: 'error', signal: AbortSignal.timeout(ENDPOINT_TIMEOUT_MS) });
        await res.body?.cancel();
        return res.status < 500;
      }),
    );
  }
  return checks;
}
