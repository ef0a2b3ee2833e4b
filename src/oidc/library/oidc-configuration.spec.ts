import { exportJWK, generateKeyPair } from 'jose';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { JWKS_URI_MAX_BYTES, oidcConfiguration } from './oidc-configuration.js';
import { loadOidcLibrary } from './oidc-library.js';

const JWKS_URI = 'https://rp.example/jwks';

/** oidc-provider with the service's configuration; only its outbound fetch is a seam (the library refuses loopback targets). */
async function providerFetching(body: string) {
  const { default: Provider } = await loadOidcLibrary();
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const client: AdapterPayload = {
    client_id: 'rp',
    redirect_uris: ['https://rp.example/cb'],
    token_endpoint_auth_method: 'private_key_jwt',
    jwks_uri: JWKS_URI,
  };
  const adapter = (model: string): Adapter =>
    ({
      find: async (id: string) => (model === 'Client' && id === 'rp' ? client : undefined),
    }) as unknown as Adapter;
  const configuration = oidcConfiguration({
    signingJwk: { ...(await exportJWK(privateKey)), kid: 'k1', alg: 'ES256' },
    cookieKey: 'cookie-key',
    acrValues: ['urn:eidgw:simulator'],
    adapter,
    findAccount: async () => undefined,
    pairwiseIdentifier: (clientId, subject) => `${clientId}:${subject}`,
    corsAllowed: () => false,
    piiRetentionSeconds: 3600,
    businessClaims: [],
  });
  const served = { ...(JSON.parse(body) as object), keys: [{ ...(await exportJWK(publicKey)), kid: 'rp-1' }] };
  const provider = new Provider('https://idp.example/oidc', {
    ...configuration,
    fetch: async (url: string | URL | Request) =>
      (url instanceof Request ? url.url : String(url)) === JWKS_URI
        ? new Response(JSON.stringify(served), { headers: { 'content-type': 'application/json' } })
        : new Response(null, { status: 404 }),
  });
  const found = (await provider.Client.find('rp')) as unknown as { asymmetricKeyStore: { refresh(): Promise<void> } };
  return found.asymmetricKeyStore;
}

describe(oidcConfiguration.name, () => {
  it("should read a client's jwks_uri key set of a few kilobytes", async () => {
    await expect((await providerFetching('{}')).refresh()).resolves.toBeUndefined();
  });

  it(`should refuse a jwks_uri answer over ${JWKS_URI_MAX_BYTES} bytes rather than hold it in memory`, async () => {
    const padded = JSON.stringify({ padding: 'x'.repeat(JWKS_URI_MAX_BYTES) });
    await expect((await providerFetching(padded)).refresh()).rejects.toMatchObject({ error: 'invalid_client_metadata' });
  });
});
