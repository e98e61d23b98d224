/** cimd.ts: metadata document URLs, the trust policy, and how long a document is cached; and the checks of the options this issue added. */
import { OAuthProxy } from '@typemcp/http';
import { cacheSeconds, checkDocumentUrl } from '../../src/oauth-proxy/cimd';

const why = (url: string, hosts: string[] = ['*']) => {
  try {
    checkDocumentUrl(url, hosts);
    return 'accepted';
  } catch (error) {
    return (error as Error).message.replace('the client_id is not a usable metadata document URL: ', '');
  }
};

describe('OAuth proxy part: client metadata documents', () => {
  it('accepts only https URLs with a path, no fragment, credentials or dot segments', () => {
    expect(why('https://app.example.com/client.json')).toBe('accepted');
    expect(why('http://app.example.com/client.json')).toBe('it must use https');
    expect(why('https://app.example.com/')).toBe('it must have a path');
    expect(why('https://app.example.com/c#x')).toBe('it must not have a fragment');
    expect(why('https://u:p@app.example.com/c')).toBe('it must not carry credentials');
    expect(why('https://app.example.com/a/../c')).toBe('it must not have dot segments');
    expect(why(`https://app.example.com/${'x'.repeat(2000)}`)).toBe('it is longer than 2000 characters');
  });

  it('applies the trust policy: exact hosts, *. subdomains (not the domain itself), or any', () => {
    expect(why('https://app.example.com/c', ['app.example.com'])).toBe('accepted');
    expect(why('https://APP.example.com/c', ['app.example.com'])).toBe('accepted');
    expect(why('https://a.b.example.com/c', ['*.example.com'])).toBe('accepted');
    expect(why('https://example.com/c', ['*.example.com'])).toBe('example.com is not a trusted client host on this server');
    expect(why('https://evilexample.com/c', ['*.example.com'])).toBe('evilexample.com is not a trusted client host on this server');
  });

  it('caches as the headers say: no-store and no-cache not at all, max-age less Age, Expires, capped', () => {
    expect(cacheSeconds({ 'cache-control': 'no-store' }, 300, 86_400)).toBe(0);
    expect(cacheSeconds({ 'cache-control': 'public, no-cache' }, 300, 86_400)).toBe(0);
    expect(cacheSeconds({ 'cache-control': 'max-age=600', age: '100' }, 300, 86_400)).toBe(500);
    expect(cacheSeconds({ 'cache-control': 'max-age=999999' }, 300, 86_400)).toBe(86_400);
    const date = new Date('2026-01-01T00:00:00Z');
    expect(cacheSeconds({ date: date.toUTCString(), expires: new Date(date.getTime() + 120_000).toUTCString() }, 300, 86_400)).toBe(120);
    expect(cacheSeconds({ expires: 'not a date' }, 300, 86_400)).toBe(0);
    expect(cacheSeconds({}, 300, 86_400)).toBe(300);
  });

  it('refuses options that cannot work, naming them', () => {
    const base = { baseUrl: 'https://mcp.example.com', upstream: { issuer: 'https://idp.example.com', clientId: 'p' } };
    expect(() => new OAuthProxy({ ...base, clientMetadataDocuments: { trustedHosts: [] } })).toThrow(/clientMetadataDocuments\.trustedHosts/);
    expect(() => new OAuthProxy({ ...base, clientMetadataDocuments: { trustedHosts: ['https://x'] } })).toThrow(/trustedHosts/);
    expect(() => new OAuthProxy({ ...base, clientMetadataDocuments: { trustedHosts: ['*'], allowAddresses: ['everything' as never] } })).toThrow(
      /allowAddresses/,
    );
    expect(() => new OAuthProxy({ ...base, dynamicRegistration: 'no' as never })).toThrow(/dynamicRegistration/);
    expect(() => new OAuthProxy({ ...base, dpop: 'yes' as never })).toThrow(/oauthProxy\.dpop/);
  });

  it('refuses machine clients and enterprise IdPs that cannot work, naming them', () => {
    const base = { baseUrl: 'https://mcp.example.com', upstream: { issuer: 'https://idp.example.com', clientId: 'p' }, scopes: ['a'] };
    const secret = 'x'.repeat(32);
    expect(() => new OAuthProxy({ ...base, machineClients: [{ clientId: 'm', scopes: ['a'] }] })).toThrow(/machineClients\[0\]": give clientSecret or jwks/);
    expect(() => new OAuthProxy({ ...base, machineClients: [{ clientId: 'm', clientSecret: 'short', scopes: ['a'] }] })).toThrow(/clientSecret.*32 characters/);
    expect(() => new OAuthProxy({ ...base, machineClients: [{ clientId: 'https://a.example/c', clientSecret: secret, scopes: ['a'] }] })).toThrow(
      /not an https URL/,
    );
    expect(
      () =>
        new OAuthProxy({
          ...base,
          machineClients: [
            { clientId: 'm', clientSecret: secret, scopes: ['a'] },
            { clientId: 'm', clientSecret: secret, scopes: ['a'] },
          ],
        }),
    ).toThrow(/m is given twice/);
    expect(() => new OAuthProxy({ ...base, machineClients: [{ clientId: 'm', clientSecret: secret, scopes: ['b'] }] })).toThrow(/only the proxy's scopes/);
    expect(() => new OAuthProxy({ ...base, machineClients: [{ clientId: 'm', jwks: { keys: [{ kty: 'EC', d: 'private' }] }, scopes: [] }] })).toThrow(
      /no private parts/,
    );
    expect(() => new OAuthProxy({ ...base, enterpriseIdps: [{ issuer: 'not a url' }] })).toThrow(/enterpriseIdps\[0\]\.issuer/);
    expect(() => new OAuthProxy({ ...base, enterpriseIdps: [{ issuer: 'https://acme.example', algorithms: ['HS256'] }] })).toThrow(/asymmetric/);
  });
});
