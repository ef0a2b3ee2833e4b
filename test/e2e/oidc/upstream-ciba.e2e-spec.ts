import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calculateJwkThumbprint, type JWK } from 'jose';
import * as client from 'openid-client';
import { FakeUpstream } from '../../fakes/upstream-openid-provider.js';
import { useOidcFront } from '../../support/oidc-front.js';

const NO_BANKID = 'urn:grn:authn:no:bankid';
const NNIN = '01017012345';
const CIBA = 'urn:openid:params:grant-type:ciba';
const SCOPE = 'openid profile https://id.oidc.se/scope/naturalPersonNumber';

const dir = mkdtempSync(join(tmpdir(), 'oidc-upstream-ciba-'));
const signing = generateKeyPairSync('rsa', { modulusLength: 2048 });

describe('CIBA through the OpenID front towards an upstream that offers it (openid-client, a Norwegian BankID with CIBA on)', () => {
  let fake: FakeUpstream;
  /** The upstream, which must know the front's callback (docs/upstream-oidc.md). */
  const startUpstream = async (origin: string) => {
    const jwk = signing.publicKey.export({ format: 'jwk' }) as JWK;
    const kid = await calculateJwkThumbprint({ kty: jwk.kty, n: jwk.n, e: jwk.e });
    fake = await FakeUpstream.start({
      profile: 'nbid',
      clientId: 'gw-nbid',
      redirectUri: `${origin}/upstream/nbid/callback`,
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
  };
  const { confidentialClient } = useOidcFront({
    beforeBoot: startUpstream,
    env: { OIDC_UPSTREAMS: join(dir, 'upstreams.json'), PROVIDERS: 'simulator,oidc' },
  });
  afterAll(async () => {
    await fake?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A call centre's client in poll mode, allowed the upstream only. */
  const cibaClient = async () =>
    (await confidentialClient({ name: 'Kundesenter', providers: ['nbid'], backchannelTokenDeliveryMode: 'poll' })).config;
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
