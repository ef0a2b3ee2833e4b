import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calculateJwkThumbprint, type JWK } from 'jose';
import * as client from 'openid-client';
import { OidcClientsService } from '../../../src/oidc/clients/oidc-clients.service.js';
import { FakeUpstream } from '../../fakes/upstream-openid-provider.js';
import { useE2eApp } from '../../support/e2e.js';
import { discover } from '../../support/oidc-rp.js';
import { freePort } from '../../support/service-process.js';

const NO_BANKID = 'urn:grn:authn:no:bankid';
const NNIN = '01017012345';
const CIBA = 'urn:openid:params:grant-type:ciba';
const SCOPE = 'openid profile https://id.oidc.se/scope/naturalPersonNumber';

const dir = mkdtempSync(join(tmpdir(), 'oidc-upstream-ciba-'));
const signing = generateKeyPairSync('rsa', { modulusLength: 2048 });

describe('CIBA through the OpenID front towards an upstream that offers it (openid-client, a Norwegian BankID with CIBA on)', () => {
  let port: number;
  let fake: FakeUpstream;
  beforeAll(async () => {
    port = await freePort();
    const jwk = signing.publicKey.export({ format: 'jwk' }) as JWK;
    const kid = await calculateJwkThumbprint({ kty: jwk.kty, n: jwk.n, e: jwk.e });
    fake = await FakeUpstream.start({
      profile: 'nbid',
      clientId: 'gw-nbid',
      redirectUri: `http://127.0.0.1:${port}/upstream/nbid/callback`,
      clientKeys: [{ kty: jwk.kty, n: jwk.n, e: jwk.e, kid, use: 'sig', alg: 'RS256' }],
      ciba: true,
    });
    const privateKey = join(dir, 'signing.pem');
    writeFileSync(privateKey, signing.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const upstream = {
      name: 'nbid',
      displayName: 'BankID (Norge)',
      issuer: fake.issuer,
      environment: 'test',
      clientId: 'gw-nbid',
      clientAuth: 'private_key_jwt',
      privateKey,
      scope: 'openid profile nnin',
      acrValues: 'urn:bankid:bid',
      frontAcrValues: [NO_BANKID],
      claims: { nationalId: 'nnin' },
      country: 'NO',
    };
    writeFileSync(join(dir, 'upstreams.json'), JSON.stringify([upstream]));
  }, 60_000);
  afterAll(async () => {
    await fake?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const e2e = useE2eApp({
    listen: true,
    listenPort: () => port,
    withKey: true,
    env: () => ({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, OIDC_UPSTREAMS: join(dir, 'upstreams.json'), PROVIDERS: 'simulator,oidc' }),
  });

  /** A call centre's client in poll mode, allowed the upstream only. */
  const cibaClient = async () => {
    const registered = await e2e.app.get(OidcClientsService).create(e2e.team.id, {
      name: 'Kundesenter',
      redirectUris: [`${e2e.baseUrl}/rp/callback`],
      providers: ['nbid'],
      backchannelTokenDeliveryMode: 'poll',
    });
    return discover(`${e2e.baseUrl}/oidc`, registered.clientId, registered.clientSecret!);
  };
  const initiate = (config: client.Configuration, loginHint = NNIN) =>
    client.initiateBackchannelAuthentication(config, { scope: SCOPE, login_hint: loginHint, acr_values: NO_BANKID });
  /** The client polling as openid-client does (slow_down adds 5 s to its interval), until an answer. */
  const poll = (config: client.Configuration, started: client.BackchannelAuthenticationResponse) =>
    client.pollBackchannelAuthenticationGrant(config, started, undefined, { signal: AbortSignal.timeout(45_000) });
  const refusal = (config: client.Configuration, started: client.BackchannelAuthenticationResponse) =>
    poll(config, started).then(
      () => undefined,
      (thrown: unknown) => thrown as client.ResponseBodyError,
    );

  it("should log in the person the upstream identified, with the front's acr and the upstream's amr and country", async () => {
    const config = await cibaClient();
    const started = await initiate(config, `sub:ssn:${NNIN}`);
    expect(started.interval).toBe(2);
    await fake.endBackchannel('approve');
    const claims = (await poll(config, started)).claims();
    expect(claims).toMatchObject({
      acr: NO_BANKID,
      amr: ['bid'],
      country: 'NO',
      nin: NNIN,
      nin_issuing_country: 'NO',
      name: 'Kari Nordmann',
    });
  }, 60_000);

  it("should pass the upstream's pending on while the person has not answered", async () => {
    const config = await cibaClient();
    const started = await initiate(config);
    const pending = await client.genericGrantRequest(config, CIBA, { auth_req_id: started.auth_req_id }).then(
      () => undefined,
      (thrown: unknown) => thrown as client.ResponseBodyError,
    );
    expect(pending?.error).toBe('authorization_pending');
    await fake.endBackchannel('deny');
  });

  it.each([
    ['deny', 'access_denied', /hintCode: userCancel/],
    ['expire', 'expired_token', /expired/],
  ] as const)(
    "should pass the upstream's %s on as %s",
    async (action, error, description) => {
      const config = await cibaClient();
      const started = await initiate(config);
      await fake.endBackchannel(action);
      const refused = await refusal(config, started);
      expect(refused).toBeInstanceOf(client.ResponseBodyError);
      expect(refused).toMatchObject({ error, error_description: expect.stringMatching(description) });
    },
    60_000,
  );

  it('should refuse a login_hint the upstream does not know, naming its error', async () => {
    const config = await cibaClient();
    const refused = await initiate(config, '31129912345').then(
      () => undefined,
      (thrown: unknown) => thrown as client.ResponseBodyError,
    );
    expect(refused).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('unknown_user_id') });
  });
});
