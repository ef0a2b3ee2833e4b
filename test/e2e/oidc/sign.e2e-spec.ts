import * as client from 'openid-client';
import { useOidcFront } from '../../support/oidc-front.js';
import { approveInSimulator, CookieBrowser, finishLogin, startLogin } from '../../support/oidc-rp.js';

const SIGN_SCOPE = 'openid https://id.oidc.se/scope/sign https://id.oidc.se/scope/naturalPersonNumber eidgw:result';
const USER_SIGNATURE = 'https://id.oidc.se/claim/userSignature';
const SIGN_REQUEST = 'https://id.oidc.se/param/signRequest';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const TBS = b64('sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08');
const signRequest = (texts: Record<string, string>) =>
  JSON.stringify({ tbs_data: TBS, sign_message: { message: Object.fromEntries(Object.entries(texts).map(([k, v]) => [k, b64(v)])) } });

describe('Signing over OpenID Connect (openid-client as the relying party)', () => {
  const { e2e, issuer, redirectUri, confidentialClient } = useOidcFront();
  let config: client.Configuration;
  beforeAll(async () => {
    ({ config } = await confidentialClient({ name: 'Avtalsportalen' }));
  });

  const pushed = (state: string, params: Record<string, string> = {}) =>
    client.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: redirectUri(),
      scope: SIGN_SCOPE,
      state,
      prompt: 'login consent',
      acr_values: 'urn:eidgw:simulator',
      [SIGN_REQUEST]: signRequest({ sv: 'Jag godkänner avtal 4711', en: 'I accept contract 4711' }),
      ...params,
    });
  /** Where the browser ends up at once: the client's redirect URI with an error, before any login page. */
  const refusedAtOnce = async (url: URL) => new URL((await new CookieBrowser().follow(url.href, e2e.baseUrl)).url);

  it('should run a sign session with the pushed signRequest and put the signature in the id token, not in userinfo', async () => {
    const state = client.randomState();
    const url = await pushed(state, { ui_locales: 'en' });
    expect(url.href).not.toContain(TBS);
    const browser = new CookieBrowser();
    const landed = await browser.follow(url.href, e2e.baseUrl);
    const html = await landed.response!.text();
    expect(html).toContain('Sign for Avtalsportalen');
    const page = await startLogin(browser, e2e.baseUrl, landed.url);
    await approveInSimulator(e2e.baseUrl, page);
    const callback = new URL((await finishLogin(browser, e2e.baseUrl, page)).url);

    const tokens = await client.authorizationCodeGrant(config, callback, { expectedState: state });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ 'https://id.oidc.se/claim/personalIdentityNumber': '199001011239', txn: page.sessionId });
    expect(typeof claims.auth_time).toBe('number');
    // The BankID-shaped signature of what the app showed (in the page's language) and of the data to be signed.
    const xml = Buffer.from(claims[USER_SIGNATURE] as string, 'base64').toString('utf8');
    expect(xml).toContain(`<usrVisibleData charset="UTF-8" visible="wysiwys">${b64('I accept contract 4711')}</usrVisibleData>`);
    expect(xml).toContain(`<usrNonVisibleData>${TBS}</usrNonVisibleData>`);
    expect(xml).toContain('<funcId>Signing</funcId>');

    const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(userinfo['https://id.oidc.se/claim/personalIdentityNumber']).toBe('199001011239');
    expect(userinfo[USER_SIGNATURE]).toBeUndefined();
  });

  it('should send access_denied naming the hintCode when the signature is declined', async () => {
    const browser = new CookieBrowser();
    const landed = await browser.follow((await pushed(client.randomState())).href, e2e.baseUrl);
    const page = await startLogin(browser, e2e.baseUrl, landed.url);
    await approveInSimulator(e2e.baseUrl, page, { action: 'cancel' });
    const callback = new URL((await finishLogin(browser, e2e.baseUrl, page)).url);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('error_description')).toBe('The e-ID signature did not complete (hintCode: userCancel)');
  });

  it.each([
    ['without prompt=login consent', { prompt: 'login' }, 'prompt=login consent'],
    ['without a signRequest', { [SIGN_REQUEST]: '' }, 'needs https://id.oidc.se/param/signRequest'],
    [
      'with a sign message that is not base64',
      { [SIGN_REQUEST]: JSON.stringify({ tbs_data: TBS, sign_message: { message: 'Hej' } }) },
      'base64',
    ],
  ])('should refuse a pushed signature request %s with invalid_request', async (_case, params, words) => {
    const callback = await refusedAtOnce(await pushed(client.randomState(), params));
    expect(callback.searchParams.get('error')).toBe('invalid_request');
    expect(callback.searchParams.get('error_description')).toContain(words);
  });

  it('should refuse a signRequest in a plain browser URL', async () => {
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri(),
      scope: SIGN_SCOPE,
      state: client.randomState(),
      prompt: 'login consent',
      [SIGN_REQUEST]: signRequest({ sv: 'Avtal' }),
    });
    const callback = await refusedAtOnce(url);
    expect(callback.searchParams.get('error')).toBe('invalid_request');
    expect(callback.searchParams.get('error_description')).toContain('pushed (PAR) or signed (JAR)');
  });

  it('should offer the sign scope and the signature claim in discovery', async () => {
    const discovery = (await (await fetch(`${issuer()}/.well-known/openid-configuration`)).json()) as Record<string, string[]>;
    expect(discovery.scopes_supported).toContain('https://id.oidc.se/scope/sign');
    expect(discovery.claims_supported).toContain(USER_SIGNATURE);
  });
});
