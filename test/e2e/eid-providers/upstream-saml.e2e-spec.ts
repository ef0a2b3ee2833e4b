import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as client from 'openid-client';
import { verifyBundle } from '../../../src/transparency/bundle-verifier.js';
import { FakeSuomiFi, SUOMIFI_LOA, type SuomiFiKnobs } from '../../fakes/suomifi-idp.js';
import { useE2eApp } from '../../support/e2e.js';
import { oidcRelyingParties } from '../../support/oidc-front.js';
import { CookieBrowser } from '../../support/oidc-rp.js';
import { providerContract } from '../../support/provider-contract.js';
import { TEST_ISSUER } from '../../support/result-token.js';
import { createSamlPki, decodeBase64, finishSamlLogin, postForm, samlClient, type SamlPki } from '../../support/saml-sp.js';
import { freePort } from '../../support/service-process.js';
import { memberOf } from '../../support/team-member.js';
import { waitUntil } from '../../support/webhooks.js';

const EIDAS_SUBSTANTIAL = 'http://id.elegnamnden.se/loa/1.0/eidas-sub';

// Suomi.fi e-Identification as an upstream SAML e-ID (docs/saml.md, "Upstream SAML e-IDs"), played by samlify's IdP.
describe('Upstream SAML e-IDs: Suomi.fi through SAML_UPSTREAMS', () => {
  let pki: SamlPki;
  let suomifi: FakeSuomiFi;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    pki = await createSamlPki();
    suomifi = new FakeSuomiFi(pki.idp, pki.stranger);
    writeFileSync(join(pki.dir, 'suomifi-idp.xml'), suomifi.metadata());
    const upstreams = [
      {
        name: 'suomifi',
        environment: 'test',
        displayName: 'Suomi.fi',
        metadata: join(pki.dir, 'suomifi-idp.xml'),
        spPrivateKey: pki.sp.keyPath,
        spCertificate: pki.sp.certPath,
        encryptedAssertions: true,
        authnContexts: [SUOMIFI_LOA],
        cancelStatusCodes: ['urn:oasis:names:tc:SAML:2.0:status:AuthnFailed'],
        attributes: {
          nationalId: 'urn:oid:1.2.246.21',
          givenName: 'urn:oid:2.5.4.42',
          surname: 'urn:oid:2.5.4.4',
          name: 'urn:oid:2.5.4.3',
        },
        frontAcrValues: ['urn:eidgw:suomifi'],
        samlAuthnContexts: [EIDAS_SUBSTANTIAL],
        country: 'FI',
      },
    ];
    // The same IdP under a second name: its own entityID and ACS, and none of the first one's orders.
    const twin = { ...upstreams[0], name: 'suomifi-twin' } as Record<string, unknown>;
    delete twin.frontAcrValues;
    delete twin.samlAuthnContexts;
    writeFileSync(join(pki.dir, 'saml-upstreams.json'), JSON.stringify([...upstreams, twin]));
  }, 60_000);
  afterAll(async () => {
    await pki?.remove();
  });

  const e2e = useE2eApp({
    listen: true,
    listenPort: () => port,
    withKey: true,
    env: () => ({
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      JWT_ISSUER: TEST_ISSUER,
      SAML_UPSTREAMS: join(pki.dir, 'saml-upstreams.json'),
      PROVIDERS: 'simulator,saml',
      SAML_SIGNING_KEY: pki.idp.keyPath,
      SAML_SIGNING_CERT: pki.idp.certPath,
    }),
  });

  const start = async (body: object = {}) =>
    (
      await e2e.http
        .post('/api/v1/auth/suomifi/start')
        .set('x-api-key', e2e.key)
        .send({ endUserIp: '192.0.2.10', ...body })
        .expect(200)
    ).body as { sessionId: string; launchUrl: string };
  const poll = (sessionId: string) =>
    waitUntil(async () => {
      e2e.clock.advance(2_500);
      const answer = (await e2e.http.post(`/api/v1/auth/${sessionId}/poll`).set('x-api-key', e2e.key).expect(200)).body;
      return answer.status === 'pending' ? undefined : answer;
    }, 'the session to end');
  const spMetadata = async () => (await e2e.http.get('/upstream/suomifi/metadata').expect(200)).text;
  /** The person's browser: the launch link, on to Suomi.fi with the signed AuthnRequest, and back. */
  const atSuomiFi = async (launchUrl: string, knobs: SuomiFiKnobs = {}) => {
    const launched = await e2e.http.get(new URL(launchUrl).pathname).expect(302);
    return suomifi.answer(launched.headers.location, await spMetadata(), knobs);
  };
  const post = (acsUrl: string, SAMLResponse: string) => e2e.http.post(new URL(acsUrl).pathname).type('form').send({ SAMLResponse });
  const visit = async (launchUrl: string, knobs: SuomiFiKnobs = {}) => {
    const answer = await atSuomiFi(launchUrl, knobs);
    return { answer, acs: await post(answer.acsUrl, answer.SAMLResponse) };
  };
  const qrLink = async (sessionId: string) =>
    (await e2e.http.get(`/api/v1/auth/${sessionId}/qr`).set('x-api-key', e2e.key).expect(200)).body.qrData as string;

  providerContract(() => ({
    provider: 'suomifi',
    e2e,
    collectMs: 2_500,
    verifiedEvidence: true,
    approve: async (sessionId) => (await visit(await qrLink(sessionId))).acs.headers.location,
    decline: async (sessionId) => void (await visit(await qrLink(sessionId), { outcome: 'cancel' })),
  }));

  it('should complete through the JSON API: a signed AuthnRequest for loa3, an encrypted assertion, the HETU as nationalId', async () => {
    const started = await start();
    expect(started.launchUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/upstream/suomifi/login/[0-9a-f-]{36}$`));
    const { answer, acs } = await visit(started.launchUrl);
    // The fake verified the AuthnRequest's signature by our SP metadata, and read the context asked for.
    expect(answer.request.authnContext).toBe(SUOMIFI_LOA);
    expect(acs.status).toBe(200);
    expect(acs.text).toContain('data-state="complete"');
    const complete = await poll(started.sessionId);
    expect(complete).toMatchObject({
      status: 'complete',
      user: { nationalId: '010170-999R', country: 'FI', name: 'Demo Nordea', givenName: 'Nordea', surname: 'Demo' },
      evidence: { issuer: suomifi.entityId, authnContextClassRef: SUOMIFI_LOA, responseSha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(complete.evidence.verification.status).toBe('verified');
    expect(complete.user).not.toHaveProperty('personalNumber');
    // Its evidence bundle checks offline, the result token sealing the verified Response (docs/transparency.md).
    const bundle = (await e2e.http.get(`/api/v1/sessions/${started.sessionId}/bundle`).set('x-api-key', e2e.key).expect(200)).body;
    expect(await verifyBundle(bundle)).toMatchObject({
      valid: true,
      checks: expect.arrayContaining([{ part: 'evidence', ok: true, detail: 'response is what the result token seals' }]),
    });
  }, 30_000);

  it('should report the SP certificate at readiness, without failing it', async () => {
    const ready = (await e2e.http.get('/health/ready').expect(200)).body;
    expect(ready.checks.suomifi).toEqual({ spCertificate: 'expiring', expiresAt: expect.any(String) });
    expect(ready.warnings.join(' ')).toContain('The SP certificate of the SAML upstream suomifi is expiring');
  });

  it('should publish SP metadata with our signing and encryption certificate and the ACS', async () => {
    const metadata = await spMetadata();
    expect(metadata).toContain(`entityID="http://127.0.0.1:${port}/upstream/suomifi/metadata"`);
    expect(metadata).toContain(`Location="http://127.0.0.1:${port}/upstream/suomifi/callback"`);
    expect(metadata).toContain('AuthnRequestsSigned="true"');
    expect(metadata).toContain('use="encryption"');
  });

  describe('refusals: each fails the session with providerError, and nobody is logged in', () => {
    const refused = async (knobs: SuomiFiKnobs) => {
      const started = await start();
      const { acs } = await visit(started.launchUrl, knobs);
      expect(acs.status).toBe(400);
      expect(acs.text).toContain('data-state="failed"');
      const failed = await poll(started.sessionId);
      expect(failed).toMatchObject({ status: 'failed', hintCode: 'providerError' });
      expect(failed).not.toHaveProperty('user');
    };

    it('should refuse a forged assertion (signed by a key its metadata does not name)', () => refused({ forged: true }), 30_000);
    it('should refuse an expired assertion', () => refused({ expiredMs: 10 * 60_000 }), 30_000);
    it('should refuse an assertion for another audience', () => refused({ audience: 'https://other-sp.example/saml' }), 30_000);
    it(
      'should refuse another AuthnContextClassRef than asked for',
      () => refused({ authnContext: 'http://ftn.ficora.fi/2017/loa2' }),
      30_000,
    );

    it('should refuse a replayed Response with 400 and change nothing', async () => {
      const started = await start();
      const { answer, acs } = await visit(started.launchUrl);
      expect(acs.status).toBe(200);
      const replay = await post(answer.acsUrl, answer.SAMLResponse).expect(400);
      expect(replay.text).toContain('data-state="invalid"');
      // Replayed into another pending session: its InResponseTo is not that session's request.
      const other = await start();
      await atSuomiFi(other.launchUrl);
      await post(answer.acsUrl, answer.SAMLResponse).expect(400);
      expect(await poll(started.sessionId)).toMatchObject({ status: 'complete' });
      expect((await e2e.http.post(`/api/v1/auth/${other.sessionId}/poll`).set('x-api-key', e2e.key).expect(200)).body).toMatchObject({
        status: 'pending',
      });
    }, 30_000);

    it("should refuse a Response at another upstream's ACS, even of the same IdP, leaving the order to its own", async () => {
      const started = await start();
      const answer = await atSuomiFi(started.launchUrl);
      const twin = await post(answer.acsUrl.replace('/upstream/suomifi/', '/upstream/suomifi-twin/'), answer.SAMLResponse).expect(400);
      expect(twin.text).toContain('data-state="invalid"');
      expect((await post(answer.acsUrl, answer.SAMLResponse)).status).toBe(200);
      expect(await poll(started.sessionId)).toMatchObject({ status: 'complete' });
    }, 30_000);

    it('should refuse a document with a DTD, and a Response at an unknown upstream', async () => {
      const dtd = Buffer.from('<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>').toString('base64');
      await post(`http://x/upstream/suomifi/callback`, dtd).expect(400);
      await post(`http://x/upstream/nobody/callback`, dtd).expect(400);
      await e2e.http.get('/upstream/suomifi/login/00000000-0000-4000-8000-000000000000').expect(404);
    });
  });

  /** An RP on the OpenID front asking for Suomi.fi; its browser on the login page, whose one button sends it on. */
  const relyingParties = oidcRelyingParties(e2e);
  const oidcFront = async () => {
    const origin = `http://127.0.0.1:${port}`;
    const redirectUri = relyingParties.redirectUri();
    const { config } = await relyingParties.confidentialClient({ name: 'Finnish RP' });
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid profile https://id.oidc.se/scope/naturalPersonNumber',
      state,
      acr_values: 'urn:eidgw:suomifi',
    });
    const browser = new CookieBrowser();
    const page = await browser.follow(url.href, origin);
    const uid = /\/oidc\/interaction\/([^/?#]+)/.exec(page.url)?.[1];
    if (!uid) throw new Error(`No login page: ${page.url}`);
    const start = { method: 'POST', body: new URLSearchParams({ device: 'this' }) };
    return { origin, redirectUri, config, state, browser, uid, startUrl: `${origin}/oidc/interaction/${uid}/start`, start };
  };

  it("should not log the RP in with the person of a forwarded launch link: only the login's own browser coming back counts", async () => {
    const { origin, redirectUri, browser: attacker, uid, startUrl, start } = await oidcFront();
    // The attacker's browser stops at the redirect to the upstream's launch link and forwards it.
    const atFront = await attacker.get(startUrl, start);
    const launchLink = new URL(atFront.headers.get('location') ?? '', origin).href;
    expect(launchLink).toContain('/upstream/suomifi/login/');
    const victim = new CookieBrowser();
    const sent = await victim.follow(launchLink, origin);
    const answer = await suomifi.answer(sent.url, await spMetadata());
    const back = await victim.get(answer.acsUrl, { method: 'POST', body: new URLSearchParams({ SAMLResponse: answer.SAMLResponse }) });
    expect(back.status).toBe(303);
    await victim.follow(new URL(back.headers.get('location')!, origin).href, origin);
    const done = await waitUntil(async () => {
      e2e.clock.advance(2_500);
      await e2e.collect();
      const result = await attacker.follow(`${origin}/oidc/interaction/${uid}/done`, origin);
      return result.url.startsWith(redirectUri) ? result : undefined;
    }, 'the login to finish');
    const params = new URL(done.url).searchParams;
    expect(params.get('code')).toBeNull();
    expect(params.get('error')).toBe('access_denied');
  }, 30_000);

  it('should log in through /oidc/auth with openid-client: acr as asked, the HETU under nin, country FI', async () => {
    const { origin, redirectUri, config, state, browser, uid, startUrl, start } = await oidcFront();
    // The login page's one button sends this browser on to Suomi.fi.
    const sent = await browser.follow(startUrl, origin, start);
    const answer = await suomifi.answer(sent.url, await spMetadata());
    const back = await browser.get(answer.acsUrl, { method: 'POST', body: new URLSearchParams({ SAMLResponse: answer.SAMLResponse }) });
    expect(back.status).toBe(303);
    // Back at the login page with the session's return nonce: this browser holds the interaction's cookie.
    await browser.follow(new URL(back.headers.get('location')!, origin).href, origin);
    const done = await waitUntil(async () => {
      e2e.clock.advance(2_500);
      await e2e.collect();
      const result = await browser.follow(`${origin}/oidc/interaction/${uid}/done`, origin);
      return result.url.startsWith(redirectUri) ? result : undefined;
    }, 'the login to finish');
    const claims = (await client.authorizationCodeGrant(config, new URL(done.url), { expectedState: state })).claims()!;
    expect(claims).toMatchObject({
      acr: 'urn:eidgw:suomifi',
      country: 'FI',
      nin: '010170-999R',
      nin_issuing_country: 'FI',
      given_name: 'Nordea',
    });
  }, 30_000);

  /** An SP of the team on the SAML front, asking for the upstream's AuthnContext, played by node-saml. */
  const samlFront = async () => {
    const { bearer } = await memberOf(e2e.app, e2e.team);
    const entityId = `https://sp.example.test/${randomUUID()}`;
    await e2e.http
      .post('/api/v1/saml-service-providers')
      .set('authorization', bearer)
      .send({
        name: 'Palvelu',
        entityId,
        acsUrls: ['https://sp.example.test/saml/acs'],
        signingCertificate: pki.sp.cert,
        providers: ['suomifi'],
      })
      .expect(201);
    const origin = `http://127.0.0.1:${port}`;
    // The app's test clock runs ahead by what earlier tests moved it; node-saml checks NotBefore by the real one.
    const acceptedClockSkewMs = Math.max(0, e2e.clock.now().getTime() - Date.now()) + 5_000;
    return samlClient(origin, pki, { issuer: entityId, audience: entityId, authnContext: [EIDAS_SUBSTANTIAL], acceptedClockSkewMs });
  };
  /** A browser at Suomi.fi and back at the upstream's ACS: where the ACS sends it on. */
  const throughSuomiFi = async (browser: CookieBrowser, idpUrl: string, knobs: SuomiFiKnobs = {}) => {
    const answer = await suomifi.answer(idpUrl, await spMetadata(), knobs);
    const back = await browser.get(answer.acsUrl, { method: 'POST', body: new URLSearchParams({ SAMLResponse: answer.SAMLResponse }) });
    expect(back.status).toBe(303);
    const location = new URL(back.headers.get('location') ?? '', answer.acsUrl).href;
    const uid = /\/saml\/login\/([^/?#]+)/.exec(location)?.[1];
    if (!uid) throw new Error(`Not back at the SAML login: ${location}`);
    return { location, uid };
  };

  it('should log in through the SAML front: the SP asks for its AuthnContext, the browser goes to Suomi.fi and back, the SP gets a Response', async () => {
    const origin = `http://127.0.0.1:${port}`;
    const saml = await samlFront();
    const browser = new CookieBrowser();
    // The front starts the session and sends the browser straight on to the upstream.
    const sent = await browser.follow(await saml.getAuthorizeUrlAsync('relay-1', undefined, {}), origin);
    const { location, uid } = await throughSuomiFi(browser, sent.url);
    // Back at the login page with the session's return nonce: this browser holds the login's cookie.
    expect((await browser.follow(location, origin)).response?.status).toBe(200);
    const done = await finishSamlLogin(browser, origin, uid);
    const { fields } = postForm(await done.text());
    const xml = decodeBase64(fields.SAMLResponse);
    expect(xml).toContain('urn:oasis:names:tc:SAML:2.0:status:Success');
    expect(xml).toContain(`<saml:AuthnContextClassRef>${EIDAS_SUBSTANTIAL}</saml:AuthnContextClassRef>`);
    const { profile } = await saml.validatePostResponseAsync(fields);
    expect(profile).toMatchObject({ 'urn:oid:2.5.4.42': 'Nordea', 'urn:oid:2.5.4.4': 'Demo' });
  }, 30_000);

  it("should not answer the SP with a person whose evidence the service's own check failed, as the OpenID front refuses it", async () => {
    const origin = `http://127.0.0.1:${port}`;
    const saml = await samlFront();
    const browser = new CookieBrowser();
    const sent = await browser.follow(await saml.getAuthorizeUrlAsync('relay-3', undefined, {}), origin);
    // Only the Response signed: its signature no longer holds over the decrypted Response the evidence keeps.
    const { location, uid } = await throughSuomiFi(browser, sent.url, { unsignedAssertion: true });
    await browser.follow(location, origin);
    const done = await finishSamlLogin(browser, origin, uid);
    const xml = decodeBase64(postForm(await done.text()).fields.SAMLResponse);
    expect(xml).toContain('urn:oasis:names:tc:SAML:2.0:status:AuthnFailed');
    expect(xml).not.toContain('<saml:Assertion');
  }, 30_000);

  it("should not answer the SP with the person of a forwarded launch link: only the login's own browser coming back counts", async () => {
    const origin = `http://127.0.0.1:${port}`;
    const saml = await samlFront();
    // The attacker's browser starts the SP's login and stops at the redirect to the upstream's launch link.
    const attacker = new CookieBrowser();
    const atFront = await attacker.get(await saml.getAuthorizeUrlAsync('relay-2', undefined, {}));
    const launchLink = new URL(atFront.headers.get('location') ?? '', origin).href;
    expect(launchLink).toContain('/upstream/suomifi/login/');
    // The victim opens the forwarded link, signs in at the real IdP, and comes back without the login's cookie.
    const victim = new CookieBrowser();
    const sent = await victim.follow(launchLink, origin);
    const { location, uid } = await throughSuomiFi(victim, sent.url);
    expect((await victim.follow(location, origin)).response?.status).toBe(400);
    // The attacker's browser, holding the cookie, asks for the end: the SP hears a failure, no person.
    const done = await finishSamlLogin(attacker, origin, uid);
    const xml = decodeBase64(postForm(await done.text()).fields.SAMLResponse);
    expect(xml).toContain('urn:oasis:names:tc:SAML:2.0:status:AuthnFailed');
    expect(xml).not.toContain('010170-999R');
    expect(xml).not.toContain('<saml:Assertion');
  }, 30_000);
});
