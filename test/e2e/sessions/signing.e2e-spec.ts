import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { TokensService } from '../../../src/tokens/tokens.service.js';
import { UsersService } from '../../../src/users/users.service.js';
import { VERIFIED_EVIDENCE, verifyResultToken } from '../../support/result-token.js';
import { useE2eApp } from '../../support/e2e.js';
import { expectMatchesSchema } from '../../support/openapi.js';
import { expectProblem, expectValidationProblem } from '../../support/problem.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { createEndpoint } from '../../support/webhooks.js';

const COLLECT_MS = 2_000;
const PERSON = '199001012393';
const TEXT = 'Jag godkänner avtalet för Exempel AB';

// docs/api.md, "Signing and the phone channel", against the simulator: every route and rule.
describe('Signing and the phone channel (simulator)', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  // The tests move the clock and collect themselves: a wall-time collector tick between a clock move and
  // the next step would collect before the person answers and schedule the next collect past the test's.
  const e2e = useE2eApp({
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    withKey: { plan: 'pro' },
    freezeClock: true,
    stopBackgroundJobs: true,
  });
  afterAll(async () => {
    await receiver?.close();
  });

  const post = (path: string, body: object) => e2e.http.post(path).set('x-api-key', e2e.key).send(body);
  const signStart = (body: object = {}) =>
    post('/api/v1/sign/simulator/start', { endUserIp: '192.0.2.10', userVisibleData: TEXT, ...body });
  const phoneStart = (operation: 'auth' | 'sign', body: object = {}) =>
    post(`/api/v1/phone/${operation}/simulator/start`, {
      personalNumber: PERSON,
      callInitiator: 'RP',
      ...(operation === 'sign' ? { userVisibleData: TEXT } : {}),
      ...body,
    });
  const poll = async (id: string) => (await e2e.http.post(`/api/v1/auth/${id}/poll`).set('x-api-key', e2e.key).expect(200)).body;
  const answer = (body: object) => e2e.http.post('/api/v1/simulator/phone').send(body);

  it('should sign on the app channel: QR and kiosk link, the app shows the text, then complete with operation sign', async () => {
    const res = await signStart({ userVisibleDataFormat: 'simpleMarkdownV1', userNonVisibleData: 'aGFzaA==' }).expect(200);
    expectMatchesSchema(res, 'POST /api/v1/sign/{provider}/start');
    const started = res.body;
    expect(started).toMatchObject({
      provider: 'simulator',
      operation: 'sign',
      channel: 'app',
      status: 'pending',
      qrStartToken: expect.any(String),
      autoStartToken: expect.any(String),
      kioskUrl: expect.stringContaining('/kiosk/'),
    });
    const scanned = await e2e.http.post('/api/v1/simulator/scan').send({ autoStartToken: started.autoStartToken }).expect(200);
    expect(scanned.body).toEqual({ scanned: true, action: 'approve', operation: 'sign', userVisibleData: TEXT });
    expectMatchesSchema(scanned, 'POST /api/v1/simulator/scan');
    e2e.clock.advance(COLLECT_MS + 500);
    await e2e.collect();
    const done = await poll(started.sessionId);
    expect(done).toMatchObject({ operation: 'sign', channel: 'app', status: 'complete', user: { personalNumber: '199001011239' } });
    // The simulator signed the text and the hidden data as BankID does (funcId Signing); the service checked both (docs/evidence.md).
    expect(done.evidence.verification).toEqual(VERIFIED_EVIDENCE);
    expect(await verifyResultToken(e2e.http, done.resultToken, e2e.team.id)).toMatchObject({
      operation: 'sign',
      channel: 'app',
      status: 'complete',
    });
  });

  it('should answer what the app shows for an auth session too', async () => {
    const started = (await post('/api/v1/auth/simulator/start', { endUserIp: '192.0.2.10' }).expect(200)).body;
    expect(started).toMatchObject({ operation: 'auth', channel: 'app' });
    const scanned = await e2e.http.post('/api/v1/simulator/scan').send({ autoStartToken: started.autoStartToken }).expect(200);
    expect(scanned.body).toEqual({ scanned: true, action: 'approve', operation: 'auth' });
  });

  it.each(['auth', 'sign'] as const)(
    'should run phone %s without a QR: outstandingTransaction, userCallConfirm, userSign, complete',
    async (operation) => {
      const res = await phoneStart(operation).expect(200);
      expectMatchesSchema(res, `POST /api/v1/phone/${operation}/{provider}/start`);
      const started = res.body;
      expect(started).toMatchObject({ operation, channel: 'phone', status: 'pending' });
      for (const absent of ['qrStartToken', 'qrStartSecret', 'autoStartToken', 'kioskUrl', 'launchUrl'])
        expect(started).not.toHaveProperty(absent);
      expectProblem(await e2e.http.get(`/api/v1/auth/${started.sessionId}/qr`).set('x-api-key', e2e.key), 409, 'qr_not_available');

      e2e.clock.advance(COLLECT_MS);
      await e2e.collect();
      expect(await poll(started.sessionId)).toMatchObject({
        status: 'pending',
        hintCode: 'outstandingTransaction',
        operation,
        channel: 'phone',
      });
      const answered = await answer({ personalNumber: PERSON }).expect(200);
      expectMatchesSchema(answered, 'POST /api/v1/simulator/phone');
      expect(answered.body).toEqual({
        answered: true,
        action: 'approve',
        operation,
        ...(operation === 'sign' ? { userVisibleData: TEXT } : {}),
      });
      e2e.clock.advance(COLLECT_MS);
      // Collected 2 s after the answer: past userCallConfirm (1 s) and userSign (1 s).
      await e2e.collect();
      const done = await poll(started.sessionId);
      expect(done).toMatchObject({ status: 'complete', operation, channel: 'phone', user: { personalNumber: PERSON } });
      expect(done.evidence.verification).toEqual(VERIFIED_EVIDENCE);
      expect(await verifyResultToken(e2e.http, done.resultToken, e2e.team.id)).toMatchObject({ operation, channel: 'phone' });
      expect(done.device).toEqual({});
    },
  );

  it('should show userCallConfirm, then userSign, as the person answers the call', async () => {
    const { sessionId } = (await phoneStart('auth').expect(200)).body;
    e2e.clock.advance(COLLECT_MS);
    await answer({ personalNumber: PERSON }).expect(200);
    await e2e.collect();
    expect(await poll(sessionId)).toMatchObject({ status: 'pending', hintCode: 'userCallConfirm' });
    e2e.clock.advance(COLLECT_MS - 500);
    await e2e.http.post(`/api/v1/auth/${sessionId}/cancel`).set('x-api-key', e2e.key).expect(200);
    const { sessionId: second } = (await phoneStart('auth').expect(200)).body;
    e2e.clock.advance(1_000);
    await answer({ personalNumber: PERSON }).expect(200);
    e2e.clock.advance(1_000);
    await e2e.collect();
    expect(await poll(second)).toMatchObject({ status: 'pending', hintCode: 'userSign' });
  });

  it('should fail userDeclinedCall when the person says they are not on a call', async () => {
    const { sessionId } = (await phoneStart('sign', { callInitiator: 'user' }).expect(200)).body;
    await answer({ personalNumber: PERSON, action: 'decline' }).expect(200);
    e2e.clock.advance(COLLECT_MS);
    await e2e.collect();
    expect(await poll(sessionId)).toMatchObject({ status: 'failed', hintCode: 'userDeclinedCall', operation: 'sign', channel: 'phone' });
  });

  it('should answer the newest pending phone session of that person, and 404 order_not_found when there is none', async () => {
    expectProblem(await answer({ personalNumber: '198112189876' }), 404, 'order_not_found');
    const older = (await phoneStart('auth', { personalNumber: '198112189876' }).expect(200)).body.sessionId;
    e2e.clock.advance(1_000);
    const newer = (await phoneStart('auth', { personalNumber: '198112189876' }).expect(200)).body.sessionId;
    await answer({ personalNumber: '198112189876', action: 'decline' }).expect(200);
    e2e.clock.advance(COLLECT_MS);
    await e2e.collect();
    expect(await poll(newer)).toMatchObject({ status: 'failed', hintCode: 'userDeclinedCall' });
    expect(await poll(older)).toMatchObject({ status: 'pending', hintCode: 'outstandingTransaction' });
    // An app-channel session of the same person is not a call.
    expect(expectValidationProblem(await answer({ personalNumber: '198112189875' }))).toEqual(['/personalNumber']);
    expect(expectValidationProblem(await answer({ personalNumber: PERSON, action: 'cancel' }))).toEqual(['/action']);
  });

  it('should answer the phone sessions of one person newest first when they start within the same instant', async () => {
    const caller = '197003151235';
    const started: string[] = [];
    for (let i = 0; i < 4; i++) started.push((await phoneStart('auth', { personalNumber: caller }).expect(200)).body.sessionId);
    const orders = () =>
      e2e.app
        .get(DataSource)
        .query<{ id: string; created_at: Date; scanned_at: Date | null }[]>(
          `SELECT s.id, o.created_at, o.scanned_at FROM simulator_orders o JOIN sessions s ON s.order_ref = o.order_ref::text WHERE s.id = ANY ($1::uuid[])`,
          [started],
        );
    // The clock is frozen: the orders share created_at, so only their insertion order tells them apart.
    expect(new Set((await orders()).map((order) => order.created_at.toISOString())).size).toBe(1);

    // Each answer picks up the newest order still waiting; an answered one waits no more. Read from the
    // order book, not from polls, so a background collect cannot blur which order an answer took.
    const answered: string[] = [];
    for (let i = 0; i < started.length; i++) {
      await answer({ personalNumber: caller, action: 'decline' }).expect(200);
      const scanned = (await orders()).filter((order) => order.scanned_at !== null).map((order) => order.id);
      answered.push(...scanned.filter((id) => !answered.includes(id)));
      expect(answered).toHaveLength(i + 1);
    }
    expect(answered).toEqual([...started].reverse());
  });

  it.each([
    ['sign without a text', '/api/v1/sign/simulator/start', { endUserIp: '192.0.2.10' }, '/userVisibleData'],
    [
      'a sign text over 40,000 base64 characters',
      '/api/v1/sign/simulator/start',
      { endUserIp: '192.0.2.10', userVisibleData: 'a'.repeat(30_001) },
      '/userVisibleData',
    ],
    [
      'userNonVisibleData over 200,000 characters',
      '/api/v1/sign/simulator/start',
      { endUserIp: '192.0.2.10', userVisibleData: 'x', userNonVisibleData: 'A'.repeat(200_004) },
      '/userNonVisibleData',
    ],
    [
      'userNonVisibleData that is not base64',
      '/api/v1/sign/simulator/start',
      { endUserIp: '192.0.2.10', userVisibleData: 'x', userNonVisibleData: 'är inte base64' },
      '/userNonVisibleData',
    ],
    [
      'an unknown text format',
      '/api/v1/sign/simulator/start',
      { endUserIp: '192.0.2.10', userVisibleData: 'x', userVisibleDataFormat: 'html' },
      '/userVisibleDataFormat',
    ],
    ['a sign start without endUserIp', '/api/v1/sign/simulator/start', { userVisibleData: 'x' }, '/endUserIp'],
    [
      'a personal number with a wrong check digit',
      '/api/v1/phone/auth/simulator/start',
      { personalNumber: '199001012394', callInitiator: 'RP' },
      '/personalNumber',
    ],
    [
      'a personal number of 10 digits',
      '/api/v1/phone/auth/simulator/start',
      { personalNumber: '9001012393', callInitiator: 'RP' },
      '/personalNumber',
    ],
    ['a missing callInitiator', '/api/v1/phone/auth/simulator/start', { personalNumber: PERSON }, '/callInitiator'],
    [
      'callInitiator rp in the wrong case',
      '/api/v1/phone/auth/simulator/start',
      { personalNumber: PERSON, callInitiator: 'rp' },
      '/callInitiator',
    ],
    [
      'an endUserIp on the phone channel',
      '/api/v1/phone/auth/simulator/start',
      { personalNumber: PERSON, callInitiator: 'RP', endUserIp: '192.0.2.10' },
      '/endUserIp',
    ],
    [
      'a phone auth text over 1,500 characters',
      '/api/v1/phone/auth/simulator/start',
      { personalNumber: PERSON, callInitiator: 'RP', userVisibleData: 'a'.repeat(1_501) },
      '/userVisibleData',
    ],
    [
      'phone sign without a text',
      '/api/v1/phone/sign/simulator/start',
      { personalNumber: PERSON, callInitiator: 'user' },
      '/userVisibleData',
    ],
    [
      'a phone sign text over 40,000 base64 characters',
      '/api/v1/phone/sign/simulator/start',
      { personalNumber: PERSON, callInitiator: 'user', userVisibleData: 'å'.repeat(15_001) },
      '/userVisibleData',
    ],
  ])('should refuse %s with 400 naming the field, starting nothing', async (_name, path, body, pointer) => {
    const before = (await listed({})).length;
    expect(expectValidationProblem(await post(path, body))).toContain(pointer);
    expect(await listed({})).toHaveLength(before);
  });

  it('should take a sign body of the largest size BankID allows, while other routes keep the 64 KiB limit', async () => {
    const hidden = 'A'.repeat(200_000);
    const app = await signStart({ userVisibleData: 'a'.repeat(30_000), userNonVisibleData: hidden }).expect(200);
    expect(app.body).toMatchObject({ operation: 'sign', channel: 'app' });
    await phoneStart('sign', { personalNumber: '200001012384', userVisibleData: 'a'.repeat(30_000), userNonVisibleData: hidden }).expect(
      200,
    );
    expectProblem(
      await post('/api/v1/auth/simulator/start', { endUserIp: '192.0.2.10', metadata: { pad: 'x'.repeat(70_000) } }),
      413,
      'payload_too_large',
    );
  });

  it('should answer 404 unknown_provider for a provider that is not enabled, on every start route', async () => {
    const phone = { personalNumber: PERSON, callInitiator: 'RP', userVisibleData: 'x' };
    expectProblem(await post('/api/v1/sign/nosuch/start', { endUserIp: '192.0.2.10', userVisibleData: 'x' }), 404, 'unknown_provider');
    expectProblem(await post('/api/v1/phone/auth/nosuch/start', phone), 404, 'unknown_provider');
    expectProblem(await post('/api/v1/phone/sign/nosuch/start', phone), 404, 'unknown_provider');
  });

  it('should describe the new routes in the OpenAPI document', async () => {
    const { paths } = (await e2e.http.get('/docs/json').expect(200)).body as { paths: Record<string, { post?: unknown }> };
    for (const path of [
      '/api/v1/sign/{provider}/start',
      '/api/v1/phone/auth/{provider}/start',
      '/api/v1/phone/sign/{provider}/start',
      '/api/v1/simulator/phone',
    ]) {
      expect(paths[path]?.post).toBeDefined();
    }
  });

  it('should need the sessions:write scope and an API key on the new routes', async () => {
    const res = await e2e.http.post('/api/v1/sign/simulator/start').send({ endUserIp: '192.0.2.10', userVisibleData: 'x' });
    expectProblem(res, 401, 'missing_token');
  });

  // The management listing: operation and channel are columns a team can filter on.
  let bearer: string;
  const listed = async (filterModel: object) => {
    bearer ??= `Bearer ${(await e2e.app.get(TokensService).issue({ userId: (await e2e.app.get(UsersService).create({ teamId: e2e.team.id, email: `signing-${Date.now()}@example.com` })).id, teamId: e2e.team.id, clientId: 'test' })).token}`;
    const res = await e2e.http
      .post('/api/v1/sessions')
      .set('authorization', bearer)
      .send({ startRow: 0, endRow: 1_000, filterModel })
      .expect(200);
    return res.body.rows as { sessionId: string; operation: string; channel: string }[];
  };

  it('should list operation and channel, and filter on them', async () => {
    const phoneSign = (await phoneStart('sign', { personalNumber: '200001012384' }).expect(200)).body.sessionId;
    const rows = await listed({
      operation: { filterType: 'text', type: 'equals', filter: 'sign' },
      channel: { filterType: 'text', type: 'equals', filter: 'phone' },
    });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.operation === 'sign' && row.channel === 'phone')).toBe(true);
    expect(rows.map((row) => row.sessionId)).toContain(phoneSign);
    const auth = await listed({ operation: { filterType: 'text', type: 'equals', filter: 'auth' } });
    expect(auth.map((row) => row.sessionId)).not.toContain(phoneSign);
  });

  it('should deliver sign.session.completed and sign.session.failed only to endpoints that subscribed, verified with standardwebhooks', async () => {
    const { secret } = await createEndpoint(e2e.app, e2e.team.id, {
      url: receiver.url(),
      eventTypes: ['sign.session.completed', 'sign.session.failed'],
    });
    const before = receiver.requests.length;
    // A person of this test alone, so the calls answered below are this test's own whatever the others left waiting.
    const caller = '198507091232';
    // An authentication ending is not a sign event: nothing arrives for it.
    const auth = (await phoneStart('auth', { personalNumber: caller }).expect(200)).body.sessionId;
    const signed = (await signStart({ metadata: { orderId: 'S-1' } }).expect(200)).body;
    await e2e.http.post('/api/v1/simulator/scan').send({ autoStartToken: signed.autoStartToken }).expect(200);
    await answer({ personalNumber: caller, action: 'decline' }).expect(200);
    const declined = (await phoneStart('sign', { personalNumber: caller }).expect(200)).body.sessionId;
    await answer({ personalNumber: caller, action: 'decline' }).expect(200);
    e2e.clock.advance(COLLECT_MS + 500);
    await e2e.collect();
    for (const id of [auth, signed.sessionId, declined]) await poll(id);

    const received = await receiver.waitForRequests(before + 2);
    const events = received.slice(before).map(
      (request) =>
        new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as {
          type: string;
          data: Record<string, unknown>;
        },
    );
    expect(events.map((event) => event.type).sort()).toEqual(['sign.session.completed', 'sign.session.failed']);
    const completed = events.find((event) => event.type === 'sign.session.completed')!;
    expect(completed.data).toMatchObject({
      sessionId: signed.sessionId,
      operation: 'sign',
      channel: 'app',
      status: 'complete',
      metadata: { orderId: 'S-1' },
    });
    const failed = events.find((event) => event.type === 'sign.session.failed')!;
    expect(failed.data).toMatchObject({
      sessionId: declined,
      operation: 'sign',
      channel: 'phone',
      status: 'failed',
      hintCode: 'userDeclinedCall',
    });
    expect(received.slice(before).some((request) => request.body.includes(auth))).toBe(false);
  });
});
