import { exportJWK, generateKeyPair } from 'jose';
import * as client from 'openid-client';
import { runCli } from '../../../src/cli/run-cli.js';
import { TEST_ENCRYPTION_KEY, withEnv } from '../../support/create-test-app.js';
import { useOidcFront } from '../../support/oidc-front.js';
import { approveInSimulator, CookieBrowser, discover, finishLogin, formPostFields, startLogin } from '../../support/oidc-rp.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

const PERSON_NUMBER_CLAIM = 'https://id.oidc.se/claim/personalIdentityNumber';
const SCOPE = 'openid profile https://id.oidc.se/scope/naturalPersonNumber eidgw:result';

describe('OpenID Provider (openid-client as the relying party)', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  const { e2e, issuer, redirectUri, member, register, confidentialClient } = useOidcFront({
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
  });
  afterAll(async () => {
    await receiver?.close();
  });

  /** The browser's part: the authorization request, the login page, the app's approval, back to the client. */
  const logIn = async (authorizationUrl: URL, user: { personalNumber?: string; action?: 'approve' | 'cancel' } = {}) => {
    const browser = new CookieBrowser();
    const landed = await browser.follow(authorizationUrl.href, e2e.baseUrl);
    expect(landed.url).toContain('/oidc/interaction/');
    const page = await startLogin(browser, e2e.baseUrl, landed.url);
    await approveInSimulator(e2e.baseUrl, page, user);
    const finished = await finishLogin(browser, e2e.baseUrl, page);
    return { callback: new URL(finished.url), page, finished, browser };
  };

  /** Where the provider sends the browser straight back (an error before any login page). */
  const refusedAtOnce = async (authorizationUrl: URL) => {
    const landed = await new CookieBrowser().follow(authorizationUrl.href, e2e.baseUrl);
    return new URL(landed.url);
  };

  const authorizationUrl = (config: client.Configuration, params: Record<string, string> = {}) =>
    client.buildAuthorizationUrl(config, { redirect_uri: redirectUri(), scope: SCOPE, state: client.randomState(), ...params });

  it('should complete a code flow with a confidential client and release the claims its scopes ask for', async () => {
    const { registered, config } = await confidentialClient({ personalNumberClaim: 'ssn' });
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = authorizationUrl(config, { state, nonce, acr_values: 'urn:eidgw:simulator' });
    const { callback, page } = await logIn(url);
    expect(callback.searchParams.get('iss')).toBe(issuer());

    const tokens = await client.authorizationCodeGrant(config, callback, { expectedState: state, expectedNonce: nonce });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({
      iss: issuer(),
      aud: registered.clientId,
      acr: 'urn:eidgw:simulator',
      amr: ['simulator'],
      given_name: 'Tess',
      family_name: 'Testsson',
      birthdate: '1990-01-01',
      [PERSON_NUMBER_CLAIM]: '199001011239',
      ssn: '199001011239',
      txn: page.sessionId,
    });
    expect(typeof claims.auth_time).toBe('number');
    expect(claims.sub).not.toContain('199001011239');
    expect(typeof claims.eidgw_result).toBe('string');
    expect(tokens.refresh_token).toBeUndefined();

    const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(userinfo).toMatchObject({ sub: claims.sub, [PERSON_NUMBER_CLAIM]: '199001011239', name: 'Tess Testsson' });
  });

  it('should release only the subject without the person scopes', async () => {
    const { config } = await confidentialClient();
    const state = client.randomState();
    const { callback } = await logIn(authorizationUrl(config, { state, scope: 'openid' }));
    const claims = (await client.authorizationCodeGrant(config, callback, { expectedState: state })).claims()!;
    expect(claims[PERSON_NUMBER_CLAIM]).toBeUndefined();
    expect(claims.name).toBeUndefined();
    expect(claims.sub).toEqual(expect.any(String));
  });

  it('should require PKCE of a public client and complete its flow with S256', async () => {
    const registered = await register({ tokenEndpointAuthMethod: 'none' });
    expect(registered.clientSecret).toBeNull();
    const config = await discover(issuer(), registered.clientId, undefined, client.None());

    const without = await refusedAtOnce(authorizationUrl(config));
    expect(without.searchParams.get('error')).toBe('invalid_request');

    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const { callback } = await logIn(
      authorizationUrl(config, { state, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' }),
    );
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.claims()!.acr).toBe('urn:eidgw:simulator');
  });

  it('should take a personal number in login_hint through PAR, and refuse it in a plain URL', async () => {
    const { config } = await confidentialClient();
    const plain = await refusedAtOnce(authorizationUrl(config, { login_hint: '199001011239' }));
    expect(plain.searchParams.get('error')).toBe('invalid_request');
    expect(plain.searchParams.get('error_description')).toContain('PAR');

    const state = client.randomState();
    const pushed = await client.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: redirectUri(),
      scope: SCOPE,
      state,
      login_hint: '199001011239',
    });
    // The browser's URL carries only the request_uri.
    expect(pushed.href).not.toContain('199001011239');
    const { callback } = await logIn(pushed);
    const tokens = await client.authorizationCodeGrant(config, callback, { expectedState: state });
    expect(tokens.claims()![PERSON_NUMBER_CLAIM]).toBe('199001011239');
  });

  it('should give one person the same pairwise sub at one client and different ones at two', async () => {
    const first = await confidentialClient();
    const second = await confidentialClient();
    const subjectAt = async (config: client.Configuration) => {
      const state = client.randomState();
      const { callback } = await logIn(authorizationUrl(config, { state, scope: 'openid' }), { personalNumber: '198507099805' });
      return (await client.authorizationCodeGrant(config, callback, { expectedState: state })).claims()!.sub;
    };
    const a1 = await subjectAt(first.config);
    const a2 = await subjectAt(first.config);
    const b = await subjectAt(second.config);
    expect(a2).toBe(a1);
    expect(b).not.toBe(a1);
  });

  it('should answer with form_post when asked', async () => {
    const { config } = await confidentialClient();
    const state = client.randomState();
    const { finished } = await logIn(authorizationUrl(config, { state, response_mode: 'form_post' }));
    const html = await finished.response!.text();
    expect(html).toContain(`action="${redirectUri()}"`);
    const fields = formPostFields(html);
    expect(fields.iss).toBe(issuer());
    const posted = new Request(redirectUri(), { method: 'POST', body: new URLSearchParams(fields) });
    const tokens = await client.authorizationCodeGrant(config, posted, { expectedState: state });
    expect(tokens.access_token).toEqual(expect.any(String));
  });

  it('should issue a refresh token only for offline_access, refresh, and revoke it', async () => {
    const { config } = await confidentialClient();
    const state = client.randomState();
    const { callback } = await logIn(authorizationUrl(config, { state, scope: `${SCOPE} offline_access`, prompt: 'consent' }));
    const tokens = await client.authorizationCodeGrant(config, callback, { expectedState: state });
    expect(tokens.refresh_token).toEqual(expect.any(String));

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.claims()![PERSON_NUMBER_CLAIM]).toBe('199001011239');
    const current = refreshed.refresh_token ?? tokens.refresh_token!;
    await client.tokenRevocation(config, current);
    await expect(client.refreshTokenGrant(config, current)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('should authenticate a client with private_key_jwt', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const registered = await register({ tokenEndpointAuthMethod: 'private_key_jwt', jwks: { keys: [await exportJWK(publicKey)] } });
    const config = await discover(issuer(), registered.clientId, undefined, client.PrivateKeyJwt(privateKey));
    const state = client.randomState();
    const { callback } = await logIn(authorizationUrl(config, { state }));
    const tokens = await client.authorizationCodeGrant(config, callback, { expectedState: state });
    expect(tokens.claims()!.acr).toBe('urn:eidgw:simulator');
  });

  it('should bind tokens to a DPoP key', async () => {
    const { config } = await confidentialClient();
    const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair());
    const state = client.randomState();
    const { callback } = await logIn(authorizationUrl(config, { state }));
    const tokens = await client.authorizationCodeGrant(config, callback, { expectedState: state }, undefined, { DPoP: dpop });
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
    const claims = tokens.claims()!;
    await expect(client.fetchUserInfo(config, tokens.access_token, claims.sub, { DPoP: dpop })).resolves.toMatchObject({ sub: claims.sub });
    // Without the proof the bound token is refused.
    await expect(client.fetchUserInfo(config, tokens.access_token, claims.sub)).rejects.toBeDefined();
  });

  it('should send access_denied naming the hintCode when the user cancels on the page or in the app', async () => {
    const { config } = await confidentialClient();
    const browser = new CookieBrowser();
    const landed = await browser.follow(authorizationUrl(config).href, e2e.baseUrl);
    const page = await startLogin(browser, e2e.baseUrl, landed.url);
    const cancelled = await browser.follow(`${e2e.baseUrl}/oidc/interaction/${page.uid}/cancel`, e2e.baseUrl, { method: 'POST' });
    const onPage = new URL(cancelled.url);
    expect(onPage.searchParams.get('error')).toBe('access_denied');
    expect(onPage.searchParams.get('error_description')).toContain('cancelled');

    const { callback } = await logIn(authorizationUrl(config), { action: 'cancel' });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('error_description')).toContain('userCancel');
  });

  it('should refuse a redirect URI that is not registered, without redirecting', async () => {
    const { config } = await confidentialClient();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: 'https://attacker.example/cb', scope: 'openid' });
    const answer = await fetch(url, { redirect: 'manual' });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
  });

  it('should serve the login page in the asked language under a strict CSP', async () => {
    const { config } = await confidentialClient();
    const browser = new CookieBrowser();
    const landed = await browser.follow(authorizationUrl(config, { ui_locales: 'en-GB sv' }).href, e2e.baseUrl);
    const html = await landed.response!.text();
    expect(html).toContain('<html lang="en">');
    expect(html).not.toMatch(/<script>|<style>|\sstyle=|\son[a-z]+=/);
    const csp = landed.response!.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    expect(html).not.toContain('199001011239');
  });

  it('should make every OIDC login an ordinary session: listed, and its webhook carries oidcClientId', async () => {
    await e2e.http
      .post('/api/v1/webhook-endpoints')
      .set('authorization', (await member()).bearer)
      .send({ url: receiver.url(), environment: 'test' })
      .expect(201);
    const { registered, config } = await confidentialClient();
    const { page } = await logIn(authorizationUrl(config));
    const [webhook] = await receiver.waitForRequests(1);
    const payload = JSON.parse(webhook.body) as { type: string; data: { sessionId: string; metadata?: Record<string, string> } };
    expect(payload.data.sessionId).toBe(page.sessionId);
    expect(payload.data.metadata).toEqual({ oidcClientId: registered.clientId });

    const listed = await e2e.http
      .post('/api/v1/sessions')
      .set('authorization', (await member()).bearer)
      .send({ startRow: 0, endRow: 10, filterModel: { sessionId: { filterType: 'text', type: 'equals', filter: page.sessionId } } })
      .expect(200);
    expect(listed.body.rows).toEqual([expect.objectContaining({ sessionId: page.sessionId, status: 'complete', provider: 'simulator' })]);
  });

  it('should answer OAuth-shaped errors on /oidc, also from the checks before the provider', async () => {
    const guarded = await fetch(`${issuer()}/auth?client_id=x&redirect_uri=${encodeURIComponent('<script>alert(1)</script>')}`);
    expect(guarded.status).toBe(400);
    expect(guarded.headers.get('content-type')).toContain('application/json');
    expect(await guarded.json()).toMatchObject({ error: 'invalid_request' });

    const token = await fetch(`${issuer()}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=x&client_id=nobody&client_secret=y',
    });
    expect(token.status).toBe(401);
    expect(await token.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('should offer in discovery every setting Keycloak, Auth0, Entra ID, Supabase and next-auth need', async () => {
    const discovery = (await (await fetch(`${issuer()}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(discovery).toMatchObject({
      issuer: issuer(),
      authorization_endpoint: `${issuer()}/auth`,
      token_endpoint: `${issuer()}/token`,
      userinfo_endpoint: `${issuer()}/me`,
      jwks_uri: `${issuer()}/jwks`,
      end_session_endpoint: `${issuer()}/session/end`,
      revocation_endpoint: `${issuer()}/token/revocation`,
      pushed_authorization_request_endpoint: `${issuer()}/request`,
      authorization_response_iss_parameter_supported: true,
    });
    expect(discovery.response_types_supported).toContain('code');
    expect(discovery.response_modes_supported).toEqual(expect.arrayContaining(['query', 'form_post']));
    expect(discovery.subject_types_supported).toEqual(expect.arrayContaining(['public', 'pairwise']));
    expect(discovery.id_token_signing_alg_values_supported).toEqual(['ES256']);
    expect(discovery.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none']),
    );
    expect(discovery.code_challenge_methods_supported).toEqual(['S256']);
    expect(discovery.scopes_supported).toEqual(
      expect.arrayContaining(['openid', 'profile', 'offline_access', 'https://id.oidc.se/scope/naturalPersonNumber']),
    );
    expect(discovery.claims_supported).toEqual(
      expect.arrayContaining(['sub', 'name', 'given_name', 'family_name', 'birthdate', PERSON_NUMBER_CLAIM]),
    );
    expect(discovery.acr_values_supported).toEqual(expect.arrayContaining(['urn:grn:authn:se:bankid', 'urn:eidgw:simulator']));
    expect(discovery.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(discovery.dpop_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256']));

    // The keys are the service's own signing keys, with their rotation.
    const jwks = (await (await fetch(`${issuer()}/jwks`)).json()) as { keys: { kid: string }[] };
    const service = (await (await fetch(`${e2e.baseUrl}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
    expect(jwks.keys.map((key) => key.kid)).toEqual(service.keys.map((key) => key.kid));
  });

  it('should manage clients from the command line, the secret printed once', async () => {
    const cli = (...argv: string[]) =>
      withEnv({ ...e2e.env, LOG_LEVEL: 'silent', DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY }, () => runCli<Record<string, unknown>>(argv));
    const created = await cli('oidc-clients', 'create', '--team', e2e.team.id, '--name', 'CLI RP', '--redirect-uri', redirectUri());
    expect(created.exitCode).toBe(0);
    const client = created.output as { id: string; clientId: string; clientSecret: string };
    expect(client.clientSecret).toEqual(expect.any(String));
    const listed = await cli('oidc-clients', 'list', '--team', e2e.team.id);
    const rows = listed.output as unknown as { id: string; clientSecret?: string }[];
    expect(rows.find((row) => row.id === client.id)).toBeDefined();
    expect(rows.every((row) => row.clientSecret === undefined)).toBe(true);
    // The provider knows it at once: the client authenticates with the printed secret.
    await discover(issuer(), client.clientId, client.clientSecret);
    expect((await cli('oidc-clients', 'delete', '--team', e2e.team.id, '--id', client.id)).exitCode).toBe(0);
    // Both changes are the operator's, in the team's audit log.
    const audit = await e2e.http
      .post('/api/v1/audit-events')
      .set('authorization', (await member()).bearer)
      .send({ startRow: 0, endRow: 10, filterModel: { targetId: { filterType: 'text', type: 'equals', filter: client.id } } })
      .expect(200);
    expect((audit.body.rows as { action: string; actorType: string }[]).map((row) => [row.action, row.actorType])).toEqual([
      ['oidc_client.deleted', 'operator'],
      ['oidc_client.created', 'operator'],
    ]);
    const gone = await fetch(`${issuer()}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'x',
        client_id: client.clientId,
        client_secret: client.clientSecret,
      }),
    });
    expect(gone.status).toBe(401);
  });
});
