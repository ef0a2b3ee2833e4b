import * as client from 'openid-client';
import { CLIENT_CACHE_TTL_MS } from '../../../src/oidc/clients/oidc-client-cache.js';
import { MAX_CLIENTS_PER_TEAM, OidcClientsService } from '../../../src/oidc/clients/oidc-clients.service.js';
import { exportJWK, generateKeyPair } from 'jose';
import { captureLogs, decodedTokensIn } from '../../support/log-capture.js';
import { approveInSimulator, CookieBrowser, discover, finishLogin, startLogin } from '../../support/oidc-rp.js';
import { useOidcFront } from '../../support/oidc-front.js';
import { teamOfItsOwn } from '../../support/team-member.js';

const CIBA = 'urn:openid:params:grant-type:ciba';
const SCOPE = 'openid profile https://id.oidc.se/scope/naturalPersonNumber';
// Supertest and fetch connect from loopback: trusting it lets each test speak for an address of its own.
const LOOPBACK = '127.0.0.1,::1';

/** docs/security.md, "Review of the new fronts, round 4": the OpenID front's protocol, through openid-client. */
describe('The OpenID front’s protocol (issue 40)', () => {
  const { e2e, issuer, redirectUri, register, confidentialClient } = useOidcFront({ env: { TRUST_PROXY: LOOPBACK, LOG_LEVEL: 'debug' } });
  // Every line of every flow of this file, for finding 5's scan.
  let logLines: string[] = [];
  beforeAll(() => {
    logLines = captureLogs(e2e.app);
  });
  const team = () => teamOfItsOwn(e2e.app);

  const authorizationUrl = (config: client.Configuration, state: string) =>
    client.buildAuthorizationUrl(config, { redirect_uri: redirectUri(), scope: SCOPE, state });
  const openPage = async (url: URL) => {
    const browser = new CookieBrowser();
    const landed = await browser.follow(url.href, e2e.baseUrl);
    return { browser, landed };
  };
  const logIn = async (url: URL) => {
    const { browser, landed } = await openPage(url);
    const page = await startLogin(browser, e2e.baseUrl, landed.url);
    await approveInSimulator(e2e.baseUrl, page);
    return new URL((await finishLogin(browser, e2e.baseUrl, page)).url);
  };
  const tokenError = (config: client.Configuration, authReqId: string) =>
    client.genericGrantRequest(config, CIBA, { auth_req_id: authReqId }).then(
      () => ({ error: undefined, description: undefined }),
      (thrown: client.ResponseBodyError) => ({ error: thrown.error, description: thrown.error_description }),
    );

  describe('finding 3: a team without a subscription or without pro keeps no OpenID login', () => {
    it('should send unauthorized_client naming subscription_expired from the authorization request, before any e-ID order', async () => {
      const owner = await team();
      const { config } = await confidentialClient({}, owner);
      await owner.endSubscription();
      const { landed } = await openPage(authorizationUrl(config, client.randomState()));
      const back = new URL(landed.url);
      expect(back.pathname).toBe('/rp/callback');
      expect(back.searchParams.get('error')).toBe('unauthorized_client');
      expect(back.searchParams.get('error_description')).toContain('subscription_expired');
    });

    it('should refuse the code at the token endpoint once the plan lost pro, naming feature_required, within the client cache’s 5 s', async () => {
      const owner = await team();
      const { config } = await confidentialClient({}, owner);
      const state = client.randomState();
      const callback = await logIn(authorizationUrl(config, state));
      await owner.changePlan('free');
      // The team is cached with the client for up to 5 s (docs/oidc.md, "Plans").
      e2e.clock.advance(CLIENT_CACHE_TTL_MS);
      await expect(client.authorizationCodeGrant(config, callback, { expectedState: state })).rejects.toMatchObject({
        error: 'unauthorized_client',
        error_description: expect.stringContaining('feature_required'),
      });
    });

    it('should refuse userinfo within the client cache’s 5 s once the plan lost pro, and serve it again once pro is back', async () => {
      const owner = await team();
      const { config } = await confidentialClient({}, owner);
      const state = client.randomState();
      const tokens = await client.authorizationCodeGrant(config, await logIn(authorizationUrl(config, state)), { expectedState: state });
      const sub = tokens.claims()!.sub;
      await expect(client.fetchUserInfo(config, tokens.access_token, sub)).resolves.toMatchObject({ sub });

      await owner.changePlan('free');
      e2e.clock.advance(CLIENT_CACHE_TTL_MS);
      // Userinfo answers with a WWW-Authenticate challenge carrying the error (RFC 6750).
      await expect(client.fetchUserInfo(config, tokens.access_token, sub)).rejects.toMatchObject({
        cause: [expect.objectContaining({ parameters: expect.objectContaining({ error: 'unauthorized_client' }) })],
      });
      await owner.changePlan('pro');
      e2e.clock.advance(CLIENT_CACHE_TTL_MS);
      await expect(client.fetchUserInfo(config, tokens.access_token, sub)).resolves.toMatchObject({ sub });
    });

    it('should end a login whose team lapsed while the person was in the app with unauthorized_client at /done', async () => {
      const owner = await team();
      const { config } = await confidentialClient({}, owner);
      const { browser, landed } = await openPage(authorizationUrl(config, client.randomState()));
      const page = await startLogin(browser, e2e.baseUrl, landed.url);
      await approveInSimulator(e2e.baseUrl, page);
      await owner.endSubscription();
      const back = new URL((await finishLogin(browser, e2e.baseUrl, page)).url);
      expect(back.searchParams.get('error')).toBe('unauthorized_client');
      expect(back.searchParams.has('code')).toBe(false);
    });

    it('should refuse a CIBA start, and settle a started one as unauthorized_client when the team lapses before the answer', async () => {
      const owner = await team();
      const { config } = await confidentialClient({ backchannelTokenDeliveryMode: 'poll' }, owner);
      const started = await client.initiateBackchannelAuthentication(config, {
        scope: SCOPE,
        login_hint: '199001011239',
        acr_values: 'urn:eidgw:simulator',
      });
      await owner.endSubscription();
      await e2e.http.post('/api/v1/simulator/phone').send({ personalNumber: '199001011239', action: 'approve' }).expect(200);
      await expect(
        client.pollBackchannelAuthenticationGrant(config, started, undefined, { signal: AbortSignal.timeout(20_000) }),
      ).rejects.toMatchObject({ error: 'unauthorized_client', error_description: expect.stringContaining('subscription_expired') });

      await expect(
        client.initiateBackchannelAuthentication(config, { scope: SCOPE, login_hint: '199001011239', acr_values: 'urn:eidgw:simulator' }),
      ).rejects.toMatchObject({ error: 'unauthorized_client', error_description: expect.stringContaining('subscription_expired') });
    });
  });

  describe('finding 9: one authorization code, concurrent token requests', () => {
    it('should issue at most once and revoke the grant of a code presented twice at the same moment', async () => {
      const owner = await team();
      const { config } = await confidentialClient({}, owner);
      const state = client.randomState();
      const callback = await logIn(authorizationUrl(config, state));
      const results = await Promise.allSettled(
        Array.from({ length: 4 }, () => client.authorizationCodeGrant(config, callback, { expectedState: state })),
      );
      const issued = results.filter((result) => result.status === 'fulfilled');
      const refused = results.filter((result) => result.status === 'rejected');
      expect(issued.length).toBeLessThanOrEqual(1);
      for (const { reason } of refused) expect(reason).toMatchObject({ error: 'invalid_grant' });
      // The code was used more than once: whatever one request got is revoked with the grant.
      for (const { value } of issued) {
        await expect(client.fetchUserInfo(config, value.access_token, value.claims()!.sub)).rejects.toBeDefined();
      }
    });
  });

  describe('finding 19: failed client authentication counts toward the IP block', () => {
    it('should block an address on its 10th wrong client secret at the token endpoint', async () => {
      const owner = await team();
      const { registered } = await confidentialClient({}, owner);
      const ip = '198.51.100.19';
      const token = (secret: string) =>
        fetch(`${issuer()}/token`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'x-forwarded-for': ip,
            authorization: `Basic ${Buffer.from(`${registered.clientId}:${secret}`).toString('base64')}`,
          },
          body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', redirect_uri: redirectUri() }),
        });
      for (let i = 0; i < 10; i++) expect(((await (await token('wrong')).json()) as { error: string }).error).toBe('invalid_client');
      const blocked = await token(registered.clientSecret!);
      expect(blocked.status).toBe(401);
      expect(await blocked.text()).toContain('Too many failed authentication attempts');
    });
  });

  describe('finding 20: a CIBA token request moves nothing before the client is authenticated', () => {
    it('should not let a poll with a wrong secret make the client’s own poll slow_down', async () => {
      const owner = await team();
      const { registered, config } = await confidentialClient({ backchannelTokenDeliveryMode: 'poll' }, owner);
      const started = await client.initiateBackchannelAuthentication(config, {
        scope: SCOPE,
        login_hint: '198507099805',
        acr_values: 'urn:eidgw:simulator',
      });
      const forged = await fetch(`${issuer()}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': '198.51.100.20',
          authorization: `Basic ${Buffer.from(`${registered.clientId}:wrong`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: CIBA, auth_req_id: started.auth_req_id }),
      });
      expect(forged.status).toBe(401);
      expect((await tokenError(config, started.auth_req_id)).error).toBe('authorization_pending');
    });
  });

  describe('finding 5: no personal number in a URL we accept or a line we log', () => {
    const PERSON = '199001011239';
    const refusal = async (url: URL) => {
      const { landed } = await openPage(url);
      const back = new URL(landed.url);
      return { error: back.searchParams.get('error'), description: back.searchParams.get('error_description') };
    };

    it.each(['199001011239', 'sub:ssn:199001011239', 'sub:199001011239', '19900101-1239', '900101-1239'])(
      'should refuse the plain hint %p before any login page',
      async (hint) => {
        const owner = await team();
        const { config } = await confidentialClient({}, owner);
        const url = client.buildAuthorizationUrl(config, { redirect_uri: redirectUri(), scope: SCOPE, login_hint: hint });
        expect(await refusal(url)).toEqual({ error: 'invalid_request', description: expect.stringContaining('PAR') });
      },
    );

    it('should refuse a personal number in a request object that travels in the URL, and take it pushed', async () => {
      const owner = await team();
      const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
      const registered = await register(
        { name: 'JAR RP', tokenEndpointAuthMethod: 'private_key_jwt', jwks: { keys: [await exportJWK(publicKey)] } },
        owner,
      );
      const config = await discover(issuer(), registered.clientId, undefined, client.PrivateKeyJwt(privateKey));
      const params = { redirect_uri: redirectUri(), scope: SCOPE, login_hint: PERSON, state: client.randomState() };
      const byValue = await client.buildAuthorizationUrlWithJAR(config, params, privateKey);
      expect(await refusal(byValue)).toEqual({ error: 'invalid_request', description: expect.stringContaining('PAR') });

      const pushed = await client.buildAuthorizationUrlWithPAR(config, byValue.searchParams);
      const { landed } = await openPage(pushed);
      expect(landed.url).toContain('/oidc/interaction/');
    });

    it('should log no personal number, in any line or any token in a line, through a whole login and logout', async () => {
      const owner = await team();
      const { config } = await confidentialClient({ personalNumberClaim: 'ssn' }, owner);
      const state = client.randomState();
      const pushed = await client.buildAuthorizationUrlWithPAR(config, {
        redirect_uri: redirectUri(),
        scope: SCOPE,
        state,
        login_hint: PERSON,
      });
      const callback = await logIn(pushed);
      const tokens = await client.authorizationCodeGrant(config, callback, { expectedState: state });
      expect(tokens.claims()!.ssn).toBe(PERSON);
      await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
      // RP-initiated logout with the id token in the URL, as most RPs send it; and an upstream's answer.
      const logout = await fetch(client.buildEndSessionUrl(config, { id_token_hint: tokens.id_token! }));
      expect(logout.status).toBe(200);
      await fetch(`${e2e.baseUrl}/upstream/callback?code=code-${PERSON}&state=state-${PERSON}`);

      await new Promise((resolve) => setTimeout(resolve, 100));
      const logged = logLines.join('');
      expect(logged).toContain('"url":"/oidc/auth?[redacted]"');
      expect(logged).toContain('"url":"/oidc/session/end?[redacted]"');
      const spellings = [PERSON, PERSON.slice(2), '19900101-1239', '900101-1239'];
      for (const text of [logged, ...decodedTokensIn(logged)]) for (const spelling of spellings) expect(text).not.toContain(spelling);
      expect(logged).not.toContain(tokens.id_token!);
    });
  });

  describe('finding 17: a public client’s PAR is not the client speaking', () => {
    const publicClient = async () => {
      const owner = await team();
      const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
      const registered = await register(
        { name: 'SPA', tokenEndpointAuthMethod: 'none', jwks: { keys: [await exportJWK(publicKey)] } },
        owner,
      );
      return { privateKey, config: await discover(issuer(), registered.clientId, undefined, client.None()) };
    };
    const pkce = async () => ({
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });

    it('should refuse a personal number and a payment pushed unsigned by a public client, and take them signed', async () => {
      const { config, privateKey } = await publicClient();
      const base = { redirect_uri: redirectUri(), scope: SCOPE, ...(await pkce()) };
      const refusedPush = async (params: Record<string, string>) => {
        const { landed } = await openPage(await client.buildAuthorizationUrlWithPAR(config, { ...base, ...params }));
        return new URL(landed.url).searchParams.get('error');
      };
      expect(await refusedPush({ login_hint: '199001011239' })).toBe('invalid_request');
      const payment = JSON.stringify([
        { type: 'bankid_payment', transactionType: 'card', recipient: { name: 'Shop AB' }, money: { amount: '100,00', currency: 'SEK' } },
      ]);
      expect(await refusedPush({ authorization_details: payment })).toBe('invalid_request');
      // The same payment pushed by a confidential client starts its login.
      const { config: confidential } = await confidentialClient({}, await team());
      const { landed: paying } = await openPage(
        await client.buildAuthorizationUrlWithPAR(confidential, {
          redirect_uri: redirectUri(),
          scope: SCOPE,
          authorization_details: payment,
        }),
      );
      expect(paying.url).toContain('/oidc/interaction/');

      const signed = await client.buildAuthorizationUrlWithJAR(config, { ...base, login_hint: '199001011239' }, privateKey);
      const { landed } = await openPage(await client.buildAuthorizationUrlWithPAR(config, signed.searchParams));
      expect(landed.url).toContain('/oidc/interaction/');
    });
  });

  describe('finding 10: a pairwise client keeps its sub when it turns CIBA on', () => {
    it('should give the same pairwise sub before and over CIBA, and refuse a refresh of a login made before the change', async () => {
      const owner = await team();
      const { registered, config } = await confidentialClient({ subjectType: 'pairwise' }, owner);
      const state = client.randomState();
      const callback = await logIn(
        client.buildAuthorizationUrl(config, { redirect_uri: redirectUri(), scope: `${SCOPE} offline_access`, prompt: 'consent', state }),
      );
      const tokens = await client.authorizationCodeGrant(config, callback, { expectedState: state });
      const before = tokens.claims()!.sub;

      await e2e.http
        .patch(`/api/v1/oidc-clients/${registered.id}`)
        .set('authorization', owner.bearer)
        .send({ backchannelTokenDeliveryMode: 'poll' })
        .expect(200);
      // The earlier login's grant would now name the person by the cross-team subject: it stops instead.
      await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
      await expect(client.fetchUserInfo(config, tokens.access_token, before)).rejects.toBeDefined();

      const started = await client.initiateBackchannelAuthentication(config, {
        scope: SCOPE,
        login_hint: '199001011239',
        acr_values: 'urn:eidgw:simulator',
      });
      await e2e.http.post('/api/v1/simulator/phone').send({ personalNumber: '199001011239', action: 'approve' }).expect(200);
      const overCiba = await client.pollBackchannelAuthenticationGrant(config, started, undefined, { signal: AbortSignal.timeout(20_000) });
      expect(overCiba.claims()!.sub).toBe(before);
    });
  });

  // The jwks_uri limit has its spec beside the configuration: the library refuses to fetch from loopback.
  describe('finding 13: what a team’s clients may cost the service is bounded', () => {
    it('should refuse a team’s 101st client with a problem that says why', async () => {
      const owner = await team();
      const service = e2e.app.get(OidcClientsService);
      for (let i = 0; i < MAX_CLIENTS_PER_TEAM; i++)
        await service.create(owner.team.id, { name: `RP ${i}`, redirectUris: [redirectUri()] });
      const refused = await e2e.http
        .post('/api/v1/oidc-clients')
        .set('authorization', owner.bearer)
        .send({ name: 'One too many', redirectUris: [redirectUri()] });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain('the most it may have');
    });
  });
});
