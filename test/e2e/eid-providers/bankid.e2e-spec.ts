import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { DataCipher } from '../../../src/common/crypto/data-cipher.js';
import { SessionSettlement } from '../../../src/sessions/settlement/session-settlement.js';
import { FAKE_USER, FakeAppRefusal } from '../../fakes/bankid-rp-fake.js';
import { TEST_PASSPHRASE } from '../../fakes/test-certificates.js';
import { createTestApp, createTestDatabase, type TestApp } from '../../support/create-test-app.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { httpOf, useE2eApp } from '../../support/e2e.js';
import { useBankIdFake } from '../../support/fake-rp-apis.js';
import { expectValidationProblem } from '../../support/problem.js';
import { providerContract } from '../../support/provider-contract.js';
import { VERIFIED_EVIDENCE, verifyResultToken } from '../../support/result-token.js';

const COLLECT_MS = 2_000;

describe('BankID provider against a fake RP API v6.0 over mutual TLS', () => {
  const bankId = useBankIdFake({ now: () => e2e.clock.now() });

  const start = (body: object = { endUserIp: '192.0.2.10' }) =>
    e2e.http.post('/api/v1/auth/bankid/start').set('x-api-key', e2e.key).send(body);
  const poll = (id: string) => e2e.http.post(`/api/v1/auth/${id}/poll`).set('x-api-key', e2e.key);
  const qr = (id: string) => e2e.http.get(`/api/v1/auth/${id}/qr`).set('x-api-key', e2e.key);
  const orderRefOf = async (sessionId: string): Promise<string> =>
    (await e2e.app.get(DataSource).query('SELECT order_ref FROM sessions WHERE id = $1', [sessionId]))[0].order_ref;
  /** Starts a session and lets the fake app pick the order up through its autostart token. */
  const startPickedUp = async (body?: object) => {
    const started = (await start(body).expect(200)).body;
    const orderRef = bankId.fake.openWithAutoStartToken(started.autoStartToken);
    return { sessionId: started.sessionId as string, orderRef };
  };

  const e2e = useE2eApp({
    env: () => ({
      PROVIDERS: 'simulator,bankid',
      ...bankId.env(),
      // The root of the fake's own user-certificate PKI (docs/evidence.md, "Trust roots").
      BANKID_TEST_EVIDENCE_ROOTS: bankId.fake.evidenceRootPem,
      // Above what the fake's openssl signing of a completion takes on a loaded machine, below the
      // 3 s the timeout test's fake waits.
      BANKID_TIMEOUT: '2s',
      BANKID_RETRY_SCHEDULE: '10ms,20ms',
    }),
    // The background collector ticks on wall time while these tests move the clock by hand: a tick
    // could collect between a step and its poll. The collector is driven explicitly instead (collectDue).
    stopBackgroundJobs: true,
    withKey: true,
    freezeClock: true,
  });

  it('should complete a session end to end: auth over mTLS, the app scans the QR frame, collect until complete', async () => {
    const started = await start({ endUserIp: '192.0.2.10', userVisibleData: 'Log in to Example AB' }).expect(200);
    expect(started.body).toMatchObject({
      provider: 'bankid',
      status: 'pending',
      qrStartToken: expect.any(String),
      autoStartToken: expect.any(String),
    });
    // BankID's universal link for the same device; the way back is the server-side returnUrl (docs/same-device.md).
    expect(started.body.launchUrl).toBe(`https://app.bankid.com/?autostarttoken=${started.body.autoStartToken}&redirect=null`);
    const { sessionId } = started.body;
    const [auth] = bankId.fake.requestsTo('auth');
    expect(auth).toEqual({
      path: 'auth',
      contentType: 'application/json',
      clientCn: 'Fake RP',
      body: {
        endUserIp: '192.0.2.10',
        userVisibleData: Buffer.from('Log in to Example AB').toString('base64'),
        userVisibleDataFormat: 'plaintext',
        returnRisk: true,
      },
    });
    const orderRef = await orderRefOf(sessionId);
    expect(bankId.fake.order(orderRef)?.qrStartToken).toBe(started.body.qrStartToken);

    await poll(sessionId).expect(200, {
      sessionId,
      provider: 'bankid',
      environment: 'test',
      operation: 'auth',
      channel: 'app',
      status: 'pending',
      hintCode: 'outstandingTransaction',
      userMessage: {
        code: 'RFA1',
        sv: 'Starta BankID-appen i din mobil och skanna QR-koden.',
        en: 'Start the BankID app on your phone and scan the QR code.',
      },
    });

    // The frame is computed from the time of BankID's auth answer; the fake app checks its HMAC and its age.
    e2e.clock.advance(1_000);
    const frame = (await qr(sessionId).expect(200)).body;
    expect(frame.qrTime).toBe(1);
    expect(bankId.fake.scanQr(frame.qrData)).toBe(orderRef);

    e2e.clock.advance(COLLECT_MS);
    await e2e.collect();
    await poll(sessionId).expect(200, {
      sessionId,
      provider: 'bankid',
      environment: 'test',
      operation: 'auth',
      channel: 'app',
      status: 'pending',
      hintCode: 'userSign',
      userMessage: {
        code: 'RFA9',
        sv: 'Skriv in din säkerhetskod i BankID-appen och välj Identifiera eller Skriv under.',
        en: 'Enter your security code in the BankID app and select Identify or Sign.',
      },
    });

    bankId.fake.approve(orderRef);
    e2e.clock.advance(COLLECT_MS);
    await e2e.collect();
    const done = await poll(sessionId).expect(200);
    expect(done.body).toEqual({
      sessionId,
      provider: 'bankid',
      environment: 'test',
      operation: 'auth',
      channel: 'app',
      status: 'complete',
      user: FAKE_USER,
      device: { ipAddress: '192.0.2.10', uhi: expect.any(String) },
      completedAt: e2e.clock.now().toISOString(),
      evidence: { bankIdIssueDate: '2024-03-01', risk: 'low', verification: VERIFIED_EVIDENCE },
      resultToken: expect.any(String),
    });
    expect(await verifyResultToken(e2e.http, done.body.resultToken, e2e.team.id)).toMatchObject({
      sub: sessionId,
      provider: 'bankid',
      status: 'complete',
      user: FAKE_USER,
    });

    // BankID forgets a completed order after 3 minutes; the session keeps its result and stops collecting.
    const collects = bankId.fake.requestsTo('collect').length;
    e2e.clock.advance(10 * 60_000);
    await e2e.collect();
    expect(bankId.fake.order(orderRef)).toBeUndefined();
    await poll(sessionId).expect(200, done.body);
    expect(bankId.fake.requestsTo('collect')).toHaveLength(collects);
  });

  it('should refuse a stale QR frame in the app, as BankID does', async () => {
    const { sessionId } = (await start().expect(200)).body;
    const old = (await qr(sessionId).expect(200)).body.qrData;
    e2e.clock.advance(5_000);
    expect(() => bankId.fake.scanQr(old)).toThrow(new FakeAppRefusal('qr_expired'));
    expect(() => bankId.fake.scanQr((old as string).replace(/.$/, '0'))).toThrow(FakeAppRefusal);
  });

  it('should pass every pending hint code through, and an unknown one as it came', async () => {
    const { sessionId, orderRef } = await startPickedUp();
    for (const hintCode of ['noClient', 'started', 'userMrtd', 'userCallConfirm', 'userSign', 'somethingNew']) {
      bankId.fake.setHint(orderRef, hintCode);
      e2e.clock.advance(COLLECT_MS);
      await e2e.collect();
      expect((await poll(sessionId).expect(200)).body).toMatchObject({ status: 'pending', hintCode });
    }
  });

  it.each([
    'certificateErr',
    'userCancel',
    'cancelled',
    'userDeclinedCall',
    'notSupportedByUserApp',
    'transactionRiskBlocked',
    'somethingNewFailed',
  ])('should fail the session with hint code %s when BankID ends the order so', async (hintCode) => {
    const { sessionId, orderRef } = await startPickedUp();
    bankId.fake.failOrder(orderRef, hintCode);
    e2e.clock.advance(COLLECT_MS);
    await e2e.collect();
    expect((await poll(sessionId).expect(200)).body).toMatchObject({ status: 'failed', hintCode });
  });

  it('should fail with startFailed when no app picks the order up within 30 s, and expiredTransaction after 3 min', async () => {
    const unscanned = (await start().expect(200)).body.sessionId;
    const slow = await startPickedUp();
    e2e.clock.advance(31_000);
    await e2e.collect();
    expect((await poll(unscanned).expect(200)).body).toMatchObject({ status: 'failed', hintCode: 'startFailed' });
    expect((await poll(slow.sessionId).expect(200)).body).toMatchObject({ status: 'pending', hintCode: 'userSign' });
    e2e.clock.advance(150_000);
    await e2e.collect();
    expect((await poll(slow.sessionId).expect(200)).body).toMatchObject({ status: 'failed', hintCode: 'expiredTransaction' });
  });

  it('should cancel the order at BankID when the RP cancels the session', async () => {
    const { sessionId, orderRef } = await startPickedUp();
    const res = await e2e.http.post(`/api/v1/auth/${sessionId}/cancel`).set('x-api-key', e2e.key).expect(200);
    expect(res.body).toMatchObject({ status: 'failed', hintCode: 'cancelled' });
    expect(bankId.fake.requestsTo('cancel').at(-1)?.body).toEqual({ orderRef });
    expect(bankId.fake.order(orderRef)).toMatchObject({ status: 'failed', hintCode: 'cancelled' });
  });

  it('should cancel a session whose order BankID has already ended (invalidParameters on cancel)', async () => {
    const { sessionId, orderRef } = await startPickedUp();
    bankId.fake.cancelInApp(orderRef);
    await e2e.http.post(`/api/v1/auth/${sessionId}/cancel`).set('x-api-key', e2e.key).expect(200);
  });

  it('should send requirement, returnUrl and the text format, and keep the evidence of the order encrypted', async () => {
    const body = {
      endUserIp: '2001:db8::7',
      userVisibleData: '**Log in** to _Example_',
      userVisibleDataFormat: 'simpleMarkdownV1',
      returnUrl: 'https://rp.example/return?nonce=abc',
      requirement: { pinCode: true, mrtd: true, certificatePolicies: ['1.2.3.4.5'] },
    };
    const { sessionId, autoStartToken } = (await start(body).expect(200)).body;
    expect(bankId.fake.requestsTo('auth').at(-1)?.body).toEqual({
      ...body,
      // The service's own nonce rides along (docs/same-device.md).
      returnUrl: expect.stringMatching(/^https:\/\/rp\.example\/return\?nonce=abc&eidgw_nonce=[A-Za-z0-9_-]{22}$/),
      userVisibleData: Buffer.from(body.userVisibleData).toString('base64'),
      returnRisk: true,
    });
    const orderRef = bankId.fake.openWithAutoStartToken(autoStartToken);
    e2e.clock.advance(COLLECT_MS);
    await e2e.collect();
    expect((await poll(sessionId).expect(200)).body.hintCode).toBe('userMrtd');
    bankId.fake.approve(orderRef);
    e2e.clock.advance(COLLECT_MS);
    await e2e.collect();
    expect((await poll(sessionId).expect(200)).body.status).toBe('complete');

    const [row] = await e2e.app.get(DataSource).query('SELECT completion_enc, evidence_enc FROM sessions WHERE id = $1', [sessionId]);
    expect(row.completion_enc.toString('latin1')).not.toContain(FAKE_USER.personalNumber);
    const evidence = e2e.app.get(DataCipher).decryptJson<Record<string, unknown>>(row.evidence_enc, `sessions:${sessionId}:evidence`);
    const expected = {
      bankIdIssueDate: '2024-03-01',
      stepUp: { mrtd: true },
      signature: expect.any(String),
      ocspResponse: expect.any(String),
      risk: 'low',
    };
    expect(evidence).toEqual({ ...expected, verification: VERIFIED_EVIDENCE });
    // The raw signature and OCSP response are for the RP at its own route, not in poll answers.
    const raw = await e2e.http.get(`/api/v1/auth/${sessionId}/evidence`).set('x-api-key', e2e.key).expect(200);
    expect(raw.body).toEqual({ sessionId, ...expected, verification: VERIFIED_EVIDENCE });
    expect(raw.body.signature).toBe(evidence.signature);
  });

  it("should complete with verification failed, not a different outcome, when BankID's signature does not verify", async () => {
    bankId.fake.sendBrokenSignatures();
    try {
      const { sessionId, orderRef } = await startPickedUp({ endUserIp: '192.0.2.10', userVisibleData: 'Log in to Example AB' });
      bankId.fake.approve(orderRef);
      e2e.clock.advance(COLLECT_MS);
      await e2e.collect();
      const done = (await poll(sessionId).expect(200)).body;
      expect(done).toMatchObject({ status: 'complete', user: FAKE_USER, resultToken: expect.any(String) });
      // The fake changes the signed text after signing: the signature fails, and the text no longer matches the order's.
      expect(done.evidence.verification).toEqual({
        ...VERIFIED_EVIDENCE,
        status: 'failed',
        signatureValid: false,
        signedDataMatches: false,
      });
    } finally {
      bankId.fake.sendBrokenSignatures(false);
    }
  });

  it.each([
    ['an unknown requirement', { requirement: { allowFingerprint: true } }, '/requirement/allowFingerprint'],
    ['a malformed personal number', { requirement: { personalNumber: '19900101-2393' } }, '/requirement/personalNumber'],
    ['userVisibleData over 1,500 characters once base64-encoded', { userVisibleData: 'å'.repeat(600) }, '/userVisibleData'],
    ['a relative returnUrl', { returnUrl: '/return' }, '/returnUrl'],
  ])('should refuse %s with 400 naming the field, without calling BankID', async (_name, extra, pointer) => {
    const before = bankId.fake.requestsTo('auth').length;
    expect(expectValidationProblem(await start({ endUserIp: '192.0.2.1', ...extra }))).toContain(pointer);
    expect(bankId.fake.requestsTo('auth')).toHaveLength(before);
  });

  it('should answer 409 order_in_progress when BankID already runs an order for the person, which fails with cancelled', async () => {
    const requirement = { personalNumber: '199001012393' };
    const first = (await start({ endUserIp: '192.0.2.1', requirement }).expect(200)).body.sessionId;
    const res = await start({ endUserIp: '192.0.2.1', requirement }).expect(409);
    expect(res.body).toMatchObject({ status: 409, code: 'order_in_progress', providerErrorCode: 'alreadyInProgress' });
    e2e.clock.advance(COLLECT_MS);
    await e2e.collect();
    expect((await poll(first).expect(200)).body).toMatchObject({ status: 'failed', hintCode: 'cancelled' });
  });

  it('should retry maintenance and internalError with backoff, then start the session', async () => {
    const before = bankId.fake.requestsTo('auth').length;
    bankId.fake.injectFault({ path: 'auth', times: 1, status: 503, errorCode: 'maintenance' });
    bankId.fake.injectFault({ path: 'auth', times: 1, status: 500, errorCode: 'internalError' });
    await start().expect(200);
    expect(bankId.fake.requestsTo('auth')).toHaveLength(before + 3);
  });

  it('should answer 502 provider_unavailable when BankID stays in maintenance past the bounded retries', async () => {
    const before = bankId.fake.requestsTo('auth').length;
    bankId.fake.injectFault({ path: 'auth', times: 3, status: 503, errorCode: 'Maintenance' });
    const res = await start().expect(502);
    expect(res.body).toMatchObject({ status: 502, code: 'provider_unavailable' });
    expect(bankId.fake.requestsTo('auth')).toHaveLength(before + 3);
  });

  it.each([
    [400, 'invalidParameters', 400, 'provider_rejected_request'],
    [401, 'unauthorized', 502, 'provider_unavailable'],
    [404, 'notFound', 502, 'provider_unavailable'],
    [408, 'requestTimeout', 502, 'provider_unavailable'],
    [400, 'aBrandNewCode', 502, 'provider_unavailable'],
  ])('should not retry HTTP %i %s and answer %i %s', async (status, errorCode, expected, code) => {
    const before = bankId.fake.requestsTo('auth').length;
    bankId.fake.injectFault({ path: 'auth', times: 1, status, errorCode });
    expect((await start().expect(expected)).body.code).toBe(code);
    expect(bankId.fake.requestsTo('auth')).toHaveLength(before + 1);
  });

  it('should pass BankID rate limiting on as 502 with Retry-After, without retrying', async () => {
    bankId.fake.injectFault({ path: 'auth', times: 1, status: 429, errorCode: 'tooManyRequests', headers: { 'RateLimit-Reset': '7' } });
    const res = await start().expect(502);
    expect(res.headers['retry-after']).toBe('7');
  });

  it('should time out a BankID that does not answer, retry, and give up with 502 after the bounded attempts', async () => {
    const before = bankId.fake.requestsTo('auth').length;
    bankId.fake.injectFault({ path: 'auth', times: 3, delayMs: 3_000 });
    expect((await start().expect(502)).body.code).toBe('provider_unavailable');
    expect(bankId.fake.requestsTo('auth')).toHaveLength(before + 3);

    bankId.fake.injectFault({ path: 'auth', times: 1, delayMs: 3_000 });
    await start().expect(200);
  });

  it('should keep a session pending through a collect outage and move on when BankID is back', async () => {
    const { sessionId, orderRef } = await startPickedUp();
    // An outage for every collect of the tick (the tick also collects the file's other pending sessions).
    bankId.fake.injectFault({ path: 'collect', times: 1_000, status: 503, errorCode: 'maintenance' });
    bankId.fake.approve(orderRef);
    e2e.clock.advance(COLLECT_MS);
    await e2e.collect();
    expect((await poll(sessionId).expect(200)).body).toMatchObject({ status: 'pending' });
    bankId.fake.clearFaults();
    e2e.clock.advance(COLLECT_MS);
    await e2e.collect();
    expect((await poll(sessionId).expect(200)).body.status).toBe('complete');
  });

  it('should report a pending order BankID no longer knows as expired', async () => {
    const { sessionId } = (await start().expect(200)).body;
    await e2e.app.get(DataSource).query(`UPDATE sessions SET order_ref = 'unknown-order' WHERE id = $1`, [sessionId]);
    e2e.clock.advance(COLLECT_MS);
    await e2e.collect();
    expect((await poll(sessionId).expect(200)).body).toMatchObject({ status: 'failed', hintCode: 'expiredTransaction' });
  });

  it('should collect in the background so the outcome is known without polls', async () => {
    const { sessionId, orderRef } = await startPickedUp();
    bankId.fake.approve(orderRef);
    e2e.clock.advance(COLLECT_MS);
    expect(await e2e.app.get(SessionSettlement).collectDue()).toContain(sessionId);
    const [row] = await e2e.app.get(DataSource).query('SELECT status FROM sessions WHERE id = $1', [sessionId]);
    expect(row.status).toBe('complete');
  });

  it('should report the RP certificate of each environment in readiness', async () => {
    const ready = await e2e.http.get('/health/ready').expect(200);
    expect(ready.body).toMatchObject({ status: 'ok' });
    expect(ready.body.checks.bankidCertificates).toEqual({
      test: { state: 'valid', expiresAt: expect.any(String), daysLeft: expect.any(Number) },
      live: { state: 'valid', expiresAt: expect.any(String), daysLeft: expect.any(Number) },
    });
  });

  // Last: its orders stay in the fake, which the tests above read as the latest.
  providerContract(() => ({
    provider: 'bankid',
    e2e,
    collectMs: COLLECT_MS,
    approve: async (sessionId) => {
      const { qrData } = (await qr(sessionId).expect(200)).body;
      bankId.fake.approve(bankId.fake.scanQr(qrData));
    },
    decline: async (sessionId) => bankId.fake.cancelInApp(await orderRefOf(sessionId)),
    verifiedEvidence: true,
  }));
});

describe('BankID RP certificates: forms, refusals and expiry', () => {
  let clock: TestApp['clock'] | undefined;
  // An RP certificate 20 days from its end: inside the 30-day warning window.
  const bankId = useBankIdFake({ now: () => clock?.now() ?? new Date(), pki: { clientDays: 20 } });

  /** An app whose test environment uses its own certificate settings; live keys have none. */
  async function withApp(env: Record<string, string>, work: (testApp: TestApp) => Promise<void>): Promise<void> {
    // An app that fails to boot cannot be closed and keeps its connections (or, on the embedded
    // fallback, the database itself) open: each gets its own database, dropped afterwards.
    const own = await createTestDatabase();
    let testApp: TestApp;
    try {
      testApp = await createTestApp({
        ...own.env,
        PROVIDERS: 'simulator,bankid',
        BANKID_TEST_URL: bankId.fake.url,
        BANKID_TIMEOUT: '400ms',
        BANKID_RETRY_SCHEDULE: '10ms,20ms',
        ...env,
      });
    } catch (error) {
      // The refused app's embedded database may still be writing its files: the refusal is the result.
      await own.drop().catch(() => undefined);
      throw error;
    }
    clock = testApp.clock;
    try {
      await work(testApp);
    } finally {
      clock = undefined;
      await testApp.close();
      await own.drop();
    }
  }

  /** The start answer for a new key of that environment. */
  const startAs = async (testApp: TestApp, environment: 'test' | 'live' = 'test') => {
    const { key } = await createTeamWithKey(testApp.app, { environment });
    return httpOf(testApp.app).post('/api/v1/auth/bankid/start').set('x-api-key', key).send({ endUserIp: '192.0.2.1' });
  };

  const pem = () => ({
    BANKID_TEST_CERT: bankId.pki.client.certPath,
    BANKID_TEST_KEY: bankId.pki.client.keyPath,
    BANKID_TEST_CA: bankId.pki.bankIdCaPath,
  });

  it.each([
    ['PEM files', () => pem()],
    [
      'inline PEM text',
      () => ({ BANKID_TEST_CERT: bankId.pki.client.cert, BANKID_TEST_KEY: bankId.pki.client.key, BANKID_TEST_CA: bankId.pki.bankIdCa }),
    ],
    [
      'a PKCS#12 file and passphrase',
      () => ({
        BANKID_TEST_PFX: bankId.pki.client.pfxPath,
        BANKID_TEST_PASSPHRASE: TEST_PASSPHRASE,
        BANKID_TEST_CA: bankId.pki.bankIdCaPath,
      }),
    ],
    [
      'an inline base64 PKCS#12',
      () => ({
        BANKID_TEST_PFX: `base64:${readFileSync(bankId.pki.client.pfxPath).toString('base64')}`,
        BANKID_TEST_PASSPHRASE: TEST_PASSPHRASE,
        BANKID_TEST_CA: bankId.pki.bankIdCaPath,
      }),
    ],
  ])('should present the RP certificate given as %s', async (_name, env) => {
    await withApp(env(), async (testApp) => {
      expect((await startAs(testApp)).status).toBe(200);
      expect(bankId.fake.requestsTo('auth').at(-1)?.clientCn).toBe('Fake RP');
    });
  });

  it('should offer bankid only to keys of an environment with an RP certificate', async () => {
    await withApp(pem(), async (testApp) => {
      expect((await startAs(testApp, 'test')).status).toBe(200);
      expect((await startAs(testApp, 'live')).body).toMatchObject({ status: 404, code: 'unknown_provider' });
    });
  });

  it.each([
    [
      'a client certificate from a CA BankID does not know',
      () => ({ BANKID_TEST_CERT: bankId.pki.stranger.certPath, BANKID_TEST_KEY: bankId.pki.stranger.keyPath }),
      0,
    ],
    [
      'an RP certificate without access to the service (401 unauthorized)',
      () => ({ BANKID_TEST_CERT: bankId.pki.unknownRp.certPath, BANKID_TEST_KEY: bankId.pki.unknownRp.keyPath }),
      1,
    ],
    ['a server that the pinned CA did not sign', () => ({ BANKID_TEST_CA: bankId.pki.otherCaPath }), 0],
  ])('should answer 502 provider_unavailable for %s', async (_name, env, requestsSeen) => {
    await withApp({ ...pem(), ...env() }, async (testApp) => {
      const before = bankId.fake.requests.length;
      expect((await startAs(testApp)).body).toMatchObject({ status: 502, code: 'provider_unavailable' });
      expect(bankId.fake.requests.length - before).toBe(requestsSeen);
    });
  });

  it.each([
    [
      'a wrong PKCS#12 passphrase',
      () => ({ BANKID_TEST_PFX: bankId.pki.client.pfxPath, BANKID_TEST_PASSPHRASE: 'wrong', BANKID_TEST_CA: bankId.pki.bankIdCaPath }),
      /BANKID_TEST_PFX\/BANKID_TEST_PASSPHRASE: the RP certificate cannot be loaded/,
    ],
    [
      'a missing key file',
      () => ({ ...pem(), BANKID_TEST_KEY: `${bankId.pki.dir}/missing.key` }),
      /BANKID_TEST_KEY: cannot read the file \(ENOENT\)/,
    ],
    [
      'a CA that is not a certificate',
      () => ({ ...pem(), BANKID_TEST_CA: bankId.pki.client.keyPath }),
      /BANKID_TEST_CA is not a PEM certificate/,
    ],
  ])('should refuse to start with %s, naming the variable and not its value', async (_name, env, message) => {
    const settings = env();
    const failure = await withApp(settings, async () => undefined).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(message);
    expect((failure as Error).message).not.toContain(bankId.pki.client.key.split('\n')[1]);
  });

  it('should warn in readiness within 30 days of the RP certificate expiry, and fail readiness once it has expired', async () => {
    await withApp(pem(), async (testApp) => {
      const http = httpOf(testApp.app);
      testApp.clock.freeze();
      const ready = await http.get('/health/ready').expect(200);
      expect(ready.body).toMatchObject({
        status: 'warn',
        checks: { bankidCertificates: { test: { state: 'expiring', daysLeft: 19 } } },
        warnings: [expect.stringMatching(/^The BankID RP certificate for test keys expires in 19 days/)],
      });
      testApp.clock.advance(21 * 86_400_000);
      const down = await http.get('/health/ready').expect(503);
      expect(down.body.detail).toMatch(/BankID RP certificate expired for test keys/);
    });
  });
});
