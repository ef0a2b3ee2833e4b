import { jest } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { FakeEudiWallet, FakePidIssuer, TEST_PID, type PresentationRequest, type PresentOptions } from '../../fakes/eudi-wallet.js';
import { useE2eApp } from '../../support/e2e.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { ageSessionOrdersRevealed } from '../../support/provider-orders.js';
import { providerContract } from '../../support/provider-contract.js';
import { TEST_ISSUER, verifyResultToken } from '../../support/result-token.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { createEndpoint, waitUntil } from '../../support/webhooks.js';

const dir = mkdtempSync(join(tmpdir(), 'eudi-'));

describe('EU Digital Identity Wallet: an OpenID4VP verifier of SD-JWT VC PIDs', () => {
  let issuer: FakePidIssuer;
  let stranger: FakePidIssuer;
  let wallet: FakeEudiWallet;
  beforeAll(async () => {
    issuer = await FakePidIssuer.create('Test PID issuer');
    stranger = await FakePidIssuer.create('Unknown PID issuer');
    await issuer.listen();
    wallet = await FakeEudiWallet.create();
    wallet.credential = await issuer.issue(wallet.holderPublic);
    writeFileSync(join(dir, 'test-anchors.pem'), issuer.caPem);
  }, 60_000);
  afterAll(async () => {
    await issuer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const e2e = useE2eApp({
    withKey: true,
    env: () => ({
      JWT_ISSUER: TEST_ISSUER,
      PROVIDERS: 'simulator,eudi',
      EUDI_TEST_TRUST_ANCHORS: join(dir, 'test-anchors.pem'),
      // The issuer's status list listens on loopback.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    }),
  });

  const start = async (body: object = {}) =>
    (
      await e2e.http
        .post('/api/v1/auth/eudi/start')
        .set('x-api-key', e2e.key)
        .send({ endUserIp: '192.0.2.10', ...body })
        .expect(200)
    ).body;
  const poll = async (sessionId: string) => {
    e2e.clock.advance(2_500);
    await e2e.collect();
    return (await e2e.http.post(`/api/v1/auth/${sessionId}/poll`).set('x-api-key', e2e.key).expect(200)).body;
  };
  const qrLink = async (sessionId: string) =>
    (await e2e.http.get(`/api/v1/auth/${sessionId}/qr`).set('x-api-key', e2e.key).expect(200)).body.qrData as string;
  const openRequest = async (link: string, holder = wallet): Promise<PresentationRequest> =>
    holder.open(link, async (path) => {
      const answer = await e2e.http
        .get(path)
        .buffer(true)
        .parse((res, done) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          res.on('end', () => done(null, text));
        });
      return { status: answer.status, text: answer.body as string, contentType: answer.headers['content-type'] };
    });
  const post = (body: Record<string, string>) => e2e.http.post('/openid4vp/response').type('form').send(body);
  /** The wallet scans the session's QR and answers; the verifier's HTTP answer. */
  const present = async (sessionId: string, expected: number, options: PresentOptions = {}, holder = wallet) => {
    const request = await openRequest(await qrLink(sessionId), holder);
    return post(await holder.respond(request, options)).expect(expected);
  };

  providerContract(() => ({
    provider: 'eudi',
    e2e,
    collectMs: 2_500,
    verifiedEvidence: true,
    approve: async (sessionId) => void (await present(sessionId, 200)),
    decline: async (sessionId) => {
      const request = await openRequest(await qrLink(sessionId));
      await post(await wallet.decline(request)).expect(200);
    },
  }));

  it('should start with the openid4vp link as launchUrl and static QR, and serve a signed request object while pending', async () => {
    const started = await start();
    expect(started.launchUrl).toMatch(
      /^openid4vp:\/\/\?client_id=x509_san_dns:localhost&request_uri=http:\/\/localhost:\d+\/openid4vp\/request\/[0-9a-f-]{36}$/,
    );
    const link = new URL(started.launchUrl as string);
    expect(link.protocol).toBe('openid4vp:');
    expect(link.searchParams.get('client_id')).toBe('x509_san_dns:localhost');
    expect(link.searchParams.get('request_uri')).toMatch(/\/openid4vp\/request\/[0-9a-f-]{36}$/);
    expect(await qrLink(started.sessionId)).toBe(started.launchUrl);
    expect(started.kioskUrl).toEqual(expect.any(String));

    const request = await openRequest(started.launchUrl);
    expect(request.header).toMatchObject({ alg: 'ES256', typ: 'oauth-authz-req+jwt', x5c: expect.any(Array) });
    expect(request).toMatchObject({
      client_id: 'x509_san_dns:localhost',
      response_type: 'vp_token',
      response_mode: 'direct_post.jwt',
      response_uri: expect.stringMatching(/\/openid4vp\/response$/),
      dcql_query: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] } }] },
      client_metadata: { vp_formats_supported: { 'dc+sd-jwt': expect.any(Object) } },
    });
    expect(Buffer.from(request.nonce, 'base64url')).toHaveLength(16);
    const [key] = request.client_metadata.jwks.keys;
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', use: 'enc', alg: 'ECDH-ES' });
    expect(key).not.toHaveProperty('d');
    expect((await poll(started.sessionId)).hintCode).toBe('started');

    await e2e.http.post(`/api/v1/auth/${started.sessionId}/cancel`).set('x-api-key', e2e.key).expect(200);
    await e2e.http.get(new URL(link.searchParams.get('request_uri')!).pathname).expect(404);
  });

  it('should complete: the person, the evidence and its checks, a signed webhook and a result token', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const { secret } = await createEndpoint(e2e.app, e2e.team.id, { url: receiver.url() });
      const started = await start();
      expect((await present(started.sessionId, 200)).body).toEqual({});
      const complete = await poll(started.sessionId);
      expect(complete).toMatchObject({
        status: 'complete',
        user: {
          givenName: 'Erika',
          surname: 'Mustermann',
          name: 'Erika Mustermann',
          birthdate: '1984-01-26',
          nationalId: '198401262383',
          country: 'SE',
        },
        evidence: {
          kind: 'openid4vp',
          issuer: 'https://pid-issuer.test',
          vct: 'urn:eudi:pid:1',
          presentationSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
          verification: {
            status: 'verified',
            issuerSignature: 'valid',
            chain: 'trusted',
            disclosures: 'valid',
            keyBinding: 'valid',
            statusList: 'none',
          },
        },
      });
      expect(complete.evidence).not.toHaveProperty('presentation');
      const raw = (await e2e.http.get(`/api/v1/auth/${started.sessionId}/evidence`).set('x-api-key', e2e.key).expect(200)).body;
      expect(raw.presentation).toMatch(/^ey[^~]+~/);

      const claims = await verifyResultToken(e2e.http, complete.resultToken, e2e.team.id);
      expect(claims).toMatchObject({ sub: started.sessionId, provider: 'eudi', status: 'complete', evidenceSha256: expect.any(String) });
      const hook = await waitUntil(async () => receiver.requests.find((r) => r.body.includes(started.sessionId)), 'the webhook', 15_000);
      const event = new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>) as { type: string; data: object };
      expect(event).toMatchObject({ type: 'auth.session.completed', data: { user: { nationalId: '198401262383', country: 'SE' } } });
    } finally {
      await receiver.close();
    }
  }, 30_000);

  it("should answer an age session from the PID's birth date, with nothing of the person (docs/age-verification.md)", async () => {
    const started = await start({ ageOver: 21 });
    await present(started.sessionId, 200);
    const complete = await poll(started.sessionId);
    expect(complete.ageVerification).toEqual({ ageOver: 21, result: true, country: 'SE', source: 'upstream-birthdate' });
    expect(complete).not.toHaveProperty('user');
    expect(JSON.stringify(complete)).not.toContain(TEST_PID.family_name);
    // Nor does the wallet order, decrypted: it forgot the presentation when the session ended.
    const orders = await ageSessionOrdersRevealed(e2e.app);
    const secrets = [TEST_PID.personal_administrative_number, TEST_PID.given_name, TEST_PID.family_name, TEST_PID.birthdate];
    expect(secrets.filter((secret) => orders.includes(secret))).toEqual([]);
  });

  it('should answer the same device with the returnUrl and its nonce, which the RP confirms', async () => {
    const started = await start({ returnUrl: 'https://rp.example/back?x=1' });
    const answer = (await present(started.sessionId, 200)).body as { redirect_uri: string };
    const back = new URL(answer.redirect_uri);
    expect(back.origin + back.pathname).toBe('https://rp.example/back');
    const nonce = back.searchParams.get('eidgw_nonce')!;
    await e2e.http.post(`/api/v1/auth/${started.sessionId}/return`).set('x-api-key', e2e.key).send({ nonce }).expect(200);
  });

  it('should accept a credential whose status list says valid', async () => {
    const holder = await FakeEudiWallet.create();
    holder.credential = await issuer.issue(holder.holderPublic, { statusIndex: 3 });
    const started = await start();
    await present(started.sessionId, 200, {}, holder);
    expect((await poll(started.sessionId)).evidence.verification).toMatchObject({ status: 'verified', statusList: 'valid' });
  });

  describe('refuses every forgery: the session fails providerError, or the response is refused and nothing changes', () => {
    let warnings: ReturnType<typeof spyOnWarnings>;
    const spyOnWarnings = () => jest.spyOn(Logger.prototype, 'warn');
    beforeEach(() => (warnings = spyOnWarnings()));
    afterEach(() => warnings.mockRestore());
    /** Failed providerError, no person, and the log line names the check that failed (and nothing of the PID). */
    const expectFailed = async (sessionId: string, check: string) => {
      const failed = await poll(sessionId);
      expect(failed).toMatchObject({ status: 'failed', hintCode: 'providerError' });
      expect(failed).not.toHaveProperty('user');
      const rejected = warnings.mock.calls.filter(([, message]) => message === 'The presentation was rejected') as unknown[][];
      expect(rejected.map(([fields]) => (fields as { check: string }).check)).toEqual([check]);
      expect(JSON.stringify(rejected)).not.toMatch(/Mustermann|198401262383/);
    };
    const forgeries: [string, PresentOptions, string][] = [
      ['a tampered disclosure', { tamperDisclosure: true }, 'disclosures'],
      ['a wrong nonce', { nonce: 'AAAAAAAAAAAAAAAAAAAAAA' }, 'keyBinding'],
      ['a wrong aud', { aud: 'x509_san_dns:rp.example' }, 'keyBinding'],
      ['a missing key-binding JWT', { withoutKeyBinding: true }, 'keyBinding'],
      ['a key-binding JWT signed by another key', { keyBindingByAnotherKey: true }, 'keyBinding'],
    ];
    it.each(forgeries)('should fail %s', async (_, options, check) => {
      const started = await start();
      await present(started.sessionId, 400, options);
      await expectFailed(started.sessionId, check);
    });

    it('should fail an expired credential', async () => {
      const holder = await FakeEudiWallet.create();
      holder.credential = await issuer.issue(holder.holderPublic, { expiresAt: new Date(Date.now() - 3600_000) });
      const started = await start();
      await present(started.sessionId, 400, {}, holder);
      await expectFailed(started.sessionId, 'validity');
    });

    it('should fail a credential from an issuer outside the trust anchors', async () => {
      const holder = await FakeEudiWallet.create();
      holder.credential = await stranger.issue(holder.holderPublic);
      const started = await start();
      await present(started.sessionId, 400, {}, holder);
      await expectFailed(started.sessionId, 'chain');
    });

    it('should fail a revoked credential', async () => {
      const holder = await FakeEudiWallet.create();
      holder.credential = await issuer.issue(holder.holderPublic, { statusIndex: 7 });
      issuer.revoke(7);
      const started = await start();
      await present(started.sessionId, 400, {}, holder);
      await expectFailed(started.sessionId, 'status');
    });

    it('should refuse an unencrypted response with 400 and change nothing', async () => {
      const started = await start();
      const answer = await present(started.sessionId, 400, { unencrypted: true });
      expect(answer.body).toMatchObject({ error: 'invalid_request' });
      expect(await poll(started.sessionId)).toMatchObject({ status: 'pending', hintCode: 'started' });
    });

    it('should refuse a response that is no JWE, names no pending request, or carries another state: 400, nothing changes', async () => {
      const started = await start();
      const request = await openRequest(await qrLink(started.sessionId));
      await post({ response: 'not-a-jwe' }).expect(400);
      await post({ error: 'access_denied', state: 'AAAAAAAAAAAAAAAAAAAAAA' }).expect(400);
      await post(await wallet.respond({ ...request, state: 'AAAAAAAAAAAAAAAAAAAAAA' })).expect(400);
      expect(await poll(started.sessionId)).toMatchObject({ status: 'pending', hintCode: 'started' });
      await post(await wallet.respond(request)).expect(200);
      expect(await poll(started.sessionId)).toMatchObject({ status: 'complete' });
    });

    it('should refuse a replayed response with 400 and change nothing', async () => {
      const started = await start();
      const request = await openRequest(await qrLink(started.sessionId));
      const body = await wallet.respond(request);
      await post(body).expect(200);
      const completed = await poll(started.sessionId);
      await post(body).expect(400);
      await post(await wallet.decline(request)).expect(400);
      expect(await poll(started.sessionId)).toMatchObject({ status: 'complete', user: completed.user });
    });
  });

  it('should refuse a live key while no live trust anchors are configured: 404 unknown_provider', async () => {
    const live = await createTeamWithKey(e2e.app, { environment: 'live' });
    const answer = await e2e.http.post('/api/v1/auth/eudi/start').set('x-api-key', live.key).send({ endUserIp: '192.0.2.10' }).expect(404);
    expect(answer.body.code).toBe('unknown_provider');
  });
});
