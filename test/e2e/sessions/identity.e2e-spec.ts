import { createHmac } from 'node:crypto';
import { PNG } from 'pngjs';
import { DataSource } from 'typeorm';
import { SessionPiiPurgeJob } from '../../../src/sessions/jobs/session-pii-purge.job.js';
import { SessionSettlement } from '../../../src/sessions/settlement/session-settlement.js';
import { createTestApp, createTestDatabase } from '../../support/create-test-app.js';
import { decodeQrPng } from '../../support/decode-qr.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { itOnPostgres } from '../../support/test-postgres.js';
import { httpOf, useE2eApp } from '../../support/e2e.js';
import { expectProblem, expectValidationProblem } from '../../support/problem.js';
import { tamperedResultToken, VERIFIED_EVIDENCE, verifyResultToken } from '../../support/result-token.js';
import { ApiKeysService } from '../../../src/api-keys/api-keys.service.js';
import { evidenceSha256 } from '../../../src/tokens/result-token-signer.js';
import { expectMatchesSchema } from '../../support/openapi.js';

const QR_DATA = /^bankid\.([0-9a-f-]{36})\.(\d+)\.([0-9a-f]{64})$/;

describe('Identity sessions (simulator)', () => {
  const e2e = useE2eApp({ stopBackgroundJobs: true, withKey: true, freezeClock: true });

  // Every answer of these helpers is checked against the OpenAPI document too (test/support/openapi.ts).
  const start = (body: object = { endUserIp: '192.0.2.10' }, apiKey = e2e.key) =>
    e2e.http
      .post('/api/v1/auth/simulator/start')
      .set('x-api-key', apiKey)
      .send(body)
      .expect((res) => expectMatchesSchema(res, 'POST /api/v1/auth/{provider}/start'));
  const poll = (id: string, apiKey = e2e.key) =>
    e2e.http
      .post(`/api/v1/auth/${id}/poll`)
      .set('x-api-key', apiKey)
      .expect((res) => expectMatchesSchema(res, 'POST /api/v1/auth/{sessionId}/poll'));
  const qr = (id: string, format = '') =>
    e2e.http
      .get(`/api/v1/auth/${id}/qr${format}`)
      .set('x-api-key', e2e.key)
      .expect((res) => expectMatchesSchema(res, 'GET /api/v1/auth/{sessionId}/qr'));
  const scan = (body: object) =>
    e2e.http
      .post('/api/v1/simulator/scan')
      .send(body)
      .expect((res) => expectMatchesSchema(res, 'POST /api/v1/simulator/scan'));

  it('should run the whole flow: start, poll pending, QR as JSON/PNG/SVG, scan the frame, poll complete', async () => {
    const started = await start({ endUserIp: '192.0.2.10', metadata: { orderId: 'A-1' } }).expect(200);
    expect(started.body).toEqual({
      sessionId: expect.any(String),
      provider: 'simulator',
      operation: 'auth',
      channel: 'app',
      status: 'pending',
      qrStartToken: expect.any(String),
      qrStartSecret: expect.any(String),
      autoStartToken: expect.any(String),
      launchUrl: expect.stringMatching(/^https?:\/\/[^/]+\/simulator\/app\?autostarttoken=[0-9a-f-]{36}$/),
      createdAt: e2e.clock.now().toISOString(),
      expiresAt: new Date(e2e.clock.nowMs() + 180_000).toISOString(),
      kioskUrl: expect.stringMatching(/^https?:\/\/[^/]+\/kiosk\/[0-9a-f-]{36}#t=[A-Za-z0-9_-]{28}$/),
    });
    const { sessionId, qrStartToken, qrStartSecret } = started.body;

    await poll(sessionId).expect(200, {
      sessionId,
      provider: 'simulator',
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

    e2e.clock.advance(1_000);
    const json = await qr(sessionId).expect(200);
    expect(json.headers['cache-control']).toBe('no-store');
    expect(json.body).toEqual({ sessionId, qrData: expect.stringMatching(QR_DATA), qrTime: 1, status: 'pending' });
    const expectedCode = createHmac('sha256', qrStartSecret).update('1').digest('hex');
    expect(json.body.qrData).toBe(`bankid.${qrStartToken}.1.${expectedCode}`);

    const png = await qr(sessionId, '?format=png').buffer(true).expect(200).expect('content-type', 'image/png');
    expect(decodeQrPng(png.body)).toBe(json.body.qrData);
    const viaAccept = await e2e.http
      .get(`/api/v1/auth/${sessionId}/qr`)
      .set('x-api-key', e2e.key)
      .set('accept', 'image/png')
      .buffer(true)
      .expect(200);
    expect(decodeQrPng(viaAccept.body)).toBe(json.body.qrData);
    const svg = await qr(sessionId, '?format=svg')
      .buffer(true)
      .expect(200)
      .expect('content-type', /^image\/svg\+xml/);
    expect(svg.body.toString()).toContain('<svg');

    await scan({ qrData: json.body.qrData, personalNumber: '198507099805', givenName: 'Anna', surname: 'Andersson' }).expect(200);

    e2e.clock.advance(1_500);
    await e2e.collect();
    expect((await poll(sessionId).expect(200)).body).toMatchObject({ status: 'pending', hintCode: 'userSign' });

    e2e.clock.advance(2_000);
    await e2e.collect();
    const done = await poll(sessionId).expect(200);
    expect(done.body).toEqual({
      sessionId,
      provider: 'simulator',
      environment: 'test',
      operation: 'auth',
      channel: 'app',
      status: 'complete',
      user: { personalNumber: '198507099805', name: 'Anna Andersson', givenName: 'Anna', surname: 'Andersson' },
      device: { ipAddress: '192.0.2.10' },
      completedAt: e2e.clock.now().toISOString(),
      evidence: { bankIdIssueDate: e2e.clock.now().toISOString().slice(0, 10), risk: 'low', verification: VERIFIED_EVIDENCE },
      resultToken: expect.any(String),
    });

    // Polls after the end give the same final answer; the QR and cancel are refused.
    e2e.clock.advance(5_000);
    await e2e.collect();
    await poll(sessionId).expect(200, done.body);
    expect((await qr(sessionId).expect(409)).body.code).toBe('session_not_pending');
    expect((await e2e.http.post(`/api/v1/auth/${sessionId}/cancel`).set('x-api-key', e2e.key).expect(409)).body.code).toBe(
      'session_not_pending',
    );
  });

  it('should size PNG frames by ?size= within bounds and refuse sizes outside them', async () => {
    const { sessionId } = (await start().expect(200)).body;
    const json = (await qr(sessionId).expect(200)).body;
    const png = await qr(sessionId, '?format=png&size=500').buffer(true).expect(200);
    // 49 modules with the quiet zone, 10 px each: the largest whole module that fits 500 px.
    expect(PNG.sync.read(png.body).width).toBe(490);
    expect(decodeQrPng(png.body)).toBe(json.qrData);
    for (const size of ['99', '2001', 'big']) {
      expect(new Set(expectValidationProblem(await qr(sessionId, `?format=png&size=${size}`)))).toEqual(new Set(['/size']));
    }
  });

  it('should keep the QR secret and the identity encrypted at rest', async () => {
    const { sessionId, qrStartSecret } = (await start().expect(200)).body;
    const frame = (await qr(sessionId).expect(200)).body.qrData;
    await scan({ qrData: frame, personalNumber: '197001011234' }).expect(200);
    e2e.clock.advance(2_500);
    await e2e.collect();
    await poll(sessionId).expect(200);
    const rows = await e2e.app.get(DataSource).query('SELECT * FROM sessions WHERE id = $1', [sessionId]);
    const dump = JSON.stringify(rows) + Buffer.concat([rows[0].qr_start_secret_enc, rows[0].completion_enc]).toString('latin1');
    expect(rows[0].status).toBe('complete');
    expect(dump).not.toContain(qrStartSecret);
    expect(dump).not.toContain('197001011234');
  });

  it('should approve through the autostart token, and fail with userCancel when the user cancels', async () => {
    const approved = (await start().expect(200)).body;
    await scan({ autoStartToken: approved.autoStartToken }).expect(200);
    const cancelled = (await start().expect(200)).body;
    await scan({ autoStartToken: cancelled.autoStartToken, action: 'cancel' }).expect(200);
    e2e.clock.advance(2_500);
    await e2e.collect();
    expect((await poll(approved.sessionId).expect(200)).body.status).toBe('complete');
    expect((await poll(cancelled.sessionId).expect(200)).body).toMatchObject({ status: 'failed', hintCode: 'userCancel' });
  });

  it('should refuse a forged, a stale and a reused frame', async () => {
    const { sessionId, qrStartToken } = (await start().expect(200)).body;
    const forged = `bankid.${qrStartToken}.0.${createHmac('sha256', 'wrong-secret').update('0').digest('hex')}`;
    expect((await scan({ qrData: forged }).expect(400)).body.code).toBe('qr_invalid');
    expect((await scan({ qrData: 'not a frame' }).expect(400)).body.code).toBe('qr_invalid');

    const old = (await qr(sessionId).expect(200)).body.qrData;
    e2e.clock.advance(4_000);
    expect((await scan({ qrData: old }).expect(400)).body.code).toBe('qr_expired');

    const current = (await qr(sessionId).expect(200)).body.qrData;
    await scan({ qrData: current }).expect(200);
    expect((await scan({ qrData: current }).expect(409)).body.code).toBe('session_not_pending');
  });

  it('should need exactly one of qrData and autoStartToken to scan', async () => {
    expect(expectValidationProblem(await scan({ action: 'approve' }))).toEqual(['/qrData']);
  });

  it('should cancel a pending session', async () => {
    const { sessionId } = (await start().expect(200)).body;
    const res = await e2e.http
      .post(`/api/v1/auth/${sessionId}/cancel`)
      .set('x-api-key', e2e.key)
      .expect(200)
      .expect((answer) => expectMatchesSchema(answer, 'POST /api/v1/auth/{sessionId}/cancel'));
    expect(res.body).toEqual({
      sessionId,
      provider: 'simulator',
      environment: 'test',
      operation: 'auth',
      channel: 'app',
      status: 'failed',
      hintCode: 'cancelled',
      userMessage: { code: 'RFA3', sv: 'Åtgärden avbruten. Försök igen.', en: 'Action cancelled. Please try again.' },
      completedAt: expect.any(String),
      resultToken: expect.any(String),
    });
    await poll(sessionId).expect(200, res.body);
    expect(await verifyResultToken(e2e.http, res.body.resultToken, e2e.team.id)).toMatchObject({
      sub: sessionId,
      status: 'failed',
      hintCode: 'cancelled',
      operation: 'auth',
      channel: 'app',
      completedAt: res.body.completedAt,
    });
    // A failed session has no evidence.
    expectProblem(await e2e.http.get(`/api/v1/auth/${sessionId}/evidence`).set('x-api-key', e2e.key), 404, 'evidence_not_found');
  });

  it('should verify the evidence of a signed text and sign a result token that verifies against the JWKS, a tampered one not', async () => {
    const { sessionId, autoStartToken } = (await start({ endUserIp: '192.0.2.10', userVisibleData: 'Logga in hos Exempel AB' }).expect(200))
      .body;
    await scan({ autoStartToken, personalNumber: '198507099805', givenName: 'Anna', surname: 'Andersson' }).expect(200);
    e2e.clock.advance(2_500);
    await e2e.collect();
    const done = (await poll(sessionId).expect(200)).body;
    expect(done.evidence.verification).toEqual(VERIFIED_EVIDENCE);

    const raw = await e2e.http.get(`/api/v1/auth/${sessionId}/evidence`).set('x-api-key', e2e.key).expect(200);
    expect(raw.body).toEqual({ sessionId, ...done.evidence, signature: expect.any(String), ocspResponse: expect.any(String) });
    // BankID's shape: the signed text is in the XML the user's key signed.
    expect(Buffer.from(raw.body.signature, 'base64').toString('utf8')).toContain(Buffer.from('Logga in hos Exempel AB').toString('base64'));

    const payload = await verifyResultToken(e2e.http, done.resultToken, e2e.team.id);
    expect(payload).toMatchObject({
      sub: sessionId,
      aud: e2e.team.id,
      environment: 'test',
      provider: 'simulator',
      operation: 'auth',
      channel: 'app',
      status: 'complete',
      user: done.user,
      device: done.device,
      completedAt: done.completedAt,
      evidenceSha256: evidenceSha256(raw.body.signature),
    });
    await expect(
      verifyResultToken(
        e2e.http,
        tamperedResultToken(done.resultToken, { user: { ...done.user, personalNumber: '199001012393' } }),
        e2e.team.id,
      ),
    ).rejects.toThrow(/signature verification failed/);
    // Addressed to the team: another service of another team would refuse it.
    await expect(verifyResultToken(e2e.http, done.resultToken, '00000000-0000-4000-8000-000000000000')).rejects.toThrow(/aud/);
  });

  it("should answer 404 session_not_found for another team's or the other environment's evidence", async () => {
    const { sessionId, autoStartToken } = (await start().expect(200)).body;
    await scan({ autoStartToken }).expect(200);
    e2e.clock.advance(2_500);
    await e2e.collect();
    expect((await poll(sessionId).expect(200)).body.status).toBe('complete');
    const other = await createTeamWithKey(e2e.app);
    const live = await e2e.app
      .get(ApiKeysService)
      .create({ teamId: e2e.team.id, environment: 'live', scopes: ['sessions:read', 'sessions:write'] });
    for (const key of [other.key, live.key]) {
      expectProblem(await e2e.http.get(`/api/v1/auth/${sessionId}/evidence`).set('x-api-key', key), 404, 'session_not_found');
    }
    const otpOnly = await createTeamWithKey(e2e.app, { scopes: ['otp'] });
    expectProblem(await e2e.http.get(`/api/v1/auth/${sessionId}/evidence`).set('x-api-key', otpOnly.key), 403, 'insufficient_scope');
  });

  it('should fail an order nobody scans with startFailed after 30 s (moved clock)', async () => {
    const { sessionId } = (await start().expect(200)).body;
    e2e.clock.advance(29_000);
    await e2e.collect();
    expect((await poll(sessionId).expect(200)).body.status).toBe('pending');
    e2e.clock.advance(2_000);
    await e2e.collect();
    expect((await poll(sessionId).expect(200)).body).toMatchObject({ status: 'failed', hintCode: 'startFailed' });
  });

  it('should settle a batch in the background collector without any poll', async () => {
    const [approved, cancelled, waiting] = await Promise.all([start(), start(), start()].map(async (r) => (await r.expect(200)).body));
    await scan({ autoStartToken: approved.autoStartToken }).expect(200);
    await scan({ autoStartToken: cancelled.autoStartToken, action: 'cancel' }).expect(200);
    e2e.clock.advance(2_500);
    const collected = await e2e.app.get(SessionSettlement).collectDue();
    expect(collected).toEqual(expect.arrayContaining([approved.sessionId, cancelled.sessionId, waiting.sessionId]));
    // Just collected: these polls answer from the stored state the collector wrote.
    expect((await poll(approved.sessionId).expect(200)).body).toMatchObject({
      status: 'complete',
      user: { personalNumber: '199001011239' },
    });
    expect((await poll(cancelled.sessionId).expect(200)).body).toMatchObject({ status: 'failed', hintCode: 'userCancel' });
    expect((await poll(waiting.sessionId).expect(200)).body).toMatchObject({ status: 'pending', hintCode: 'outstandingTransaction' });
  });

  it('should erase personal data after the retention period and keep the outcome', async () => {
    const { sessionId, autoStartToken } = (await start().expect(200)).body;
    await scan({ autoStartToken }).expect(200);
    e2e.clock.advance(2_500);
    await e2e.collect();
    expect((await poll(sessionId).expect(200)).body).toMatchObject({ user: expect.any(Object), resultToken: expect.any(String) });
    await e2e.http.get(`/api/v1/auth/${sessionId}/evidence`).set('x-api-key', e2e.key).expect(200);
    e2e.clock.advance(3_600_000);
    await e2e.collect();
    await e2e.app.get(SessionPiiPurgeJob).purgeExpiredPersonalData();
    const after = await poll(sessionId).expect(200);
    expect(after.body).toEqual({
      sessionId,
      provider: 'simulator',
      environment: 'test',
      operation: 'auth',
      channel: 'app',
      status: 'complete',
      completedAt: expect.any(String),
    });
    // The evidence and the result token name the user: they go with the personal data (docs/evidence.md).
    expectProblem(await e2e.http.get(`/api/v1/auth/${sessionId}/evidence`).set('x-api-key', e2e.key), 410, 'evidence_purged');
    const [row] = await e2e.app
      .get(DataSource)
      .query(`SELECT signed_texts_enc, evidence_enc, result_token_enc FROM sessions WHERE id = $1`, [sessionId]);
    expect(row).toEqual({ signed_texts_enc: null, evidence_enc: null, result_token_enc: null });
  });

  it("should answer 404 session_not_found alike for a missing id, a malformed id and another team's session", async () => {
    const other = await createTeamWithKey(e2e.app);
    const { sessionId } = (await start().expect(200)).body;
    for (const [id, apiKey] of [
      ['00000000-0000-4000-8000-000000000000', e2e.key],
      ['not-a-uuid', e2e.key],
      [sessionId, other.key],
    ]) {
      const res = await poll(id, apiKey).expect(404);
      expect(res.body).toMatchObject({ status: 404, code: 'session_not_found', detail: 'No such session.' });
    }
  });

  it('should answer 404 unknown_provider for an unknown provider and for the simulator with a live key', async () => {
    expect(
      (await e2e.http.post('/api/v1/auth/nope/start').set('x-api-key', e2e.key).send({ endUserIp: '192.0.2.1' }).expect(404)).body.code,
    ).toBe('unknown_provider');
    const live = await createTeamWithKey(e2e.app, { environment: 'live' });
    expect((await start(undefined, live.key).expect(404)).body.code).toBe('unknown_provider');
  });

  it.each([
    ['no endUserIp', {}, '/endUserIp'],
    ['a malformed endUserIp', { endUserIp: '999.1.1.1' }, '/endUserIp'],
    ['userVisibleData over 1,500 characters', { endUserIp: '192.0.2.1', userVisibleData: 'x'.repeat(1501) }, '/userVisibleData'],
    ['nested metadata', { endUserIp: '192.0.2.1', metadata: { nested: { a: 1 } } }, '/metadata'],
    ['metadata over 1 KiB', { endUserIp: '192.0.2.1', metadata: { big: 'x'.repeat(1100) } }, '/metadata'],
    ['an unknown member', { endUserIp: '192.0.2.1', surprise: true }, '/surprise'],
  ])('should refuse a start body with %s (400 naming the field) and create nothing', async (_name, body, pointer) => {
    const before = await e2e.app.get(DataSource).query('SELECT count(*)::int AS n FROM sessions');
    const res = await start(body);
    expect(expectValidationProblem(res)).toContain(pointer);
    expectMatchesSchema(res, 'POST /api/v1/auth/{provider}/start');
    const after = await e2e.app.get(DataSource).query('SELECT count(*)::int AS n FROM sessions');
    expect(after[0].n).toBe(before[0].n);
  });

  it('should accept an IPv6 end-user address', async () => {
    await start({ endUserIp: '2001:db8::1' }).expect(200);
  });

  itOnPostgres('should let two instances on one database collect together without collecting a session twice', async () => {
    const second = await createTestApp(e2e.env);
    second.stopBackgroundJobs();
    try {
      const ids = await Promise.all(Array.from({ length: 12 }, async () => (await start().expect(200)).body.sessionId as string));
      second.clock.freeze(e2e.clock.nowMs());
      e2e.clock.advance(2_000);
      second.clock.advance(2_000);
      const [a, b] = await Promise.all([e2e.app.get(SessionSettlement).collectDue(), second.app.get(SessionSettlement).collectDue()]);
      const mine = [...a, ...b].filter((id) => ids.includes(id));
      expect(new Set(mine).size).toBe(mine.length);
      expect(new Set(mine)).toEqual(new Set(ids));
    } finally {
      await second.close();
    }
  });
});

describe('Identity sessions: order lifetime', () => {
  it('should fail a pending session with expiredTransaction when its lifetime ends (moved clock)', async () => {
    const database = await createTestDatabase();
    const testApp = await createTestApp({ ...database.env, SESSION_TTL: '3m', SIMULATOR_START_TIMEOUT: '10m' });
    try {
      const http = httpOf(testApp.app);
      const { key } = await createTeamWithKey(testApp.app);
      testApp.clock.freeze();
      const { sessionId } = (
        await http.post('/api/v1/auth/simulator/start').set('x-api-key', key).send({ endUserIp: '192.0.2.1' }).expect(200)
      ).body;
      testApp.clock.advance(179_000);
      await testApp.collect();
      expect((await http.post(`/api/v1/auth/${sessionId}/poll`).set('x-api-key', key).expect(200)).body.status).toBe('pending');
      testApp.clock.advance(2_000);
      await testApp.collect();
      expect((await http.post(`/api/v1/auth/${sessionId}/poll`).set('x-api-key', key).expect(200)).body).toMatchObject({
        status: 'failed',
        hintCode: 'expiredTransaction',
      });
    } finally {
      await testApp.close();
      await database.drop();
    }
  });
});
