import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calculateJwkThumbprint, type JWK } from 'jose';
import type { Browser } from 'playwright-core';
import * as client from 'openid-client';
import { Webhook } from 'standardwebhooks';
import { verifyBundle } from '../../../src/transparency/bundle-verifier.js';
import { FakeUpstream, type UpstreamProfile } from '../../fakes/upstream-openid-provider.js';
import { describeInBrowser, launchChromium } from '../../support/browser.js';
import { useE2eApp } from '../../support/e2e.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { ageSessionOrdersRevealed } from '../../support/provider-orders.js';
import { providerContract } from '../../support/provider-contract.js';
import { TEST_ISSUER, verifyResultToken } from '../../support/result-token.js';
import { oidcRelyingParties } from '../../support/oidc-front.js';
import { freePort } from '../../support/service-process.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { createEndpoint, waitUntil } from '../../support/webhooks.js';

const dir = mkdtempSync(join(tmpdir(), 'upstream-oidc-'));
const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const signing = rsa();
const encryption = rsa();
const pemFile = (name: string, key: KeyObject) => {
  const path = join(dir, name);
  writeFileSync(path, key.export({ type: 'pkcs8', format: 'pem' }));
  return path;
};
const publicJwk = async (key: KeyObject, extra: Partial<JWK>): Promise<JWK> => {
  const jwk = key.export({ format: 'jwk' }) as JWK;
  return { kty: jwk.kty, n: jwk.n, e: jwk.e, kid: await calculateJwkThumbprint({ kty: jwk.kty, n: jwk.n, e: jwk.e }), ...extra };
};

describeInBrowser('Upstream OpenID providers: Norwegian BankID and an FTN broker through one adapter (headless Chromium)', () => {
  let port: number;
  let browser: Browser;
  const fakes = {} as Record<UpstreamProfile, FakeUpstream>;
  beforeAll(async () => {
    port = await freePort();
    browser = await launchChromium();
    // One callback per upstream (docs/upstream-oidc.md).
    const redirectUri = (name: string) => `http://127.0.0.1:${port}/upstream/${name}/callback`;
    const sig = await publicJwk(signing.publicKey, { use: 'sig', alg: 'RS256' });
    const enc = await publicJwk(encryption.publicKey, { use: 'enc', alg: 'RSA-OAEP-256' });
    fakes.nbid = await FakeUpstream.start({ profile: 'nbid', clientId: 'gw-nbid', redirectUri: redirectUri('nbid'), clientKeys: [sig] });
    fakes.ftn = await FakeUpstream.start({ profile: 'ftn', clientId: 'gw-ftn', redirectUri: redirectUri('ftn'), clientKeys: [sig, enc] });
    fakes['se-broker'] = await FakeUpstream.start({
      profile: 'se-broker',
      clientId: 'gw-se',
      redirectUri: redirectUri('se-broker'),
      clientKeys: [sig],
    });
    const privateKey = pemFile('signing.pem', signing.privateKey);
    const common = { environment: 'test', clientAuth: 'private_key_jwt', privateKey };
    const upstreams = [
      {
        ...common,
        name: 'nbid',
        displayName: 'BankID (Norge)',
        issuer: fakes.nbid.issuer,
        clientId: 'gw-nbid',
        scope: 'openid profile nnin',
        acrValues: 'urn:bankid:bid',
        frontAcrValues: ['urn:grn:authn:no:bankid'],
        claims: { nationalId: 'nnin' },
        country: 'NO',
      },
      {
        ...common,
        name: 'ftn',
        issuer: fakes.ftn.issuer,
        clientId: 'gw-ftn',
        scope: 'openid profile ftn',
        requestObject: true,
        idTokenEncryptionKey: pemFile('encryption.pem', encryption.privateKey),
        frontAcrValues: ['urn:grn:authn:fi:all'],
        claims: { nationalId: 'hetu' },
        country: 'FI',
      },
      {
        ...common,
        name: 'se-broker',
        issuer: fakes['se-broker'].issuer,
        clientId: 'gw-se',
        scope: 'openid profile https://id.oidc.se/scope/naturalPersonNumber',
        frontAcrValues: ['urn:eidgw:se-broker'],
        claims: { personalNumber: 'https://id.oidc.se/claim/personalIdentityNumber' },
        country: 'SE',
      },
      // Nothing listens here: its discovery fails, and readiness says so.
      { ...common, name: 'unreachable', issuer: `http://127.0.0.1:${await freePort()}`, clientId: 'x', scope: 'openid', country: 'DK' },
    ];
    writeFileSync(join(dir, 'upstreams.json'), JSON.stringify(upstreams));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    for (const fake of Object.values(fakes)) await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const e2e = useE2eApp({
    listen: true,
    listenPort: () => port,
    withKey: true,
    env: () => ({
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      JWT_ISSUER: TEST_ISSUER,
      OIDC_UPSTREAMS: join(dir, 'upstreams.json'),
      PROVIDERS: 'simulator,oidc',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    }),
  });

  const start = async (provider: string, body: object = {}) =>
    (
      await e2e.http
        .post(`/api/v1/auth/${provider}/start`)
        .set('x-api-key', e2e.key)
        .send({ endUserIp: '192.0.2.10', ...body })
        .expect(200)
    ).body;
  /** The session's answer once it has ended (the background collector may hold the collect a poll asks for). */
  const poll = (sessionId: string) =>
    waitUntil(async () => {
      e2e.clock.advance(2_500);
      const answer = (await e2e.http.post(`/api/v1/auth/${sessionId}/poll`).set('x-api-key', e2e.key).expect(200)).body;
      return answer.status === 'pending' ? undefined : answer;
    }, 'the session to end');
  /** The person opens the launch link, chooses at the upstream, and lands where the service sends them. */
  const visit = async (launchUrl: string, choice: 'approve' | 'deny') => {
    const context = await browser.newContext({ locale: 'nb-NO' });
    const page = await context.newPage();
    const callbacks: string[] = [];
    page.on('request', (r) => r.url().includes('/callback?') && r.url().includes('/upstream/') && callbacks.push(r.url()));
    try {
      await page.goto(launchUrl);
      await page.click(`#${choice}`, { timeout: 5_000 });
      // The done page; or, for a login through the OpenID front, its login page (whose own browser finishes it).
      await page.waitForSelector('#outcome, main.login', { timeout: 5_000 });
    } catch (error) {
      // Where the person got stuck says more than a timeout.
      throw new Error(`${(error as Error).message} at ${page.url()}: ${(await page.content()).slice(0, 300)}`, { cause: error });
    }
    const landed = { url: page.url(), text: await page.textContent('body'), callbacks };
    await context.close();
    return landed;
  };

  providerContract(() => ({
    provider: 'se-broker',
    e2e,
    collectMs: 2_500,
    verifiedEvidence: true,
    // Where the callback sent this other browser: the login page's own browser goes there (its nonce unused here).
    approve: async (sessionId) => {
      const { url } = await visit(await qrLink(sessionId), 'approve');
      return url.includes('eidgw_nonce=') ? url : undefined;
    },
    decline: async (sessionId) => void (await visit(await qrLink(sessionId), 'deny')),
  }));
  const qrLink = async (sessionId: string) =>
    (await e2e.http.get(`/api/v1/auth/${sessionId}/qr`).set('x-api-key', e2e.key).expect(200)).body.qrData as string;

  it('should complete a Norwegian BankID session: nationalId and country, the acr, and a done page in Norwegian', async () => {
    const started = await start('nbid');
    expect(started.launchUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/upstream/[0-9a-f-]{36}/go$`));
    expect(started.kioskUrl).toEqual(expect.any(String));
    // A static QR, as for Freja: the launch link, in the start answer and on the QR route.
    expect(started.qrData).toBe(started.launchUrl);
    expect(await qrLink(started.sessionId)).toBe(started.launchUrl);
    const landed = await visit(started.launchUrl, 'approve');
    expect(landed.text).toContain('Du er identifisert');
    const complete = await poll(started.sessionId);
    expect(complete).toMatchObject({
      status: 'complete',
      user: {
        nationalId: '01017012345',
        country: 'NO',
        name: 'Kari Nordmann',
        givenName: 'Kari',
        surname: 'Nordmann',
        birthdate: '1970-01-01',
      },
      evidence: { acr: 'urn:bankid:bid', amr: ['bid'], iss: fakes.nbid.issuer, idTokenSha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(complete.user).not.toHaveProperty('personalNumber');
    expect(complete.evidence.verification.status).toBe('verified');
  }, 30_000);

  it("should answer an age session from the upstream's birthdate, with nothing of the person (docs/age-verification.md)", async () => {
    const started = await start('nbid', { ageOver: 18 });
    await visit(started.launchUrl, 'approve');
    const complete = await poll(started.sessionId);
    expect(complete.ageVerification).toEqual({ ageOver: 18, result: true, country: 'NO', source: 'upstream-birthdate' });
    expect(complete).not.toHaveProperty('user');
    expect(Object.keys(complete.evidence).sort()).toEqual(['sha256', 'verification']);
    // Nor does the upstream order, decrypted: it forgot the identity and the id token when the session ended.
    const orders = await ageSessionOrdersRevealed(e2e.app);
    expect(['01017012345', 'Kari', 'Nordmann', '1970-01-01'].filter((secret) => orders.includes(secret))).toEqual([]);
  }, 30_000);

  it('should complete through an FTN broker: a signed request object and an encrypted id token', async () => {
    const started = await start('ftn');
    await visit(started.launchUrl, 'approve');
    const complete = await poll(started.sessionId);
    expect(complete).toMatchObject({
      status: 'complete',
      user: { nationalId: '010170-900X', country: 'FI' },
      evidence: { iss: fakes.ftn.issuer },
    });
    expect(complete.evidence.verification.status).toBe('verified');
  }, 30_000);

  it('should fail userCancel when the person cancels at the upstream', async () => {
    const started = await start('ftn');
    const landed = await visit(started.launchUrl, 'deny');
    expect(landed.text).toContain('Ikke identifisert');
    expect(await poll(started.sessionId)).toMatchObject({ status: 'failed', hintCode: 'userCancel' });
  }, 30_000);

  it('should refuse a replayed state with 400 and change nothing', async () => {
    const started = await start('nbid');
    const landed = await visit(started.launchUrl, 'approve');
    const replay = await fetch(landed.callbacks[0]);
    expect(replay.status).toBe(400);
    expect(await poll(started.sessionId)).toMatchObject({ status: 'complete' });
    expect((await fetch(`http://127.0.0.1:${port}/upstream/nbid/callback?state=nonsense&code=x`)).status).toBe(400);
  }, 30_000);

  it("should take each upstream's answer at its own callback only", async () => {
    const started = await start('nbid');
    const landed = await visit(started.launchUrl, 'approve');
    expect(new URL(landed.callbacks[0]).pathname).toBe('/upstream/nbid/callback');
    expect(await poll(started.sessionId)).toMatchObject({ status: 'complete' });
    // The shared callback of earlier releases is gone, and another upstream's refuses the answer.
    expect((await fetch(landed.callbacks[0].replace('/upstream/nbid/callback', '/upstream/callback'))).status).toBe(404);
    expect((await fetch(landed.callbacks[0].replace('/upstream/nbid/', '/upstream/ftn/'))).status).toBe(400);
  }, 30_000);

  it('should fail providerError when the upstream answers another acr than the acr_values asked for', async () => {
    await fakes.nbid.answerWeakAcr(true);
    try {
      const started = await start('nbid');
      await visit(started.launchUrl, 'approve');
      expect(await poll(started.sessionId)).toMatchObject({ status: 'failed', hintCode: 'providerError' });
    } finally {
      await fakes.nbid.answerWeakAcr(false);
    }
  }, 30_000);

  it('should fail providerError when the id token is signed by a key outside the JWKS', async () => {
    await fakes.nbid.forgeIdTokens(true);
    try {
      const started = await start('nbid');
      await visit(started.launchUrl, 'approve');
      const failed = await poll(started.sessionId);
      expect(failed).toMatchObject({ status: 'failed', hintCode: 'providerError' });
      expect(failed).not.toHaveProperty('user');
    } finally {
      await fakes.nbid.forgeIdTokens(false);
    }
  }, 30_000);

  it('should send the browser to the returnUrl with the return nonce, which the RP confirms', async () => {
    const started = await start('nbid', { returnUrl: 'https://rp.example/back?x=1' });
    const context = await browser.newContext();
    const page = await context.newPage();
    let returned = '';
    await page.route('https://rp.example/**', async (route) => {
      returned = route.request().url();
      await route.fulfill({ status: 200, body: 'back at the RP' });
    });
    await page.goto(started.launchUrl);
    await page.click('#approve');
    await waitUntil(async () => returned, 'the return to the RP');
    await context.close();
    const nonce = new URL(returned).searchParams.get('eidgw_nonce')!;
    expect(new URL(returned).searchParams.get('x')).toBe('1');
    await e2e.http.post(`/api/v1/auth/${started.sessionId}/return`).set('x-api-key', e2e.key).send({ nonce }).expect(200);
  }, 30_000);

  it('should deliver a signed webhook and a result token that verifies', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const { secret } = await createEndpoint(e2e.app, e2e.team.id, { url: receiver.url() });
      const started = await start('nbid');
      await visit(started.launchUrl, 'approve');
      const complete = await poll(started.sessionId);
      const claims = await verifyResultToken(e2e.http, complete.resultToken, e2e.team.id);
      expect(claims).toMatchObject({ sub: started.sessionId, provider: 'nbid', status: 'complete', evidenceSha256: expect.any(String) });
      // Its evidence bundle checks offline, the token sealing the upstream's id token (docs/transparency.md).
      const bundle = (await e2e.http.get(`/api/v1/sessions/${started.sessionId}/bundle`).set('x-api-key', e2e.key).expect(200)).body;
      expect(await verifyBundle(bundle)).toMatchObject({
        valid: true,
        checks: expect.arrayContaining([{ part: 'evidence', ok: true, detail: 'idToken is what the result token seals' }]),
      });
      const hook = await waitUntil(async () => receiver.requests.find((r) => r.body.includes(started.sessionId)), 'the webhook', 15_000);
      const event = new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>) as {
        type: string;
        data: { user: object };
      };
      expect(event).toMatchObject({ type: 'auth.session.completed', data: { user: { nationalId: '01017012345', country: 'NO' } } });
    } finally {
      await receiver.close();
    }
  }, 30_000);

  it('should refuse a live key a test upstream: 404 unknown_provider', async () => {
    const live = await createTeamWithKey(e2e.app, { environment: 'live' });
    const answer = await e2e.http.post('/api/v1/auth/nbid/start').set('x-api-key', live.key).send({ endUserIp: '192.0.2.10' }).expect(404);
    expect(answer.body.code).toBe('unknown_provider');
  });

  it('should name an unreachable upstream at readiness, and answer its starts 502', async () => {
    const ready = (await e2e.http.get('/health/ready').expect(200)).body;
    expect(ready.status).toBe('warn');
    expect(ready.checks.unreachable).toMatchObject({ discovery: 'unreachable' });
    expect(ready.checks.nbid).toEqual({ discovery: 'ok' });
    expect(ready.warnings.join(' ')).toContain('unreachable');
    await e2e.http.post('/api/v1/auth/unreachable/start').set('x-api-key', e2e.key).send({ endUserIp: '192.0.2.10' }).expect(502);
  });

  describe('through the OpenID front', () => {
    const SCOPE = 'openid profile https://id.oidc.se/scope/naturalPersonNumber';
    const { redirectUri, confidentialClient } = oidcRelyingParties(e2e);
    /** One browser from the client's authorization request through the upstream and back to the client's redirect URI. */
    const logInThroughFront = async (acr: string) => {
      const { config } = await confidentialClient({ name: 'Nordic RP' });
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(config, { redirect_uri: redirectUri(), scope: SCOPE, state, acr_values: acr });
      const context = await browser.newContext();
      const page = await context.newPage();
      try {
        await page.goto(url.href);
        // The login page's one button: on to the upstream's own login.
        await page.click('button[name="device"][value="this"]', { timeout: 5_000 });
        await page.click('#approve', { timeout: 5_000 });
        await page.waitForURL((at) => at.pathname === '/rp/callback', { timeout: 15_000 });
      } catch (error) {
        throw new Error(`${(error as Error).message} at ${page.url()}`, { cause: error });
      }
      const callback = new URL(page.url());
      await context.close();
      return (await client.authorizationCodeGrant(config, callback, { expectedState: state })).claims()!;
    };

    it("should log in at a Norwegian upstream by its acr: acr as asked, the upstream's amr and country, the number under nin", async () => {
      const claims = await logInThroughFront('urn:grn:authn:no:bankid');
      expect(claims).toMatchObject({
        acr: 'urn:grn:authn:no:bankid',
        amr: ['bid'],
        country: 'NO',
        nin: '01017012345',
        nin_issuing_country: 'NO',
        given_name: 'Kari',
        family_name: 'Nordmann',
      });
      expect(claims).not.toHaveProperty(['https://id.oidc.se/claim/personalIdentityNumber']);
    });

    it("should put a Swedish upstream's number under the OIDC Sweden claim", async () => {
      const claims = await logInThroughFront('urn:eidgw:se-broker');
      expect(claims).toMatchObject({
        acr: 'urn:eidgw:se-broker',
        amr: ['mfa'],
        country: 'SE',
        'https://id.oidc.se/claim/personalIdentityNumber': '197001019876',
      });
      expect(claims).not.toHaveProperty('nin');
    });

    it("should list the upstreams' acr values in discovery", async () => {
      const discovery = (await e2e.http.get('/oidc/.well-known/openid-configuration').expect(200)).body;
      expect(discovery.acr_values_supported).toEqual(
        expect.arrayContaining(['urn:grn:authn:no:bankid', 'urn:grn:authn:fi:all', 'urn:eidgw:se-broker', 'urn:eidgw:simulator']),
      );
    });
  });
});
