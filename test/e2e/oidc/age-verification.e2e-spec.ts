import * as client from 'openid-client';
import { useOidcFront } from '../../support/oidc-front.js';
import { approveInSimulator, CookieBrowser, finishLogin, startLogin } from '../../support/oidc-rp.js';
import { ageSessionOrdersRevealed } from '../../support/provider-orders.js';

const AGE_ACR = 'urn:age-verification';
const IDURA_CLAIM = 'http://ageverification.criipto.com';
const ADULT = '199001011239';
const CHILD = '201601012386';

/** docs/age-verification.md, "OpenID": an age login through openid-client, as a client written for Idura makes it. */
describe('The OpenID front’s age login (issue 43)', () => {
  const { e2e, redirectUri, confidentialClient } = useOidcFront();
  let config: client.Configuration;
  beforeAll(async () => {
    ({ config } = await confidentialClient({ name: 'Age shop' }));
  });

  const authorizationUrl = (scope: string, state: string, extra: Record<string, string> = {}) =>
    client.buildAuthorizationUrl(config, { redirect_uri: redirectUri(), scope, acr_values: AGE_ACR, state, ...extra });

  /** The person logs in with the simulator as `personalNumber`; the client redeems the code. */
  const ageLogin = async (personalNumber: string, scope = 'openid is_over_18', extra: Record<string, string> = {}) => {
    const state = client.randomState();
    const browser = new CookieBrowser();
    const landed = await browser.follow(authorizationUrl(scope, state, extra).href, e2e.baseUrl);
    const page = await startLogin(browser, e2e.baseUrl, landed.url);
    await approveInSimulator(e2e.baseUrl, page, { personalNumber });
    const callback = new URL((await finishLogin(browser, e2e.baseUrl, page)).url);
    const tokens = await client.authorizationCodeGrant(config, callback, { expectedState: state });
    return { claims: tokens.claims()!, tokens };
  };

  it('should advertise the age acr and scopes in discovery', async () => {
    const discovery = (await e2e.http.get('/oidc/.well-known/openid-configuration').expect(200)).body;
    expect(discovery.acr_values_supported).toContain(AGE_ACR);
    expect(discovery.scopes_supported).toEqual(expect.arrayContaining(['is_over_15', 'is_over_16', 'is_over_18', 'is_over_21']));
    expect(discovery.claims_supported).toEqual(expect.arrayContaining(['age_verification', IDURA_CLAIM]));
  });

  it("should answer an adult's is_over_18 in the id token and userinfo with our claim and Idura's, and nothing of the person", async () => {
    // A claims request for the person's name is met with nothing: the login holds none.
    const { claims, tokens } = await ageLogin(ADULT, 'openid is_over_18', { claims: JSON.stringify({ id_token: { name: null } }) });
    expect(claims).toMatchObject({
      acr: AGE_ACR,
      age_verification: { ageOver: 18, result: true, country: 'SE', source: 'personal-number' },
      [IDURA_CLAIM]: { country: 'SE', is_over_18: true },
    });
    for (const personal of ['name', 'given_name', 'family_name', 'birthdate', 'https://id.oidc.se/claim/personalIdentityNumber'])
      expect(claims).not.toHaveProperty(personal);
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(userinfo).toEqual({
      sub: claims.sub,
      age_verification: claims.age_verification,
      [IDURA_CLAIM]: claims[IDURA_CLAIM],
    });
  });

  it('should give a random sub at every login of the same person, and false to a child', async () => {
    const first = await ageLogin(ADULT);
    const second = await ageLogin(ADULT);
    expect(first.claims.sub).not.toBe(second.claims.sub);
    const child = await ageLogin(CHILD, 'openid is_over_15');
    expect(child.claims[IDURA_CLAIM]).toEqual({ country: 'SE', is_over_15: false });
    expect(child.claims.age_verification).toMatchObject({ ageOver: 15, result: false });
    // The e-ID's own orders of these logins, decrypted, forgot who logged in (docs/age-verification.md).
    const orders = await ageSessionOrdersRevealed(e2e.app);
    expect([ADULT, CHILD, ADULT.slice(2), CHILD.slice(2)].filter((number) => orders.includes(number))).toEqual([]);
  });

  it('should refuse an age scope with a personal-data scope, two ages, or no acr, with invalid_scope before any e-ID order', async () => {
    const refused = async (url: URL) => {
      const landed = await new CookieBrowser().follow(url.href, e2e.baseUrl);
      const back = new URL(landed.url);
      expect(back.pathname).toBe('/rp/callback');
      return back.searchParams.get('error');
    };
    const state = client.randomState();
    expect(await refused(authorizationUrl('openid is_over_18 profile', state))).toBe('invalid_scope');
    expect(await refused(authorizationUrl('openid is_over_18 https://id.oidc.se/scope/naturalPersonNumber', state))).toBe('invalid_scope');
    expect(await refused(authorizationUrl('openid is_over_18 is_over_21', state))).toBe('invalid_scope');
    expect(await refused(authorizationUrl('openid', state))).toBe('invalid_scope');
    const withoutAcr = client.buildAuthorizationUrl(config, { redirect_uri: redirectUri(), scope: 'openid is_over_18', state });
    expect(await refused(withoutAcr)).toBe('invalid_scope');
  });

  it('should refuse an age scope over CIBA, which names the person, with invalid_scope', async () => {
    const { config: ciba } = await confidentialClient({ name: 'Age call centre', backchannelTokenDeliveryMode: 'poll' });
    await expect(
      client.initiateBackchannelAuthentication(ciba, { scope: 'openid is_over_18', login_hint: ADULT, acr_values: 'urn:eidgw:simulator' }),
    ).rejects.toMatchObject({ error: 'invalid_scope' });
  });
});
