import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calculateJwkThumbprint, type JWK } from 'jose';
import * as client from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { LANGUAGES } from '../../../src/common/languages/languages.js';
import { LOGIN_TEXT } from '../../../src/oidc/login/oidc-login-texts.js';
import { FakeUpstream } from '../../fakes/upstream-openid-provider.js';
import { accessibilityViolations, describeInBrowser, launchChromium } from '../../support/browser.js';
import { useOidcFront } from '../../support/oidc-front.js';
import { TEST_ISSUER } from '../../support/result-token.js';

const NO_BANKID = 'urn:grn:authn:no:bankid';
const SE_BROKER = 'urn:eidgw:se-broker';
const MITID_ERHVERV = 'urn:grn:authn:dk:mitid:business';
const SCOPE = 'openid profile https://id.oidc.se/scope/naturalPersonNumber';
const ORG_CLAIMS = ['https://id.oidc.se/claim/orgNumber', 'https://id.oidc.se/claim/orgName', 'https://id.oidc.se/claim/orgAffiliation'];
const PHONE = { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true };

const dir = mkdtempSync(join(tmpdir(), 'oidc-chooser-'));
const signing = generateKeyPairSync('rsa', { modulusLength: 2048 });

describeInBrowser('The OpenID front: the chooser of e-IDs, in five languages (openid-client, headless Chromium)', () => {
  let browser: Browser;
  const fakes: FakeUpstream[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  /** The upstreams, which must know the front's callbacks, one per upstream (docs/upstream-oidc.md). */
  const startUpstreams = async (origin: string) => {
    const callbackOf = (name: string) => `${origin}/upstream/${name}/callback`;
    const jwk = signing.publicKey.export({ format: 'jwk' }) as JWK;
    const sig = { kty: jwk.kty, n: jwk.n, e: jwk.e, kid: await calculateJwkThumbprint(jwk), use: 'sig', alg: 'RS256' };
    // Norwegian BankID with CIBA on (caller authentication), besides its browser sign-in.
    const nbid = await FakeUpstream.start({
      profile: 'nbid',
      clientId: 'gw-nbid',
      redirectUri: callbackOf('nbid'),
      clientKeys: [sig],
      ciba: true,
    });
    const se = await FakeUpstream.start({
      profile: 'se-broker',
      clientId: 'gw-se',
      redirectUri: callbackOf('se-broker'),
      clientKeys: [sig],
    });
    const mitid = await FakeUpstream.start({
      profile: 'mitid',
      clientId: 'gw-mitid',
      redirectUri: callbackOf('mitid-erhverv'),
      clientKeys: [sig],
    });
    fakes.push(nbid, se, mitid);
    const privateKey = join(dir, 'signing.pem');
    writeFileSync(privateKey, signing.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const common = { environment: 'test', clientAuth: 'private_key_jwt', privateKey };
    const upstreams = [
      {
        ...common,
        name: 'nbid',
        displayName: 'BankID (Norge)',
        logo: '/brand/nbid.svg',
        issuer: nbid.issuer,
        clientId: 'gw-nbid',
        scope: 'openid profile nnin',
        acrValues: 'urn:bankid:bid',
        frontAcrValues: [NO_BANKID],
        claims: { nationalId: 'nnin' },
        country: 'NO',
      },
      {
        ...common,
        name: 'se-broker',
        displayName: 'Svensk e-legitimation',
        issuer: se.issuer,
        clientId: 'gw-se',
        scope: `${SCOPE} https://id.oidc.se/scope/naturalPersonOrgId`,
        frontAcrValues: [SE_BROKER],
        claims: { personalNumber: 'https://id.oidc.se/claim/personalIdentityNumber' },
        businessClaims: Object.fromEntries(ORG_CLAIMS.map((claim) => [claim, claim])),
        country: 'SE',
      },
      {
        ...common,
        name: 'mitid-erhverv',
        displayName: 'MitID Erhverv',
        issuer: mitid.issuer,
        clientId: 'gw-mitid',
        scope: 'openid profile mitid_erhverv',
        frontAcrValues: [MITID_ERHVERV],
        claims: { nationalId: 'dk_cpr' },
        businessClaims: {
          vatid: 'vatid',
          company_name: 'company_name',
          mitid_employee: 'employee_id',
          company_signatory: 'company_signatory',
        },
        country: 'DK',
      },
    ];
    writeFileSync(join(dir, 'upstreams.json'), JSON.stringify(upstreams));
  };
  const { e2e, redirectUri, confidentialClient } = useOidcFront({
    beforeBoot: startUpstreams,
    env: { JWT_ISSUER: TEST_ISSUER, OIDC_UPSTREAMS: join(dir, 'upstreams.json'), PROVIDERS: 'simulator,oidc' },
  });
  afterAll(async () => {
    await browser?.close();
    for (const fake of fakes) await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A registered client (limited to `providers` when given) and an authorization request of it. */
  const request = async (params: Record<string, string>, providers?: string[]) => {
    const { config } = await confidentialClient({ name: 'Nordic RP', ...(providers ? { providers } : {}) });
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: redirectUri(), scope: SCOPE, state, ...params });
    return { config, state, url };
  };

  const expectAccessible = async (page: Page) => {
    const violations = await accessibilityViolations(page);
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  };

  it('should offer the e-IDs asked for on a phone, be worked by keyboard alone, and log in with the one picked', async () => {
    const { config, state, url } = await request({ acr_values: `${NO_BANKID} ${SE_BROKER}`, ui_locales: 'nb' });
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    try {
      const response = await page.goto(url.href);
      expect(response!.headers()['content-security-policy']).toContain("default-src 'none'");
      expect(await page.getAttribute('html', 'lang')).toBe('nb');
      expect(await page.textContent('#pick-prompt')).toBe(LOGIN_TEXT.nb.pickPrompt);
      const entries = page.locator('button[name="acr"]');
      expect(await entries.allTextContents()).toEqual(['BankID (Norge)', 'Svensk e-legitimation']);
      expect(await page.getAttribute(`button[value="${NO_BANKID}"] img`, 'alt')).toBe('');
      // Nothing wider than the phone: no sideways scrolling.
      expect(
        await page.evaluate(() => (globalThis as unknown as { document: { body: { scrollWidth: number } } }).document.body.scrollWidth),
      ).toBeLessThanOrEqual(375);
      await expectAccessible(page);

      // Keyboard only: the first Tab reaches the first e-ID, the second the next; Enter picks it.
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate(
          () => (globalThis as unknown as { document: { activeElement: { value: string } } }).document.activeElement.value,
        ),
      ).toBe(NO_BANKID);
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate(
          () => (globalThis as unknown as { document: { activeElement: { value: string } } }).document.activeElement.value,
        ),
      ).toBe(SE_BROKER);
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      // The device choice of the e-ID picked (an upstream: one button to its own login), in Norwegian still.
      await page.waitForSelector('button[name="device"][value="this"]', { timeout: 5_000 });
      expect(await page.textContent('button[name="device"]')).toBe(LOGIN_TEXT.nb.continueThere);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      // The upstream is asked to speak the page's language.
      expect(await page.textContent('#ui-locales', { timeout: 5_000 })).toBe('nb');
      await page.click('#approve', { timeout: 5_000 });
      await page.waitForURL((at) => at.pathname === '/rp/callback', { timeout: 15_000 });
    } catch (error) {
      throw new Error(`${(error as Error).message} at ${page.url()}`, { cause: error });
    }
    const claims = (await client.authorizationCodeGrant(config, new URL(page.url()), { expectedState: state })).claims()!;
    await context.close();
    expect(claims).toMatchObject({ acr: NO_BANKID, amr: ['bid'], country: 'NO', nin: '01017012345', nin_issuing_country: 'NO' });
  });

  it.each(LANGUAGES)('should show the chooser of a client allowed several e-IDs in %s, by Accept-Language, axe-clean', async (language) => {
    const { url } = await request({}, ['se-broker', 'nbid']);
    const context = await browser.newContext({ ...PHONE, locale: language === 'nb' ? 'nb-NO' : language });
    const page = await context.newPage();
    await page.goto(url.href);
    expect(await page.getAttribute('html', 'lang')).toBe(language);
    expect(await page.title()).toBe(LOGIN_TEXT[language].pickTitle);
    expect(await page.textContent('h1')).toBe(LOGIN_TEXT[language].heading('Nordic RP'));
    // In the client's order.
    expect(await page.locator('button[name="acr"]').allTextContents()).toEqual(['Svensk e-legitimation', 'BankID (Norge)']);
    await expectAccessible(page);
    await context.close();
  });

  it('should go straight to the one e-ID that fits, and refuse a pick the request did not offer', async () => {
    const one = await request({ acr_values: `urn:example:unknown ${SE_BROKER}` });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(one.url.href);
    expect(await page.locator('button[name="acr"]').count()).toBe(0);
    expect(await page.locator('button[name="device"]').count()).toBe(1);
    await context.close();

    const several = await request({ acr_values: `${NO_BANKID} ${SE_BROKER}` });
    const other = await browser.newContext();
    const chooser = await other.newPage();
    await chooser.goto(several.url.href);
    const action = await chooser.getAttribute('form.chooser', 'action');
    const refused = await chooser.request.post(new URL(action!, e2e.baseUrl).href, {
      form: { acr: 'urn:eidgw:simulator' },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(400);
    // Nothing changed: the chooser again.
    await chooser.reload();
    expect(await chooser.locator('button[name="acr"]').count()).toBe(2);
    await other.close();
  });

  it("should identify a person over CIBA at the upstream that offers it, by the upstream's acr on the front", async () => {
    const { config } = await confidentialClient({ name: 'Kundesenter', backchannelTokenDeliveryMode: 'poll' });
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: SCOPE,
      login_hint: 'sub:ssn:01017012345',
      acr_values: NO_BANKID,
    });
    await fakes[0].endBackchannel('approve');
    const tokens = await client.pollBackchannelAuthenticationGrant(config, started, undefined, { signal: AbortSignal.timeout(45_000) });
    expect(tokens.claims()).toMatchObject({ acr: NO_BANKID, amr: ['bid'], country: 'NO', nin: '01017012345', nin_issuing_country: 'NO' });
  }, 60_000);

  describe('business identities', () => {
    /** One login in a browser through the chooser-less path: the acr names one upstream. */
    const logIn = async (acr: string, scope: string) => {
      const { config, state, url } = await request({ acr_values: acr, scope });
      const context = await browser.newContext();
      const page = await context.newPage();
      try {
        await page.goto(url.href);
        await page.click('button[name="device"][value="this"]', { timeout: 5_000 });
        await page.click('#approve', { timeout: 5_000 });
        await page.waitForURL((at) => at.pathname === '/rp/callback', { timeout: 15_000 });
      } catch (error) {
        throw new Error(`${(error as Error).message} at ${page.url()}`, { cause: error });
      }
      const tokens = await client.authorizationCodeGrant(config, new URL(page.url()), { expectedState: state });
      await context.close();
      return { idToken: tokens.claims()!, userInfo: await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub) };
    };

    it("should pass a MitID Erhverv login's company, employee and signatory through under the configured names", async () => {
      const { idToken, userInfo } = await logIn(
        MITID_ERHVERV,
        'openid profile https://id.oidc.se/scope/naturalPersonNumber eidgw:business',
      );
      const business = {
        vatid: 'DK12345678',
        company_name: 'Nordisk Handel ApS',
        mitid_employee: '8b2c3d6e-1111-4f00-9a00-000000000001',
        company_signatory: true,
      };
      expect(idToken).toMatchObject({
        acr: MITID_ERHVERV,
        amr: ['mitid'],
        country: 'DK',
        nin: '0101701234',
        nin_issuing_country: 'DK',
        ...business,
      });
      expect(userInfo).toMatchObject(business);
      // The upstream's own names stay behind.
      expect(idToken).not.toHaveProperty('employee_id');
    });

    it('should release the business claims only to a client that asks for them', async () => {
      const { idToken } = await logIn(MITID_ERHVERV, SCOPE);
      expect(idToken).toMatchObject({ acr: MITID_ERHVERV, nin: '0101701234' });
      expect(idToken).not.toHaveProperty('vatid');
      expect(idToken).not.toHaveProperty('company_signatory');
    });

    it("should give a Swedish upstream's organisation under the OIDC Sweden claims, by the naturalPersonOrgId scope", async () => {
      const { idToken } = await logIn(SE_BROKER, 'openid https://id.oidc.se/scope/naturalPersonOrgId');
      expect(idToken).toMatchObject({
        acr: SE_BROKER,
        name: 'Kari Nordmann',
        'https://id.oidc.se/claim/orgNumber': '5567321707',
        'https://id.oidc.se/claim/orgName': 'Nordisk Handel AB',
        'https://id.oidc.se/claim/orgAffiliation': '197001019876@5567321707',
      });
      // Not asked for: the personal number.
      expect(idToken).not.toHaveProperty(['https://id.oidc.se/claim/personalIdentityNumber']);
    });

    it('should list the scopes and business claims in discovery', async () => {
      const discovery = (await e2e.http.get('/oidc/.well-known/openid-configuration').expect(200)).body;
      expect(discovery.scopes_supported).toEqual(expect.arrayContaining(['https://id.oidc.se/scope/naturalPersonOrgId', 'eidgw:business']));
      expect(discovery.claims_supported).toEqual(expect.arrayContaining(['vatid', 'company_signatory', ...ORG_CLAIMS]));
    });
  });
});
