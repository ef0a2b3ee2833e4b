import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { runCli } from '../../../src/cli/run-cli.js';
import { DomainException } from '../../../src/common/problem-details/domain.exception.js';
import { ValidationProblemException } from '../../../src/common/problem-details/validation-problem.exception.js';
import { SessionSettlement } from '../../../src/sessions/settlement/session-settlement.js';
import { TokensService } from '../../../src/tokens/tokens.service.js';
import { UsersService } from '../../../src/users/users.service.js';
import { WebhookDeliveriesService } from '../../../src/webhooks/webhook-deliveries.service.js';
import { WebhookDeliveryStore } from '../../../src/webhooks/webhook-delivery.store.js';
import { WebhookDispatcher } from '../../../src/webhooks/webhook-dispatcher.js';
import { WebhookEndpointsService } from '../../../src/webhooks/webhook-endpoints.service.js';
import { WebhookOutbox } from '../../../src/webhooks/webhook-outbox.js';
import { WebhookPayloadPurgeJob } from '../../../src/webhooks/webhook-payload-purge.job.js';
import { TEST_ENCRYPTION_KEY, withEnv } from '../../support/create-test-app.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { freePort } from '../../support/service-process.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { completeSimulatorSession, createEndpoint, deliveriesOf, waitForDelivery, waitUntil } from '../../support/webhooks.js';
import { useE2eApp } from '../../support/e2e.js';
import { tamperedResultToken, VERIFIED_EVIDENCE, verifyResultToken } from '../../support/result-token.js';
import { expectMatchesSchema, expectWebhookMatchesSchema } from '../../support/openapi.js';
import { expectValidationProblem } from '../../support/problem.js';

// Retries after 10 s and 20 s (±20 % jitter): three attempts in all, on a clock the tests move.
const SCHEDULE = { WEBHOOK_RETRY_SCHEDULE: '10s,20s', WEBHOOK_TIMEOUT: '500ms', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
// A first start on the embedded PGlite fallback (initdb and migrations) can take half a minute on a busy machine.
const BOOT_TIMEOUT = 120_000;

describe('Webhooks: delivery, signatures, retries, redelivery, rotation, management', () => {
  const e2e = useE2eApp({ env: SCHEDULE, bootTimeout: BOOT_TIMEOUT });
  let receiver: WebhookReceiver;
  let team: Awaited<ReturnType<typeof createTeamWithKey>>;
  let endpointId: string;
  let secret: string;

  const app = () => e2e.app;
  const dispatcher = () => app().get(WebhookDispatcher);
  const deliveries = () => app().get(WebhookDeliveriesService);
  /** The bearer token of a new member of the team, as the OTP login would issue it. */
  const memberToken = async (teamId: string) => {
    const user = await app()
      .get(UsersService)
      .create({ teamId, email: `member-${randomUUID()}@example.com` });
    return `Bearer ${(await app().get(TokensService).issue({ userId: user.id, teamId, clientId: 'test' })).token}`;
  };
  // The command line beside the running app (on the embedded database it joins through the app's socket).
  const cli = (...argv: string[]) =>
    withEnv(
      { ...e2e.database.env, LOG_LEVEL: 'silent', DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      () => runCli(argv),
    );
  const complete = (options?: Parameters<typeof completeSimulatorSession>[3]) =>
    completeSimulatorSession(app(), e2e.clock, team.key, options);
  const delivered = (sessionId: string) => waitForDelivery(app(), team.team.id, sessionId, (d) => d.status === 'delivered', 'the delivery');
  const verify = (request: { body: string; headers: Record<string, unknown> }, withSecret = secret) =>
    new Webhook(withSecret).verify(request.body, request.headers as Record<string, string>);
  /** Moves the clock past the next retry (schedule delay + jitter) and lets the dispatcher look. */
  const retryAfter = async (seconds: number) => {
    e2e.clock.advance(seconds * 1_200 + 100);
    dispatcher().wake();
    await dispatcher().idle();
  };

  beforeEach(async () => {
    e2e.clock.freeze();
    receiver = await WebhookReceiver.start();
    team = await createTeamWithKey(app(), { plan: 'pro' });
    ({
      endpoint: { id: endpointId },
      secret,
    } = await createEndpoint(app(), team.team.id, { url: receiver.url() }));
  });

  afterEach(() => receiver.close());

  it('should deliver auth.session.completed at once, signed so that standardwebhooks verifies it', async () => {
    const sessionId = await complete({ metadata: { orderId: 'A-1' } });
    const [received] = await receiver.waitForRequests(1);

    expect(verify(received)).toEqual({
      type: 'auth.session.completed',
      timestamp: e2e.clock.now().toISOString(),
      data: {
        sessionId,
        provider: 'simulator',
        environment: 'test',
        operation: 'auth',
        channel: 'app',
        status: 'complete',
        user: { personalNumber: '198507099805', name: 'Tess Testsson', givenName: 'Tess', surname: 'Testsson' },
        device: { ipAddress: '192.0.2.10' },
        completedAt: e2e.clock.now().toISOString(),
        evidence: { bankIdIssueDate: expect.any(String), risk: 'low', verification: VERIFIED_EVIDENCE },
        resultToken: expect.any(String),
        metadata: { orderId: 'A-1' },
      },
    });
    // Signed once at the end: the webhook and every poll carry the same token, and it verifies with the JWKS.
    const { data } = verify(received) as { data: { resultToken: string; user: object } };
    const polled = await e2e.http.post(`/api/v1/auth/${sessionId}/poll`).set('x-api-key', team.key).expect(200);
    expect(polled.body.resultToken).toBe(data.resultToken);
    expect(await verifyResultToken(e2e.http, data.resultToken, team.team.id)).toMatchObject({
      sub: sessionId,
      status: 'complete',
      user: data.user,
    });
    await expect(verifyResultToken(e2e.http, tamperedResultToken(data.resultToken, { status: 'failed' }), team.team.id)).rejects.toThrow();
    expect(received.headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': expect.stringMatching(/^msg_[0-9A-Za-z]{27}$/),
      'webhook-timestamp': String(Math.floor(e2e.clock.nowMs() / 1000)),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    });

    const delivery = await delivered(sessionId);
    expect(delivery).toMatchObject({
      messageId: received.headers['webhook-id'],
      endpointId,
      eventType: 'auth.session.completed',
      attemptCount: 1,
      lastStatusCode: 200,
      attempts: [
        {
          number: 1,
          attemptedAt: e2e.clock.now().toISOString(),
          trigger: 'scheduled',
          outcome: 'success',
          statusCode: 200,
          latencyMs: expect.any(Number),
          responseExcerpt: 'ok',
        },
      ],
    });
    expect(delivery).not.toHaveProperty('nextAttemptAt');
    expect(delivery.attempts[0]).not.toHaveProperty('error');
    expect(receiver.requests).toHaveLength(1);
  });

  it("should be verified by the example receiver in examples/ (the README's tour)", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['examples/webhook-receiver.mjs'], {
      env: { PATH: process.env.PATH ?? '', WEBHOOK_SECRET: secret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let output = '';
      const printed = (pattern: RegExp) => waitUntil(async () => pattern.test(output), `the receiver to print ${pattern}`);
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await printed(/^listening on \d+$/m);
      await app()
        .get(WebhookEndpointsService)
        .update(team.team.id, endpointId, { url: `http://127.0.0.1:${port}/webhooks` });
      const sessionId = await complete();
      await printed(new RegExp(`^verified auth\\.session\\.completed msg_\\w+ \\{"sessionId":"${sessionId}"`, 'm'));
      expect((await delivered(sessionId)).lastStatusCode).toBe(204);
    } finally {
      child.kill();
    }
  });

  it('should deliver auth.session.failed for a cancelled session', async () => {
    const started = await e2e.http
      .post('/api/v1/auth/simulator/start')
      .set('x-api-key', team.key)
      .send({ endUserIp: '192.0.2.10' })
      .expect(200);
    await e2e.http.post(`/api/v1/auth/${started.body.sessionId}/cancel`).set('x-api-key', team.key).expect(200);
    const [received] = await receiver.waitForRequests(1);
    expect(verify(received)).toEqual({
      type: 'auth.session.failed',
      timestamp: e2e.clock.now().toISOString(),
      data: {
        sessionId: started.body.sessionId,
        provider: 'simulator',
        environment: 'test',
        operation: 'auth',
        channel: 'app',
        status: 'failed',
        hintCode: 'cancelled',
        userMessage: { code: 'RFA3', sv: 'Åtgärden avbruten. Försök igen.', en: 'Action cancelled. Please try again.' },
        completedAt: e2e.clock.now().toISOString(),
        resultToken: expect.any(String),
      },
    });
    const { data } = verify(received) as { data: { resultToken: string } };
    expect(await verifyResultToken(e2e.http, data.resultToken, team.team.id)).toMatchObject({
      sub: started.body.sessionId,
      status: 'failed',
      hintCode: 'cancelled',
    });
  });

  it("should end a whole collector batch in one go: one message per ended session, each to its own team's endpoint", async () => {
    const http = e2e.http;
    const other = await createTeamWithKey(app(), { plan: 'pro' });
    const { secret: otherSecret } = await createEndpoint(app(), other.team.id, { url: receiver.url('/other') });
    const start = (key: string) =>
      http.post('/api/v1/auth/simulator/start').set('x-api-key', key).send({ endUserIp: '192.0.2.10' }).expect(200);
    const [approved, declined, waiting, otherApproved] = await Promise.all([
      start(team.key),
      start(team.key),
      start(team.key),
      start(other.key),
    ]);
    const scan = (token: string, action: 'approve' | 'cancel') =>
      http.post('/api/v1/simulator/scan').send({ autoStartToken: token, action }).expect(200);
    await Promise.all([
      scan(approved.body.autoStartToken, 'approve'),
      scan(declined.body.autoStartToken, 'cancel'),
      scan(otherApproved.body.autoStartToken, 'approve'),
    ]);

    e2e.clock.advance(2_000);
    await app().get(SessionSettlement).collectDue();
    const received = await receiver.waitForRequests(3);
    await new Promise((resolve) => setTimeout(resolve, 200)); // nothing more comes
    expect(receiver.requests).toHaveLength(3);

    const byPath = (path: string) => received.filter((r) => r.path === path);
    const ours = byPath('/hooks/eid').map((r) => verify(r) as { type: string; data: { sessionId: string; hintCode?: string } });
    expect(ours.map((m) => [m.data.sessionId, m.type, m.data.hintCode]).sort()).toEqual(
      [
        [approved.body.sessionId, 'auth.session.completed', undefined],
        [declined.body.sessionId, 'auth.session.failed', 'userCancel'],
      ].sort(),
    );
    const [theirs] = byPath('/other');
    expect((verify(theirs, otherSecret) as { data: { sessionId: string } }).data.sessionId).toBe(otherApproved.body.sessionId);
    expect((await http.post(`/api/v1/auth/${waiting.body.sessionId}/poll`).set('x-api-key', team.key).expect(200)).body.status).toBe(
      'pending',
    );
  });

  it('should record attempts that finish together in fewer statements, and fail only the one whose message vanished', async () => {
    const dataSource = app().get(DataSource);
    // A store of its own: the app's dispatcher records through the app's store, never through this one.
    const store = new WebhookDeliveryStore(dataSource);
    const due = new Date(e2e.clock.nowMs() + 3_600_000);
    const sessionIds = await Promise.all(
      Array.from(
        { length: 7 },
        async () =>
          (await e2e.http.post('/api/v1/auth/simulator/start').set('x-api-key', team.key).send({ endUserIp: '192.0.2.10' }).expect(200))
            .body.sessionId as string,
      ),
    );
    // Ended here without their own messages, so no later collect ends them (and writes messages) again.
    await dataSource.query(
      `UPDATE sessions SET status = 'failed', hint_code = 'cancelled', completed_at = now() WHERE id = ANY ($1::uuid[])`,
      [sessionIds],
    );
    const events = sessionIds.map((sessionId) => ({
      teamId: team.team.id,
      environment: 'test' as const,
      sessionId,
      type: 'auth.session.failed' as const,
      occurredAt: due,
      data: { sessionId },
    }));
    await dataSource.transaction((manager) => app().get(WebhookOutbox).enqueue(manager, events, due));
    // Claimed by hand (exactly these messages, due an hour from now, which no dispatcher takes).
    const leaseToken = randomUUID();
    const [claimed]: [{ id: string; message_id: string; endpoint_id: string; event_at: Date; attempt_count: number }[]] =
      await dataSource.query(
        `UPDATE webhook_deliveries SET lease_token = $1, lease_expires_at = $2, attempt_count = attempt_count + 1
        WHERE session_id = ANY ($3::uuid[]) RETURNING id, message_id, endpoint_id, event_at, attempt_count`,
        [leaseToken, due, sessionIds],
      );
    const claims = claimed.map((row) => ({
      id: row.id,
      messageId: row.message_id,
      teamId: team.team.id,
      endpointId: row.endpoint_id,
      eventAt: row.event_at,
      attemptCount: row.attempt_count,
      trigger: 'scheduled' as const,
      leaseToken,
      payloadEnc: Buffer.alloc(0),
      url: receiver.url(),
      secretEnc: Buffer.alloc(0),
      previousSecretEnc: null,
      previousSecretExpiresAt: null,
    }));
    const ok = { outcome: 'success' as const, statusCode: 200, latencyMs: 3, error: null, responseExcerpt: 'ok' };

    const statements: string[] = [];
    const { logger } = dataSource;
    const logQuery = logger.logQuery.bind(logger);
    // Counts this store's statements (a record starts WITH input) at TypeORM's logger, which every statement passes.
    logger.logQuery = (sql, parameters, runner) => (
      sql.startsWith('WITH input') && statements.push(sql),
      logQuery(sql, parameters, runner)
    );
    try {
      const recorded = await Promise.all(claims.slice(0, 4).map((claim) => store.record(claim, ok, due, null)));
      expect(recorded.map((r) => r.status)).toEqual(Array(4).fill('delivered'));
    } finally {
      logger.logQuery = logQuery;
    }
    // The first alone, the three that came while it was on its way together.
    expect(statements).toHaveLength(2);

    // The leader goes alone; the other two share a statement that fails on the vanished one, then go one by one.
    const [leader, kept, vanished] = claims.slice(4);
    await dataSource.query('DELETE FROM webhook_deliveries WHERE id = $1', [vanished.id]);
    const results = await Promise.allSettled([leader, kept, vanished].map((claim) => store.record(claim, ok, due, null)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    const rows: { status: string; attempts: number }[] = await dataSource.query(
      `SELECT d.status, (SELECT count(*)::int FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attempts FROM webhook_deliveries d WHERE d.id = ANY ($1::uuid[])`,
      [claims.map((c) => c.id)],
    );
    expect(rows).toEqual(Array(6).fill({ status: 'delivered', attempts: 1 }));
  });

  it('should retry after a 500 and a timeout, with the same webhook-id, until it succeeds', async () => {
    receiver.answerNext({ status: 500, body: 'database down' }, { hang: true });
    const sessionId = await complete();
    await receiver.waitForRequests(1);
    await waitForDelivery(app(), team.team.id, sessionId, (d) => d.attempts.length === 1, 'the first attempt');

    await retryAfter(10);
    await receiver.waitForRequests(2);
    await waitForDelivery(app(), team.team.id, sessionId, (d) => d.attempts.length === 2, 'the second attempt');
    await retryAfter(20);

    const delivery = await delivered(sessionId);
    expect(delivery.attempts.map((a) => [a.outcome, a.statusCode, a.error, a.responseExcerpt])).toEqual([
      ['http_error', 500, 'HTTP 500', 'database down'],
      ['timeout', undefined, 'Timed out after 500 ms', undefined],
      ['success', 200, undefined, 'ok'],
    ]);
    expect(delivery.attemptCount).toBe(3);
    // Every attempt carries the message's id, a fresh timestamp, and a signature that verifies.
    expect(new Set(receiver.messageIds())).toEqual(new Set([delivery.messageId]));
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-timestamp'])).size).toBe(3);
    expect(verify(receiver.requests[2])).toMatchObject({ type: 'auth.session.completed' });
  });

  it('should mark the message failed after the schedule when the receiver never succeeds', async () => {
    receiver.answerByDefault({ status: 503 });
    const sessionId = await complete();
    await waitForDelivery(app(), team.team.id, sessionId, (d) => d.attempts.length === 1, 'the first attempt');
    await retryAfter(10);
    await waitForDelivery(app(), team.team.id, sessionId, (d) => d.attempts.length === 2, 'the second attempt');
    await retryAfter(20);

    const failed = await waitForDelivery(app(), team.team.id, sessionId, (d) => d.status === 'failed', 'the failure');
    expect(failed).toMatchObject({ attemptCount: 3, lastStatusCode: 503, lastError: 'HTTP 503' });
    expect(failed).not.toHaveProperty('nextAttemptAt');
    // Nothing more is tried, however long we wait.
    await retryAfter(3_600);
    expect(receiver.requests).toHaveLength(3);
    const page = await deliveries().list(team.team.id, {
      startRow: 0,
      endRow: 10,
      filterModel: { status: { filterType: 'set', values: ['failed'] } },
    });
    expect(page).toMatchObject({ success: true, lastrow: 1, rows: [{ id: failed.id }] });
  });

  it('should redeliver a delivered and a failed message with the same webhook-id, once each', async () => {
    const sessionId = await complete();
    const first = await delivered(sessionId);

    await deliveries().redeliver(team.team.id, first.id);
    await receiver.waitForRequests(2);
    const again = await waitForDelivery(
      app(),
      team.team.id,
      sessionId,
      (d) => d.attempts.length === 2 && d.status === 'delivered',
      'the redelivery',
    );
    expect(again.attempts.map((a) => a.trigger)).toEqual(['scheduled', 'manual']);
    expect(receiver.messageIds()).toEqual([first.messageId, first.messageId]);
    expect(verify(receiver.requests[1])).toMatchObject({ data: { sessionId } });

    // A redelivery that fails is not retried: it was one manual try.
    receiver.answerByDefault({ status: 500 });
    await deliveries().redeliver(team.team.id, first.id);
    const failed = await waitForDelivery(app(), team.team.id, sessionId, (d) => d.attempts.length === 3, 'the failed redelivery');
    expect(failed.status).toBe('failed');
    expect(failed).not.toHaveProperty('nextAttemptAt');
    await retryAfter(3_600);
    expect(receiver.requests).toHaveLength(3);
  });

  it('should refuse to redeliver a delivery of another team, an erased payload, or to a disabled endpoint', async () => {
    const sessionId = await complete();
    const delivery = await delivered(sessionId);
    const other = await createTeamWithKey(app(), { plan: 'pro' });
    const codeOf = (promise: Promise<unknown>) =>
      promise.then(
        () => 'resolved',
        (error: DomainException) => error.code,
      );

    expect(await codeOf(deliveries().redeliver(other.team.id, delivery.id))).toBe('not_found');
    expect(await codeOf(deliveries().redeliver(team.team.id, 'not-a-uuid'))).toBe('not_found');

    await app().get(WebhookEndpointsService).update(team.team.id, endpointId, { enabled: false });
    expect(await codeOf(deliveries().redeliver(team.team.id, delivery.id))).toBe('delivery_not_redeliverable');
    await app().get(WebhookEndpointsService).update(team.team.id, endpointId, { enabled: true });

    // docs/webhooks.md: the payload holds personal data, erased after the retention (1 h by default).
    e2e.clock.advance(3_600_000);
    expect(await app().get(WebhookPayloadPurgeJob).purgeDeliveredPayloads()).toBeGreaterThanOrEqual(1);
    expect(await codeOf(deliveries().redeliver(team.team.id, delivery.id))).toBe('delivery_not_redeliverable');
    const [purged] = (
      await deliveries().list(team.team.id, {
        startRow: 0,
        endRow: 1,
        filterModel: { id: { filterType: 'text', type: 'equals', filter: delivery.id } },
      })
    ).rows;
    expect(purged).toMatchObject({ status: 'delivered', payloadPurgedAt: e2e.clock.now().toISOString(), attemptCount: 1 });
  });

  it('should sign with both the old and the new secret for 24 hours after a rotation', async () => {
    const rotated = await app().get(WebhookEndpointsService).rotateSecret(team.team.id, endpointId);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    expect(rotated.endpoint.previousSecretExpiresAt).toEqual(new Date(e2e.clock.nowMs() + 86_400_000));

    await complete();
    const [during] = await receiver.waitForRequests(1);
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(during, secret)).toMatchObject({ type: 'auth.session.completed' });
    expect(verify(during, rotated.secret)).toMatchObject({ type: 'auth.session.completed' });

    e2e.clock.advance(86_400_000);
    await complete();
    const [, after] = await receiver.waitForRequests(2);
    // A day later the receiver's ±5 min window would refuse our moved clock, so the signature is recomputed.
    const expected = new Webhook(rotated.secret).sign(
      String(after.headers['webhook-id']),
      new Date(Number(after.headers['webhook-timestamp']) * 1000),
      after.body,
    );
    expect(after.headers['webhook-signature']).toBe(expected);
  });

  it('should disable an endpoint that has failed for 5 days, show it, and send it nothing more until re-enabled', async () => {
    receiver.answerByDefault({ status: 500 });
    const first = await complete();
    await waitForDelivery(app(), team.team.id, first, (d) => d.attempts.length === 1, 'the first failure');
    const endpoints = app().get(WebhookEndpointsService);
    expect(await endpoints.get(team.team.id, endpointId)).toMatchObject({ enabled: true, failingSince: e2e.clock.now() });

    e2e.clock.advance(5 * 86_400_000);
    dispatcher().wake();
    await waitForDelivery(app(), team.team.id, first, (d) => d.attempts.length === 2, 'the retry five days later');
    expect(await endpoints.get(team.team.id, endpointId)).toMatchObject({
      enabled: false,
      disabledReason: 'failing',
      disabledAt: e2e.clock.now(),
    });
    const metrics = await e2e.http.get('/metrics').expect(200);
    expect(metrics.text).toMatch(/^webhook_endpoints_disabled_total\{reason="failing"\} [1-9]/m);

    // A disabled endpoint gets no new messages, and its pending one waits.
    const second = await complete();
    await retryAfter(20);
    expect(receiver.requests).toHaveLength(2);
    expect(
      (
        await deliveries().list(team.team.id, {
          startRow: 0,
          endRow: 10,
          filterModel: { sessionId: { filterType: 'text', type: 'equals', filter: second } },
        })
      ).lastrow,
    ).toBe(0);

    receiver.answerByDefault({ status: 200 });
    await endpoints.update(team.team.id, endpointId, { enabled: true });
    dispatcher().wake();
    await waitForDelivery(app(), team.team.id, first, (d) => d.status === 'delivered', 'the delivery after re-enabling');
    expect(await endpoints.get(team.team.id, endpointId)).toMatchObject({ enabled: true, failingSince: null, disabledReason: null });
  });

  it('should disable an endpoint at once when it answers 410 Gone', async () => {
    receiver.answerNext({ status: 410 });
    await complete();
    await waitUntil(
      async () => !(await app().get(WebhookEndpointsService).get(team.team.id, endpointId)).enabled,
      'the endpoint to be disabled',
    );
    expect(await app().get(WebhookEndpointsService).get(team.team.id, endpointId)).toMatchObject({ disabledReason: 'gone' });
  });

  it('should send only the event types and environment an endpoint asked for', async () => {
    await app()
      .get(WebhookEndpointsService)
      .update(team.team.id, endpointId, { eventTypes: ['auth.session.failed'] });
    const live = await createEndpoint(app(), team.team.id, { url: receiver.url('/live'), environment: 'live' });
    await complete();
    await complete({ action: 'cancel' });
    const [received] = await receiver.waitForRequests(1);
    await dispatcher().idle();
    expect(receiver.requests).toHaveLength(1);
    expect(verify(received)).toMatchObject({ type: 'auth.session.failed', data: { hintCode: 'userCancel' } });
    expect(live.endpoint.environment).toBe('live');
  });

  it('should refuse endpoints to a team without pro, and send nothing once a team has left the pro plan', async () => {
    const free = await createTeamWithKey(app(), { plan: 'free' });
    await expect(createEndpoint(app(), free.team.id, { url: receiver.url() })).rejects.toMatchObject({
      code: 'feature_required',
      options: { extensions: { features: ['pro'] } },
    });

    await app().get(DataSource).query(`UPDATE teams SET plan = 'free' WHERE id = $1`, [team.team.id]);
    const sessionId = await complete();
    await dispatcher().idle();
    expect(await deliveriesOf(app(), team.team.id, sessionId)).toEqual([]);
    expect(receiver.requests).toHaveLength(0);
  });

  it('should list the delivery log in the tabular model: filters, sorting, pages and lastrow', async () => {
    receiver.answerNext({ status: 500 });
    const sessions = [await complete(), await complete(), await complete()];
    await waitUntil(
      async () =>
        (await deliveries().list(team.team.id, { startRow: 0, endRow: 10 })).rows.every((r) => r.attempts.length > 0) || undefined,
      'three attempts',
    );

    const all = await deliveries().list(team.team.id, { startRow: 0, endRow: 10, sortModel: [{ colId: 'lastStatusCode', sort: 'desc' }] });
    expect(all.lastrow).toBe(3);
    expect(all.rows.map((r) => r.lastStatusCode)).toEqual([500, 200, 200]);
    expect(new Set(all.rows.map((r) => r.sessionId))).toEqual(new Set(sessions));

    const firstPage = await deliveries().list(team.team.id, { startRow: 0, endRow: 2 });
    expect(firstPage).toMatchObject({ success: true, lastrow: -1 });
    expect(firstPage.rows).toHaveLength(2);
    const secondPage = await deliveries().list(team.team.id, { startRow: 2, endRow: 4 });
    expect(secondPage).toMatchObject({ lastrow: 3, rows: [{}] });
    expect(await deliveries().list(team.team.id, { startRow: 10, endRow: 20 })).toEqual({ success: true, rows: [], lastrow: 3 });

    const filtered = await deliveries().list(team.team.id, {
      startRow: 0,
      endRow: 10,
      filterModel: {
        lastStatusCode: { filterType: 'number', type: 'greaterThan', filter: 299 },
        url: { filterType: 'text', type: 'contains', filter: '/HOOKS/' },
        createdAt: {
          filterType: 'date',
          type: 'inRange',
          dateFrom: e2e.clock.now().toISOString().slice(0, 10),
          dateTo: e2e.clock.now().toISOString().slice(0, 10),
        },
      },
    });
    expect(filtered.rows.map((r) => r.lastStatusCode)).toEqual([500]);

    // Another team sees none of it.
    const other = await createTeamWithKey(app(), { plan: 'pro' });
    expect(await deliveries().list(other.team.id, { startRow: 0, endRow: 10 })).toEqual({ success: true, rows: [], lastrow: 0 });
    await expect(
      deliveries().list(team.team.id, {
        startRow: 0,
        endRow: 10,
        filterModel: { team_id: { filterType: 'text', type: 'equals', filter: other.team.id } },
      }),
    ).rejects.toBeInstanceOf(ValidationProblemException);
  });

  it('should count attempts, latency and the queue in /metrics', async () => {
    await delivered(await complete());
    const metrics = (
      await e2e.http
        .get('/metrics')
        .expect(200)
        .expect('content-type', /^text\/plain/)
    ).text;
    expect(metrics).toMatch(/^webhook_attempts_total\{outcome="success"\} [1-9]/m);
    expect(metrics).toMatch(/^webhook_attempt_duration_seconds_count\{outcome="success"\} [1-9]/m);
    expect(metrics).toMatch(/^webhook_delivery_latency_seconds_count [1-9]/m);
    expect(metrics).toMatch(/^webhook_queue_depth\{state="due"\} \d+/m);
    expect(metrics).toMatch(/^webhook_oldest_due_age_seconds \d+/m);
    expect(metrics).toMatch(/^process_cpu_seconds_total /m);
  });

  it("should update and delete a team's own endpoints only; a deleted endpoint takes its pending messages with it", async () => {
    const endpoints = app().get(WebhookEndpointsService);
    const updated = await endpoints.update(team.team.id, endpointId, {
      url: receiver.url('/v2'),
      description: 'orders',
      eventTypes: ['auth.session.failed', 'auth.session.completed'],
    });
    expect(updated).toMatchObject({
      url: receiver.url('/v2'),
      description: 'orders',
      eventTypes: ['auth.session.completed', 'auth.session.failed'],
    });
    expect((await endpoints.update(team.team.id, endpointId, { description: null })).description).toBeNull();
    expect(await endpoints.list(team.team.id)).toEqual([expect.objectContaining({ id: endpointId, url: receiver.url('/v2') })]);

    const other = await createTeamWithKey(app(), { plan: 'pro' });
    for (const attempt of [
      () => endpoints.get(other.team.id, endpointId),
      () => endpoints.update(other.team.id, endpointId, { enabled: false }),
      () => endpoints.rotateSecret(other.team.id, endpointId),
      () => endpoints.remove(other.team.id, endpointId),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ code: 'not_found' });
    }

    receiver.answerByDefault({ status: 500 });
    const sessionId = await complete();
    await waitForDelivery(app(), team.team.id, sessionId, (d) => d.attempts.length === 1, 'the first attempt');
    await endpoints.remove(team.team.id, endpointId);
    expect(await endpoints.list(team.team.id)).toEqual([]);
    expect(await deliveriesOf(app(), team.team.id, sessionId)).toEqual([]);
    await retryAfter(10);
    expect(receiver.requests).toHaveLength(1);
  });

  it('should manage endpoints and the delivery log through the management API with a team member token', async () => {
    const http = e2e.http;
    const bearer = await memberToken(team.team.id);
    const api = <T extends request.Test>(call: T) => call.set('authorization', bearer);

    const created = await api(http.post('/api/v1/webhook-endpoints'))
      .send({ url: receiver.url('/api'), eventTypes: ['auth.session.completed'], description: 'via the API' })
      .expect(201);
    expectMatchesSchema(created, 'POST /api/v1/webhook-endpoints');
    expect(created.body).toMatchObject({
      url: receiver.url('/api'),
      eventTypes: ['auth.session.completed'],
      environment: 'test',
      enabled: true,
      secret: expect.stringMatching(/^whsec_/),
    });
    const listed = await api(http.get('/api/v1/webhook-endpoints')).expect(200);
    expectMatchesSchema(listed, 'GET /api/v1/webhook-endpoints');
    expect(listed.body.data.map((e: { id: string }) => e.id).sort()).toEqual([endpointId, created.body.id].sort());
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    // Only the new endpoint receives from here on.
    expect(
      (
        await api(http.patch(`/api/v1/webhook-endpoints/${endpointId}`))
          .send({ enabled: false })
          .expect(200)
          .expect((res) => expectMatchesSchema(res, 'PATCH /api/v1/webhook-endpoints/{id}'))
      ).body,
    ).toMatchObject({ enabled: false, disabledReason: 'manual' });
    expect((await api(http.post('/api/v1/webhook-endpoints')).send({ url: 'ftp://rp.example/' }).expect(400)).body.code).toBe(
      'invalid_webhook_url',
    );
    expect(
      (
        await api(http.post('/api/v1/webhook-endpoints'))
          .send({ url: receiver.url(), eventTypes: ['auth.session.started'] })
          .expect(400)
      ).body.errors[0].pointer,
    ).toBe('/eventTypes');
    const rotated = await api(http.post(`/api/v1/webhook-endpoints/${created.body.id}/rotate-secret`)).expect(200);
    expectMatchesSchema(rotated, 'POST /api/v1/webhook-endpoints/{id}/rotate-secret');
    expect(rotated.body).toMatchObject({
      id: created.body.id,
      secret: expect.stringMatching(/^whsec_/),
      previousSecretExpiresAt: expect.any(String),
    });

    const sessionId = await complete();
    const [received] = await receiver.waitForRequests(1);
    expect(received.path).toBe('/api');
    expect(verify(received, rotated.body.secret)).toMatchObject({ data: { sessionId } });
    expectWebhookMatchesSchema(JSON.parse(received.body) as { type: string });
    await delivered(sessionId);
    const page = await api(http.post('/api/v1/webhook-deliveries'))
      .send({ startRow: 0, endRow: 10, filterModel: { sessionId: { filterType: 'text', type: 'equals', filter: sessionId } } })
      .expect(200);
    expectMatchesSchema(page, 'POST /api/v1/webhook-deliveries');
    expect(page.body).toMatchObject({
      success: true,
      lastrow: 1,
      rows: [
        { sessionId, status: 'delivered', endpointId: created.body.id, attempts: [{ number: 1, outcome: 'success', statusCode: 200 }] },
      ],
    });
    const unknownColumn = await api(http.post('/api/v1/webhook-deliveries'))
      .send({ startRow: 0, endRow: 10, sortModel: [{ colId: 'payload', sort: 'asc' }] })
      .expect(400);
    expectMatchesSchema(unknownColumn, 'POST /api/v1/webhook-deliveries');
    expectValidationProblem(unknownColumn);
    expect(unknownColumn.body.errors).toEqual([{ pointer: '/sortModel/0/colId', detail: expect.stringMatching(/unknown column/) }]);

    const again = await api(http.post(`/api/v1/webhook-deliveries/${page.body.rows[0].id}/redeliver`)).expect(200);
    expectMatchesSchema(again, 'POST /api/v1/webhook-deliveries/{id}/redeliver');
    expect(again.body).toMatchObject({ id: page.body.rows[0].id, messageId: received.headers['webhook-id'] });
    await receiver.waitForRequests(2);
    expect((await api(http.post(`/api/v1/webhook-deliveries/${endpointId}/redeliver`)).expect(404)).body.code).toBe('not_found');

    expectMatchesSchema(
      await api(http.delete(`/api/v1/webhook-endpoints/${created.body.id}`)).expect(204),
      'DELETE /api/v1/webhook-endpoints/{id}',
    );
    const deletedAgain = await api(http.delete(`/api/v1/webhook-endpoints/${created.body.id}`)).expect(404);
    expectMatchesSchema(deletedAgain, 'DELETE /api/v1/webhook-endpoints/{id}');
    expect(deletedAgain.body.code).toBe('not_found');

    const free = await createTeamWithKey(app(), { plan: 'free' });
    const refused = await http
      .get('/api/v1/webhook-endpoints')
      .set('authorization', await memberToken(free.team.id))
      .expect(403);
    expect(refused.body).toMatchObject({ code: 'feature_required', features: ['pro'] });
  });

  it('should answer the management routes 403 endpoint_not_available to an API key', async () => {
    const http = e2e.http;
    const id = endpointId;
    const calls = [
      http.get('/api/v1/webhook-endpoints'),
      http.post('/api/v1/webhook-endpoints').send({ url: 'https://example.com/' }),
      http.patch(`/api/v1/webhook-endpoints/${id}`).send({ enabled: false }),
      http.delete(`/api/v1/webhook-endpoints/${id}`),
      http.post(`/api/v1/webhook-endpoints/${id}/rotate-secret`),
      http.post('/api/v1/webhook-deliveries').send({ startRow: 0, endRow: 10 }),
      http.post(`/api/v1/webhook-deliveries/${id}/redeliver`),
    ];
    for (const call of calls) {
      const res = await call.set('x-api-key', team.key).expect(403);
      expect(res.body).toMatchObject({ code: 'endpoint_not_available', status: 403 });
    }
    expect((await http.get('/api/v1/webhook-endpoints').expect(401)).body.code).toBe('missing_token');
    expect(await app().get(WebhookEndpointsService).get(team.team.id, id)).toMatchObject({ enabled: true });
  });

  it('should create, list and rotate an endpoint on the command line, showing the secret only when it is made', async () => {
    const team = await cli('teams', 'create', '--name', 'Acme', '--plan', 'pro', '--subscription-until', '2099-01-01T00:00:00Z');
    const teamId = team.output.id as string;

    const created = await cli(
      'webhooks',
      'create',
      '--team',
      teamId,
      '--url',
      'http://127.0.0.1:9/hook',
      '--events',
      'auth.session.completed',
      '--description',
      'orders',
    );
    expect(created).toMatchObject({
      exitCode: 0,
      output: {
        url: 'http://127.0.0.1:9/hook',
        environment: 'test',
        eventTypes: ['auth.session.completed'],
        description: 'orders',
        enabled: true,
        secret: expect.stringMatching(/^whsec_/),
      },
    });

    const listed = await cli('webhooks', 'list', '--team', teamId);
    expect(listed.output).toEqual([expect.objectContaining({ id: created.output.id, url: 'http://127.0.0.1:9/hook' })]);
    expect(JSON.stringify(listed.output)).not.toMatch(/whsec_|secret_?enc/i);

    const rotated = await cli('webhooks', 'rotate-secret', '--id', created.output.id as string);
    expect(rotated.output).toMatchObject({
      id: created.output.id,
      secret: expect.stringMatching(/^whsec_/),
      previousSecretExpiresAt: expect.any(Date),
    });
    expect(rotated.output.secret).not.toBe(created.output.secret);
  });

  it.each([
    [['webhooks', 'create', '--url', 'https://example.com/'], 2, 'usage', /required option '--team <id>' not specified/],
    [
      [
        'webhooks',
        'create',
        '--team',
        '00000000-0000-4000-8000-000000000000',
        '--url',
        'https://example.com/',
        '--events',
        'auth.session.started',
      ],
      2,
      'usage',
      /unknown auth\.session\.started/,
    ],
    [['webhooks', 'rotate-secret', '--id', '00000000-0000-4000-8000-000000000000'], 1, 'not_found', /No webhook endpoint/],
  ])('should refuse the command %j', async (argv, exitCode, code, message) => {
    expect(await cli(...argv)).toMatchObject({ exitCode, output: { error: { code, message: expect.stringMatching(message) } } });
  });

  it('should refuse on the command line a team without the pro feature, and a URL that is not http(s)', async () => {
    const free = await cli('teams', 'create', '--name', 'Free', '--subscription-until', '2099-01-01T00:00:00Z');
    expect((await cli('webhooks', 'create', '--team', free.output.id as string, '--url', 'https://example.com/')).output).toEqual({
      error: { code: 'feature_required', message: "The team's plan lacks pro." },
    });
    const pro = await cli('teams', 'create', '--name', 'Pro', '--plan', 'max');
    for (const url of ['ftp://example.com/', 'not a url', 'https://user:pass@example.com/']) {
      expect((await cli('webhooks', 'create', '--team', pro.output.id as string, '--url', url)).output).toMatchObject({
        error: { code: 'invalid_webhook_url' },
      });
    }
  });
});
