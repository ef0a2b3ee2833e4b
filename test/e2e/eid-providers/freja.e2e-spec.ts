import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SessionPiiPurgeJob } from '../../../src/sessions/jobs/session-pii-purge.job.js';
import { verifyBundle } from '../../../src/transparency/bundle-verifier.js';
import { createFrejaSigner, type FrejaSigner } from '../../fakes/freja-signing-certificates.js';
import { FAKE_FREJA_USER, FakeFrejaServer } from '../../fakes/freja-rp-fake.js';
import { TEST_PASSPHRASE } from '../../fakes/test-certificates.js';
import { decodeQrPng } from '../../support/decode-qr.js';
import { useE2eApp } from '../../support/e2e.js';
import { useFakeRpApi } from '../../support/fake-rp-apis.js';
import { providerContract } from '../../support/provider-contract.js';
import { expectProblem, expectValidationProblem } from '../../support/problem.js';
import { verifyResultToken } from '../../support/result-token.js';
import { createEndpoint, deliveriesOf } from '../../support/webhooks.js';

const COLLECT_MS = 2_000;
const USER = { personalNumber: FAKE_FREJA_USER.ssn, name: 'Frida Frejasson', givenName: 'Frida', surname: 'Frejasson' };

describe('Freja eID provider against a fake Freja RP API over mutual TLS', () => {
  let impostor: FrejaSigner;
  let signer: FrejaSigner;
  let frejaUrl: string;

  const start = (body: object = { endUserIp: '192.0.2.10' }) =>
    e2e.http.post('/api/v1/auth/freja/start').set('x-api-key', e2e.key).send(body);
  const poll = (id: string) => e2e.http.post(`/api/v1/auth/${id}/poll`).set('x-api-key', e2e.key);
  /** The reference of the transaction the last start made at Freja: what the user's app reads from the QR code. */
  const referenceOf = async (sessionId: string): Promise<string> => {
    const [{ order_ref }] = await e2e.app.get(DataSource).query('SELECT order_ref FROM sessions WHERE id = $1', [sessionId]);
    const reference = freja.fake.latest()!.reference;
    expect(order_ref).toContain(reference);
    return reference;
  };
  const collect = async (sessionId: string) => {
    e2e.clock.advance(COLLECT_MS);
    await e2e.collect();
    return (await poll(sessionId).expect(200)).body;
  };

  const freja = useFakeRpApi({
    pki: { service: 'Freja eID' },
    start: async (tls, pki) => {
      [signer, impostor] = await Promise.all([createFrejaSigner(pki.dir, 'freja-signer'), createFrejaSigner(pki.dir, 'impostor')]);
      const fake = new FakeFrejaServer({ ...tls, signer, now: () => e2e.clock.now() });
      frejaUrl = await fake.listen();
      return fake;
    },
  });
  const e2e = useE2eApp({
    env: () => ({
      PROVIDERS: 'simulator,freja',
      FREJA_TEST_URL: frejaUrl,
      FREJA_PFX: freja.pki.client.pfxPath,
      FREJA_PASSPHRASE: TEST_PASSPHRASE,
      FREJA_CA: freja.pki.bankIdCaPath,
      FREJA_TEST_JWS_CERTS: signer.certPath,
      FREJA_TIMEOUT: '2s',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    }),
    // Collects happen on polls while the clock is moved by hand, not on wall-time ticks.
    stopBackgroundJobs: true,
    listen: true,
    withKey: true,
    freezeClock: true,
  });

  providerContract(() => ({
    provider: 'freja',
    e2e,
    collectMs: COLLECT_MS,
    approve: async (sessionId) => freja.fake.approve(await referenceOf(sessionId)),
    decline: async (sessionId) => freja.fake.decline(await referenceOf(sessionId)),
    verifiedEvidence: true,
  }));

  it('should authenticate end to end: init over mTLS, the app opens the transaction, collect until the verified user', async () => {
    // The dispatcher is stopped: the outbox row the session's end writes is what is checked.
    await createEndpoint(e2e.app, e2e.team.id, {
      url: 'http://127.0.0.1:9/hooks',
      eventTypes: ['auth.session.completed'],
      environment: 'test',
    });
    const started = await start().expect(200);
    expect(started.body).toMatchObject({ provider: 'freja', status: 'pending' });
    const { sessionId } = started.body;
    expect(freja.fake.received[0]).toMatchObject({
      path: '/authentication/1.0/initAuthentication',
      parameter: 'initAuthRequest',
      clientCn: 'Fake RP',
      request: {
        userInfoType: 'INFERRED',
        userInfo: 'N/A',
        minRegistrationLevel: 'EXTENDED',
        attributesToReturn: [{ attribute: 'BASIC_USER_INFO' }, { attribute: 'SSN' }],
      },
    });
    const reference = await referenceOf(sessionId);
    const pending = (await poll(sessionId).expect(200)).body;
    expect(pending).toMatchObject({
      sessionId,
      provider: 'freja',
      environment: 'test',
      status: 'pending',
      hintCode: 'outstandingTransaction',
      userMessage: { code: 'FREJA_SCAN_QR', sv: expect.stringContaining('Freja-appen'), en: expect.stringContaining('Freja app') },
    });
    // Freja's words for Freja's app: nothing tells the user to start BankID (docs/freja.md).
    expect(JSON.stringify(pending.userMessage)).not.toMatch(/bankid/i);

    freja.fake.deliver(reference);
    const delivered = await collect(sessionId);
    expect(delivered).toMatchObject({ status: 'pending', hintCode: 'started', userMessage: { code: 'FREJA_APPROVE' } });
    expect(JSON.stringify(delivered.userMessage)).not.toMatch(/bankid/i);

    await freja.fake.approve(reference);
    expect(await collect(sessionId)).toMatchObject({
      sessionId,
      operation: 'auth',
      channel: 'app',
      provider: 'freja',
      environment: 'test',
      status: 'complete',
      user: USER,
      // Freja reports no device; the session's answer keeps its shape.
      device: {},
      completedAt: e2e.clock.now().toISOString(),
    });
    const [delivery] = await deliveriesOf(e2e.app, e2e.team.id, sessionId);
    expect(delivery).toMatchObject({ eventType: 'auth.session.completed' });
  });

  it('should serve Freja’s static app link through the same QR routes and the kiosk stream', async () => {
    const started = (await start().expect(200)).body;
    const link = `frejaeid://bindUserToTransaction?transactionReference=${encodeURIComponent(await referenceOf(started.sessionId))}`;
    // Static: the start answers it already.
    expect(started.qrData).toBe(link);
    const qr = (format: string) =>
      e2e.http.get(`/api/v1/auth/${started.sessionId}/qr?format=${format}`).set('x-api-key', e2e.key).expect(200);
    expect((await qr('json')).body).toEqual({ sessionId: started.sessionId, qrData: link, status: 'pending' });
    e2e.clock.advance(5_000);
    expect((await qr('json')).body.qrData).toBe(link);
    expect(decodeQrPng((await qr('png').buffer(true)).body as Buffer)).toBe(link);

    const [, token] = /#t=(.+)$/.exec(started.kioskUrl)!;
    const abort = new AbortController();
    const events = await fetch(`${e2e.baseUrl}/kiosk/${started.sessionId}/events`, {
      headers: { authorization: `Kiosk ${token}` },
      signal: abort.signal,
    });
    const reader = events.body!.getReader();
    let text = '';
    const frame = /event: frame\ndata: (.*)\n/;
    while (!frame.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    expect(JSON.parse(frame.exec(text)![1])).toMatchObject({ qrData: link });
    // The screen is told whose session it shows, and has Freja's words and app name for it (docs/kiosk.md).
    expect(JSON.parse(/event: status\ndata: (.*)\n/.exec(text)![1])).toEqual({
      status: 'pending',
      provider: 'freja',
      hintCode: 'outstandingTransaction',
    });
    const messages = (await e2e.http.get('/kiosk/assets/user-messages.js').expect(200)).text;
    const tables = JSON.parse(/^export const providers = (.*);$/m.exec(messages)![1]);
    expect(tables.freja).toMatchObject({ appName: 'Freja', picks: { 'pending|outstandingTransaction|qr|0': 'FREJA_SCAN_QR' } });
    expect(JSON.stringify(tables.freja)).not.toMatch(/bankid|RFA/i);
  });

  it.each([
    ['declines in the app', (ref: string) => freja.fake.decline(ref), 'userCancel', 'FREJA_DECLINED'],
    ['is refused by Freja for security reasons', (ref: string) => freja.fake.reject(ref), 'providerRejected', 'FREJA_REJECTED'],
  ])('should fail the session when the user %s', async (_case, act, hintCode, code) => {
    const { sessionId } = (await start().expect(200)).body;
    act(await referenceOf(sessionId));
    expect(await collect(sessionId)).toMatchObject({ status: 'failed', hintCode, userMessage: { code } });
  });

  it('should fail with expiredTransaction once Freja lets the transaction expire (two minutes)', async () => {
    const { sessionId } = (await start().expect(200)).body;
    e2e.clock.advance(118_000);
    expect(await collect(sessionId)).toMatchObject({ status: 'failed', hintCode: 'expiredTransaction' });
  });

  it('should cancel the transaction at Freja when the RP cancels the session', async () => {
    const { sessionId } = (await start().expect(200)).body;
    const reference = await referenceOf(sessionId);
    const res = await e2e.http.post(`/api/v1/auth/${sessionId}/cancel`).set('x-api-key', e2e.key).expect(200);
    expect(res.body).toMatchObject({ status: 'failed', hintCode: 'cancelled' });
    expect(freja.fake.received.at(-1)).toMatchObject({
      path: '/authentication/1.0/cancel',
      parameter: 'cancelAuthRequest',
      request: { authRef: reference },
    });
    expect(freja.fake.transaction(reference)?.status).toBe('RP_CANCELED');
  });

  it('should not believe a result whose signature does not verify: the session fails with providerError and no user', async () => {
    freja.fake.forgeSignaturesWith(impostor);
    const { sessionId } = (await start().expect(200)).body;
    await freja.fake.approve(await referenceOf(sessionId));
    const body = await collect(sessionId);
    expect(body).toMatchObject({ status: 'failed', hintCode: 'providerError' });
    expect(body.user).toBeUndefined();
    freja.fake.forgeSignaturesWith(signer);
  });

  it('should address a known user: userInfoType SSN goes as base64 of {country, ssn}, with the level asked for', async () => {
    await start({ endUserIp: '192.0.2.10', userInfoType: 'SSN', userInfo: '199001012393', minRegistrationLevel: 'PLUS' }).expect(200);
    const { request } = freja.fake.received.at(-1)!;
    expect(request).toMatchObject({ userInfoType: 'SSN', minRegistrationLevel: 'PLUS' });
    expect(JSON.parse(Buffer.from(request.userInfo as string, 'base64').toString('utf8'))).toEqual({ country: 'SE', ssn: '199001012393' });
  });

  it('should refuse a userInfo that does not fit its type with 400 naming the field, and pass Freja’s refusal of BASIC on as 400', async () => {
    const calls = freja.fake.received.length;
    const bad = await start({ endUserIp: '192.0.2.10', userInfoType: 'EMAIL', userInfo: 'not-an-address' });
    expect(expectValidationProblem(bad)).toEqual(['/userInfo']);
    expect(freja.fake.received).toHaveLength(calls);
    const basic = await start({ endUserIp: '192.0.2.10', minRegistrationLevel: 'BASIC' });
    expectProblem(basic, 400, 'provider_rejected_request');
    expect(basic.body.providerErrorCode).toBe(2002);
  });

  it('should sign on the app channel: SIMPLE_UTF8_TEXT, or EXTENDED with userNonVisibleData, and keep the user signature', async () => {
    const sign = (body: object) => e2e.http.post('/api/v1/sign/freja/start').set('x-api-key', e2e.key).send(body);
    const started = (await sign({ endUserIp: '192.0.2.10', userVisibleData: 'Jag godkänner avtalet' }).expect(200)).body;
    expect(freja.fake.received.at(-1)).toMatchObject({
      path: '/sign/1.0/initSignature',
      parameter: 'initSignRequest',
      request: {
        dataToSignType: 'SIMPLE_UTF8_TEXT',
        signatureType: 'SIMPLE',
        dataToSign: { text: Buffer.from('Jag godkänner avtalet').toString('base64') },
      },
    });
    const reference = await referenceOf(started.sessionId);
    await freja.fake.approve(reference);
    expect(await collect(started.sessionId)).toMatchObject({ status: 'complete', operation: 'sign', user: USER });

    await sign({ endUserIp: '192.0.2.10', userVisibleData: 'Avtal', userNonVisibleData: 'c2hhMjU2OmFiYw==' }).expect(200);
    expect(freja.fake.received.at(-1)?.request).toMatchObject({
      dataToSignType: 'EXTENDED_UTF8_TEXT',
      signatureType: 'EXTENDED',
      dataToSign: { binaryData: 'c2hhMjU2OmFiYw==' },
    });
  });

  it("should keep Freja's evidence, verify it, bind it into the result token, and purge it with the personal data", async () => {
    const started = (
      await e2e.http
        .post('/api/v1/sign/freja/start')
        .set('x-api-key', e2e.key)
        .send({ endUserIp: '192.0.2.10', userVisibleData: 'Jag godkänner avtalet' })
        .expect(200)
    ).body;
    await freja.fake.approve(await referenceOf(started.sessionId));
    const complete = await collect(started.sessionId);
    // Poll answers carry the verification, never the raw JWSs (docs/evidence.md).
    expect(complete.evidence).toEqual({
      verification: {
        status: 'verified',
        signatureValid: true,
        certificateTrusted: true,
        signedDataMatches: true,
        checkedAt: expect.any(String),
      },
    });
    const raw = (await e2e.http.get(`/api/v1/auth/${started.sessionId}/evidence`).set('x-api-key', e2e.key).expect(200)).body;
    expect(raw).toMatchObject({
      sessionId: started.sessionId,
      details: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      userSignature: expect.stringMatching(/^fake\./),
      verification: complete.evidence.verification,
    });
    expect(raw).not.toHaveProperty('signature');
    // The details are the very JWS Freja signed for this transaction.
    const [, payload] = (raw.details as string).split('.');
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toMatchObject({ status: 'APPROVED', signRef: expect.any(String) });
    const claims = await verifyResultToken(e2e.http, complete.resultToken, e2e.team.id);
    expect(claims.evidenceSha256).toBe(createHash('sha256').update(raw.details, 'utf8').digest('hex'));
    // Its evidence bundle checks offline, the token sealing the JWS as its text (docs/transparency.md).
    const bundle = (await e2e.http.get(`/api/v1/sessions/${started.sessionId}/bundle`).set('x-api-key', e2e.key).expect(200)).body;
    expect(await verifyBundle(bundle)).toMatchObject({
      valid: true,
      checks: expect.arrayContaining([{ part: 'evidence', ok: true, detail: 'details is what the result token seals' }]),
    });

    e2e.clock.advance(3_600_000);
    await e2e.collect();
    await e2e.app.get(SessionPiiPurgeJob).purgeExpiredPersonalData();
    expectProblem(await e2e.http.get(`/api/v1/auth/${started.sessionId}/evidence`).set('x-api-key', e2e.key), 410, 'evidence_purged');
    expect((await poll(started.sessionId).expect(200)).body).not.toHaveProperty('evidence');
  });

  it('should not offer the phone channel', async () => {
    const res = await e2e.http
      .post('/api/v1/phone/auth/freja/start')
      .set('x-api-key', e2e.key)
      .send({ personalNumber: '199001012393', callInitiator: 'RP' });
    expectProblem(res, 404, 'operation_not_supported');
  });

  it('should answer 400 to start fields Freja does not offer, before any call to Freja', async () => {
    const calls = freja.fake.received.length;
    const res = await start({ endUserIp: '192.0.2.10', userVisibleData: '*Hej*', userVisibleDataFormat: 'simpleMarkdownV1' });
    expectValidationProblem(res);
    expect(res.body.errors).toEqual([{ pointer: '/userVisibleDataFormat', detail: expect.stringContaining('plain text') }]);
    expect(freja.fake.received).toHaveLength(calls);
  });

  it('should answer 502 provider_unavailable when Freja fails, and 400 when it refuses the request', async () => {
    freja.fake.fail({ operation: 'auth', method: 'init', times: 1, status: 503 });
    expectProblem(await start(), 502, 'provider_unavailable');
    freja.fake.fail({ operation: 'auth', method: 'init', times: 1, status: 422, code: 1002, message: 'Invalid or missing userInfo.' });
    const refused = await start();
    expectProblem(refused, 400, 'provider_rejected_request');
    expect(refused.body.providerErrorCode).toBe(1002);
  });

  it('should report the Freja RP certificate in readiness', async () => {
    const ready = await e2e.http.get('/health/ready').expect(200);
    expect(ready.body.checks.frejaCertificates).toEqual({
      test: { state: 'valid', expiresAt: expect.any(String), daysLeft: expect.any(Number) },
    });
  });
});
