import { ApiKeyChanges } from '../../../src/api-keys/api-key-changes.js';
import { CLIENT_CACHE_TTL_MS } from '../../../src/oidc/clients/oidc-client-cache.js';
import { OidcClientStore } from '../../../src/oidc/clients/oidc-client.store.js';
import { OidcClientsService } from '../../../src/oidc/clients/oidc-clients.service.js';
import { httpOf, useE2eApp } from '../../support/e2e.js';
import { protectionBackends } from '../../support/protection-backends.js';
import { usingRealPostgres } from '../../support/test-postgres.js';
import { waitUntil } from '../../support/webhooks.js';

const { backends } = await protectionBackends();

// Two replicas need a database several processes can use: the embedded fallback serves one.
const describeReplicas = usingRealPostgres() ? describe.each(backends) : describe.skip.each(backends);
const REDIRECT_URI = 'https://rp.example/callback';

/**
 * docs/oidc.md ("Registering a client"): each process caches a client for 5 s; a change, a rotated
 * secret or a deletion reaches every replica within a second, and one the feed did not carry after 5 s.
 */
describeReplicas('The OIDC client cache across two replicas ($name)', (backend) => {
  const e2e = useE2eApp({ env: () => backend.env(), replicas: 2, withKey: true });
  afterAll(async () => {
    await backend.cleanUp(e2e.env as Record<string, string>);
  });

  /** The token endpoint's answer to a client authenticating with a code that does not exist. */
  const tokenAt = async (replica: number, clientId: string, secret: string) => {
    const response = await httpOf(e2e.replicas[replica].app)
      .post('/oidc/token')
      .auth(clientId, secret)
      .type('form')
      .send({ grant_type: 'authorization_code', code: 'not-a-code', redirect_uri: REDIRECT_URI });
    return (response.body as { error: string }).error;
  };
  /** A client both replicas have authenticated, so both hold it in their caches. */
  const cachedEverywhere = async () => {
    const created = await e2e.app.get(OidcClientsService).create(e2e.team.id, { name: 'Cached RP', redirectUris: [REDIRECT_URI] });
    const secret = created.clientSecret!;
    for (const replica of [0, 1]) expect(await tokenAt(replica, created.clientId, secret)).toBe('invalid_grant');
    await waitUntil(async () => e2e.replicas.every((r) => r.app.get(ApiKeyChanges).live), 'both replicas hearing changes');
    for (const replica of [0, 1]) expect(await tokenAt(replica, created.clientId, secret)).toBe('invalid_grant');
    return { ...created, secret };
  };
  /** Milliseconds until replica 1 answers `error` to the client with `secret`. */
  const answeredAfter = async (clientId: string, secret: string, error: string) => {
    const started = Date.now();
    await waitUntil(async () => (await tokenAt(1, clientId, secret)) === error, `replica 1 answering ${error}`, 5_000);
    return Date.now() - started;
  };

  it('should refuse the old secret on the other replica within 1 s of a rotation, and take the new one', async () => {
    const client = await cachedEverywhere();
    const rotated = await e2e.replicas[0].app.get(OidcClientsService).rotateSecret(e2e.team.id, client.id);
    expect(await tokenAt(0, client.clientId, client.secret)).toBe('invalid_client');
    expect(await answeredAfter(client.clientId, client.secret, 'invalid_client')).toBeLessThan(1_000);
    expect(await tokenAt(1, client.clientId, rotated.clientSecret)).toBe('invalid_grant');
  });

  it('should refuse a client deleted on one replica on the other within 1 s', async () => {
    const client = await cachedEverywhere();
    await e2e.replicas[0].app.get(OidcClientsService).remove(e2e.team.id, client.id);
    expect(await tokenAt(0, client.clientId, client.secret)).toBe('invalid_client');
    expect(await answeredAfter(client.clientId, client.secret, 'invalid_client')).toBeLessThan(1_000);
  });

  it('should stop serving a deletion the feed did not carry once the 5 s are over', async () => {
    const client = await cachedEverywhere();
    // As the embedded database's command line does: deleted without an announcement.
    await e2e.app.get(OidcClientStore).delete(client.id, e2e.team.id);
    for (const replica of [0, 1]) expect(await tokenAt(replica, client.clientId, client.secret)).toBe('invalid_grant');
    for (const replica of e2e.replicas) replica.clock.advance(CLIENT_CACHE_TTL_MS);
    for (const replica of [0, 1]) expect(await tokenAt(replica, client.clientId, client.secret)).toBe('invalid_client');
  });
});
