import * as client from 'openid-client';
import { useOidcFront } from '../../support/oidc-front.js';
import { approveInSimulator, CookieBrowser, finishLogin, startLogin } from '../../support/oidc-rp.js';

const PAYMENT = {
  type: 'bankid_payment',
  transactionType: 'card',
  recipient: { name: 'Exempelbutiken AB' },
  money: { amount: '249,00', currency: 'SEK' },
  riskFlags: ['newCustomer'],
};

describe("Payment over OIDC and a client's maxRisk (openid-client as the relying party)", () => {
  const { e2e, redirectUri, confidentialClient } = useOidcFront();
  let config: client.Configuration;
  beforeAll(async () => {
    ({ config } = await confidentialClient({ name: 'Careful RP', maxRisk: 'low' }));
  });

  /** A login the provider judges at `risk`; where the browser lands on the client. */
  const logInAt = async (risk: 'low' | 'moderate', state: string) => {
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri(),
      scope: 'openid',
      state,
      acr_values: 'urn:eidgw:simulator',
    });
    const browser = new CookieBrowser();
    const landed = await browser.follow(url.href, e2e.baseUrl);
    const page = await startLogin(browser, e2e.baseUrl, landed.url);
    await approveInSimulator(e2e.baseUrl, page, { risk });
    return { callback: new URL((await finishLogin(browser, e2e.baseUrl, page)).url), page };
  };

  it('should refuse a login judged riskier than the client accepts with access_denied naming riskTooHigh', async () => {
    const { callback, page } = await logInAt('moderate', client.randomState());
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('error_description')).toBe('The e-ID login did not complete (hintCode: riskTooHigh)');
    // The session itself failed: no person reached a poll, a webhook or a result token.
    const session = await e2e.http.post(`/api/v1/auth/${page.sessionId}/poll`).set('x-api-key', e2e.key);
    expect(session.body).toMatchObject({ status: 'failed', hintCode: 'riskTooHigh' });
    expect(session.body.user).toBeUndefined();
  });

  it('should let a login within the limit through', async () => {
    const state = client.randomState();
    const { callback } = await logInAt('low', state);
    const tokens = await client.authorizationCodeGrant(config, callback, { expectedState: state });
    expect(tokens.claims()!.acr).toBe('urn:eidgw:simulator');
  });

  it('should run a BankID payment from pushed authorization_details and name the approved payment in the token response', async () => {
    const state = client.randomState();
    const url = await client.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: redirectUri(),
      scope: 'openid eidgw:result',
      state,
      acr_values: 'urn:eidgw:simulator',
      authorization_details: JSON.stringify([PAYMENT]),
    });
    const browser = new CookieBrowser();
    const landed = await browser.follow(url.href, e2e.baseUrl);
    const html = await landed.response!.text();
    expect(html).toContain('Godkänn betalningen till Careful RP');
    const page = await startLogin(browser, e2e.baseUrl, landed.url);
    await approveInSimulator(e2e.baseUrl, page);
    const callback = new URL((await finishLogin(browser, e2e.baseUrl, page)).url);

    const tokens = await client.authorizationCodeGrant(config, callback, { expectedState: state });
    expect(tokens.authorization_details).toEqual([PAYMENT]);
    expect(tokens.claims()!.txn).toBe(page.sessionId);
    const session = await e2e.http.post(`/api/v1/auth/${page.sessionId}/poll`).set('x-api-key', e2e.key);
    expect(session.body).toMatchObject({ status: 'complete', operation: 'payment' });
  });

  it('should refuse a payment the payment API would refuse, and one in a plain browser URL', async () => {
    const wrong = { ...PAYMENT, money: { amount: '249.00', currency: 'SEK' } };
    await expect(
      client.buildAuthorizationUrlWithPAR(config, {
        redirect_uri: redirectUri(),
        scope: 'openid',
        authorization_details: JSON.stringify([wrong]),
      }),
    ).rejects.toMatchObject({ error: 'invalid_authorization_details', error_description: expect.stringContaining('amount') });

    const plain = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri(),
      scope: 'openid',
      state: client.randomState(),
      authorization_details: JSON.stringify([PAYMENT]),
    });
    const refused = new URL((await new CookieBrowser().follow(plain.href, e2e.baseUrl)).url);
    expect(refused.searchParams.get('error')).toBe('invalid_request');
    expect(refused.searchParams.get('error_description')).toContain('pushed (PAR) or signed (JAR)');
  });
});
