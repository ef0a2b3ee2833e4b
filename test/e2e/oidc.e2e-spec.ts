import { randomUUID } from 'node:crypto';
import * as client from 'openid-client';
import { TokensService } from '../../src/tokens/tokens.service.js';
import { UsersService } from '../../src/users/users.service.js';
import { useE2eApp } from '../support/e2e.js';
import { approveInSimulator, CookieBrowser, discover, finishLogin, freePort, readLoginPage } from '../support/oidc-rp.js';

const PERSON_NUMBER_CLAIM = 'https://id.oidc.se/claim/personalIdentityNumber';

describe('OpenID Provider (openid-client as the relying party)', () => {
  let port = 0;
  beforeAll(async () => {
    port = await freePort();
  });
  // The real clock: the collector moves the simulator's session as it would in production.
  const e2e = useE2eApp({
    listen: true,
    listenPort: () => port,
    env: () => ({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}` }),
    withKey: { plan: 'pro' },
  });
  const issuer = () => `${e2e.baseUrl}/oidc`;
  const redirectUri = () => `${e2e.baseUrl}/rp/callback`;

  const memberToken = async () => {
    const user = await e2e.app.get(UsersService).create({ teamId: e2e.team.id, email: `member-${randomUUID()}@example.com` });
    return `Bearer ${(await e2e.app.get(TokensService).issue({ userId: user.id, teamId: e2e.team.id, clientId: 'test' })).token}`;
  };

  const registerClient = async (body: Record<string, unknown> = {}) => {
    const created = await e2e.http
      .post('/api/v1/oidc-clients')
      .set('authorization', await memberToken())
      .send({ name: 'Test RP', redirectUris: [redirectUri()], ...body })
      .expect(201);
    return created.body as { id: string; clientId: string; clientSecret: string | null };
  };

  /** The browser's part: the authorization request, the login page, the app's approval, back to the client. */
  const logIn = async (authorizationUrl: URL, user: { personalNumber?: string; action?: 'approve' | 'cancel' } = {}) => {
    const browser = new CookieBrowser();
    const landed = await browser.follow(authorizationUrl.href, e2e.baseUrl);
    expect(landed.url).toContain('/oidc/interaction/');
    const page = readLoginPage(landed.url, await landed.response!.text());
    await approveInSimulator(e2e.baseUrl, page, user);
    return { callback: new URL(await finishLogin(browser, e2e.baseUrl, page)), page };
  };

  it('should complete a code flow with a confidential client and release the claims its scopes ask for', async () => {
    const registered = await registerClient({ personalNumberClaim: 'ssn' });
    const config = await discover(issuer(), registered.clientId, registered.clientSecret!);
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri(),
      scope: 'openid profile https://id.oidc.se/scope/naturalPersonNumber eidgw:result',
      state,
      nonce,
      acr_values: 'urn:eidgw:simulator',
    });
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
    expect(claims.sub).not.toContain('199001011239');
    expect(typeof claims.eidgw_result).toBe('string');
    expect(tokens.refresh_token).toBeUndefined();

    const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(userinfo).toMatchObject({ sub: claims.sub, [PERSON_NUMBER_CLAIM]: '199001011239', name: 'Tess Testsson' });
  });
});
