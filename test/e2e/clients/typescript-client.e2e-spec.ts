import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { inspect } from 'node:util';
import { EidGateway } from '../../../clients/typescript/src/client.js';
import { EidGatewayError } from '../../../clients/typescript/src/errors.js';
import { VERSION } from '../../../clients/typescript/src/version.js';
import { verifyWebhook } from '../../../clients/typescript/src/webhooks.js';
import { TokensService } from '../../../src/tokens/tokens.service.js';
import { UsersService } from '../../../src/users/users.service.js';
import { decodeQrPng } from '../../support/decode-qr.js';
import { useE2eApp } from '../../support/e2e.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { tamperedResultToken } from '../../support/result-token.js';
import { freePort } from '../../support/service-process.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { waitUntil } from '../../support/webhooks.js';

// docs/clients.md: the TypeScript client against the running service on a real port, with the simulator.
// The clock runs in real time: the simulator's app steps, the collector and the rate limit's window all move.
describe('The TypeScript client (clients/typescript) against the running service', () => {
  let port: number;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    port = await freePort();
    receiver = await WebhookReceiver.start();
  });
  const e2e = useE2eApp({
    // PUBLIC_BASE_URL is the address the client calls, so result tokens' issuer is the client's baseUrl.
    env: () => ({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_SCHEDULE: '1s' }),
    listen: true,
    listenPort: () => port,
    withKey: { plan: 'pro' },
    bootTimeout: 120_000,
  });
  afterAll(() => receiver.close());

  /** Every request the clients send, and the answer's status: the real fetch, observed. */
  const seen: { url: string; status?: number; headers: Headers }[] = [];
  const observedFetch: typeof fetch = async (input, init) => {
    const call = {
      url: input instanceof Request ? input.url : input.toString(),
      headers: new Headers(init?.headers),
    } as (typeof seen)[number];
    seen.push(call);
    const answer = await fetch(input, init);
    call.status = answer.status;
    return answer;
  };

  const memberToken = async (teamId: string) => {
    const user = await e2e.app.get(UsersService).create({ teamId, email: `member-${randomUUID()}@example.com` });
    return (await e2e.app.get(TokensService).issue({ userId: user.id, teamId, clientId: 'test' })).token;
  };
  const clientFor = async (apiKey: string, teamId: string, options: Partial<ConstructorParameters<typeof EidGateway>[0]> = {}) =>
    new EidGateway({
      apiKey,
      environment: 'test',
      baseUrl: e2e.baseUrl,
      accessToken: await memberToken(teamId),
      fetch: observedFetch,
      ...options,
    });
  /** The end user's e-ID app (the simulator's), scanning the current frame and approving. */
  const scan = async (qrData: string) =>
    e2e.http
      .post('/api/v1/simulator/scan')
      .send({ qrData, personalNumber: '199001011239', givenName: 'Tess', surname: 'Testsson' })
      .expect(200);

  it('should start a session, show its QR as data, PNG and SVG, wait for the result with progress, and verify the result token', async () => {
    const gateway = await clientFor(e2e.key, e2e.team.id);
    const started = await gateway.sessions.startAuth('simulator', { endUserIp: '192.0.2.10', metadata: { orderId: 'A-1' } });
    expect(started).toMatchObject({ provider: 'simulator', status: 'pending', qrStartToken: expect.any(String) });

    const frame = await gateway.sessions.qr(started.sessionId);
    expect(frame).toMatchObject({ sessionId: started.sessionId, status: 'pending', qrData: expect.stringMatching(/^bankid\./) });
    const png = await gateway.sessions.qrPng(started.sessionId, { size: 300 });
    expect(decodeQrPng(Buffer.from(png))).toMatch(new RegExp(`^bankid\\.${started.qrStartToken}\\.\\d+\\.[0-9a-f]{64}$`));
    const svg = await gateway.sessions.qrSvg(started.sessionId);
    expect(svg).toMatch(/<svg[^>]*>/);

    const updates: string[] = [];
    const waiting = gateway.sessions.waitForResult(started.sessionId, {
      onUpdate: (state) => updates.push(state.hintCode ?? state.status),
    });
    await scan((await gateway.sessions.qr(started.sessionId)).qrData);
    const result = await waiting;
    expect(result).toMatchObject({ status: 'complete', user: { personalNumber: '199001011239' }, resultToken: expect.any(String) });
    expect(updates[0]).toBe('outstandingTransaction');
    expect(updates.at(-1)).toBe('complete');

    expect(await gateway.sessions.evidence(started.sessionId)).toMatchObject({
      signature: expect.any(String),
      ocspResponse: expect.any(String),
    });

    const claims = await gateway.verifyResultToken(result.resultToken!, { audience: e2e.team.id });
    expect(claims).toMatchObject({ sub: started.sessionId, status: 'complete', environment: 'test', provider: 'simulator' });
    await expect(gateway.verifyResultToken(tamperedResultToken(result.resultToken!, { status: 'failed' }))).rejects.toMatchObject({
      name: 'EidGatewayError',
      code: 'invalid_result_token',
    });
    await expect(gateway.verifyResultToken(result.resultToken!, { audience: randomUUID() })).rejects.toMatchObject({
      code: 'invalid_result_token',
    });
    // A live client refuses a test outcome, though the signature holds.
    const live = new EidGateway({ apiKey: `eidk_live_${'x'.repeat(38)}`, environment: 'live', baseUrl: e2e.baseUrl });
    await expect(live.verifyResultToken(result.resultToken!)).rejects.toMatchObject({ code: 'invalid_result_token' });

    // A final session has no QR: the service's problem, carried by the one error class.
    const refused = await gateway.sessions.qr(started.sessionId).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EidGatewayError);
    expect(refused).toMatchObject({
      status: 409,
      code: 'session_not_pending',
      problem: { type: 'urn:eid-gateway:problem:session_not_pending' },
    });
  }, 30_000);

  it('should start sign, phone and payment sessions, cancel one, and stop waiting when aborted', async () => {
    const gateway = await clientFor(e2e.key, e2e.team.id);
    const sign = await gateway.sessions.startSign('simulator', { endUserIp: '192.0.2.10', userVisibleData: 'Jag godkänner avtalet.' });
    const phone = await gateway.sessions.startPhoneAuth('simulator', { personalNumber: '198112189876', callInitiator: 'RP' });
    const phoneSign = await gateway.sessions.startPhoneSign('simulator', {
      personalNumber: '198112189876',
      callInitiator: 'user',
      userVisibleData: 'Jag godkänner flytten.',
    });
    const payment = await gateway.sessions.startPayment('simulator', {
      endUserIp: '192.0.2.10',
      userVisibleTransaction: { transactionType: 'card', recipient: { name: 'Acme AB' }, money: { amount: '100,00', currency: 'SEK' } },
    });
    for (const [session, operation, channel] of [
      [sign, 'sign', 'app'],
      [phone, 'auth', 'phone'],
      [phoneSign, 'sign', 'phone'],
      [payment, 'payment', 'app'],
    ] as const) {
      expect(await gateway.sessions.poll(session.sessionId)).toMatchObject({ operation, channel, status: 'pending' });
    }
    await expect(gateway.sessions.qr(phone.sessionId)).rejects.toMatchObject({ status: 409, code: 'qr_not_available' });

    const controller = new AbortController();
    const waiting = gateway.sessions.waitForResult(sign.sessionId, { signal: controller.signal });
    controller.abort(new Error('the user left'));
    await expect(waiting).rejects.toThrow('the user left');

    expect(await gateway.sessions.cancel(sign.sessionId)).toMatchObject({ status: 'failed', hintCode: 'cancelled' });
    await expect(gateway.sessions.cancel(sign.sessionId)).rejects.toMatchObject({ status: 409, code: 'session_not_pending' });
  });

  it('should iterate the sessions listing across pages, with this environment only', async () => {
    const { team, key } = await createTeamWithKey(e2e.app, { plan: 'pro' });
    const gateway = await clientFor(key, team.id);
    const started = new Set<string>();
    for (let i = 0; i < 5; i++) started.add((await gateway.sessions.startAuth('simulator', { endUserIp: '192.0.2.10' })).sessionId);
    const before = seen.length;

    const listed: string[] = [];
    for await (const row of gateway.sessions.list({ pageSize: 2 })) {
      expect(row.environment).toBe('test');
      listed.push(row.sessionId);
    }
    expect(new Set(listed)).toEqual(started);
    expect(listed).toHaveLength(5);
    // Three pages of two, by the tabular API (lastrow -1 until the last).
    expect(seen.slice(before).filter((call) => call.url.endsWith('/api/v1/sessions'))).toHaveLength(3);

    // The same listing without a member token: refused here, before any request.
    const keyOnly = new EidGateway({ apiKey: key, environment: 'test', baseUrl: e2e.baseUrl });
    await expect(keyOnly.sessions.list().next()).rejects.toMatchObject({ code: 'access_token_required', status: undefined });
  }, 30_000);

  it('should create a webhook endpoint, receive a delivery that verifyWebhook accepts, list it and redeliver it', async () => {
    const { team, key } = await createTeamWithKey(e2e.app, { plan: 'pro' });
    const gateway = await clientFor(key, team.id);
    const endpoint = await gateway.webhookEndpoints.create({ url: receiver.url('/client-hooks') });
    expect(endpoint).toMatchObject({ environment: 'test', secret: expect.stringMatching(/^whsec_/) });
    expect((await gateway.webhookEndpoints.list()).map((e) => e.id)).toEqual([endpoint.id]);

    const started = await gateway.sessions.startAuth('simulator', { endUserIp: '192.0.2.10', metadata: { orderId: 'W-1' } });
    await e2e.http.post('/api/v1/simulator/scan').send({ autoStartToken: started.autoStartToken }).expect(200);
    // No one polls: the service collects the session itself and sends the event.
    const delivery = await waitUntil(async () => receiver.requests.find((r) => r.body.includes(started.sessionId)), 'the webhook', 20_000);
    const event = verifyWebhook(delivery.headers, delivery.body, endpoint.secret);
    expect(event).toMatchObject({ type: 'auth.session.completed', data: { sessionId: started.sessionId, metadata: { orderId: 'W-1' } } });
    expect(await gateway.verifyResultToken(event.data.resultToken!, { audience: team.id })).toMatchObject({ sub: started.sessionId });
    expect(() => verifyWebhook(delivery.headers, delivery.body.replace('W-1', 'W-2'), endpoint.secret)).toThrow(EidGatewayError);
    expect(() => gateway.verifyWebhook(delivery.headers, delivery.body, `whsec_${Buffer.alloc(32).toString('base64')}`)).toThrow(
      expect.objectContaining({ code: 'invalid_webhook_signature' }),
    );

    const logged = await waitUntil(async () => {
      for await (const row of gateway.webhookDeliveries.list({
        filterModel: { sessionId: { filterType: 'text', type: 'equals', filter: started.sessionId } },
      }))
        if (row.status === 'delivered') return row;
    }, 'the delivered row');
    expect(logged).toMatchObject({
      endpointId: endpoint.id,
      eventType: 'auth.session.completed',
      messageId: delivery.headers['webhook-id'],
    });
    await gateway.webhookDeliveries.redeliver(logged.id);
    const again = await waitUntil(
      async () => receiver.requests.filter((r) => r.body.includes(started.sessionId))[1],
      'the redelivery',
      20_000,
    );
    expect(again.headers['webhook-id']).toBe(delivery.headers['webhook-id']);
    expect(verifyWebhook(again.headers, again.body, endpoint.secret)).toMatchObject({ type: 'auth.session.completed' });

    expect(await gateway.webhookEndpoints.update(endpoint.id, { enabled: false })).toMatchObject({ id: endpoint.id, enabled: false });
    const rotated = await gateway.webhookEndpoints.rotateSecret(endpoint.id);
    expect(rotated.secret).not.toBe(endpoint.secret);
    await gateway.webhookEndpoints.delete(endpoint.id);
    expect(await gateway.webhookEndpoints.list()).toEqual([]);
  }, 60_000);

  it('should refuse a key of the other environment before any request, and keep key and token out of errors and inspect', async () => {
    const before = seen.length;
    const live = `eidk_live_${'A'.repeat(38)}`;
    expect(() => new EidGateway({ apiKey: live, environment: 'test', baseUrl: e2e.baseUrl, fetch: observedFetch })).toThrow(
      expect.objectContaining({ name: 'EidGatewayError', code: 'environment_mismatch' }),
    );
    expect(() => new EidGateway({ apiKey: 'sk_test_123', environment: 'test', fetch: observedFetch })).toThrow(
      expect.objectContaining({ code: 'invalid_api_key_format' }),
    );
    expect(seen.length).toBe(before);

    const token = await memberToken(e2e.team.id);
    const gateway = new EidGateway({ apiKey: e2e.key, environment: 'test', baseUrl: e2e.baseUrl, accessToken: token });
    const refused = await gateway.sessions.poll(randomUUID()).catch((error: unknown) => error as EidGatewayError);
    expect(refused).toMatchObject({ status: 404, code: 'session_not_found', title: expect.any(String) });
    const invalid = await gateway.sessions
      .startAuth('simulator', { endUserIp: 'not an address' })
      .catch((error: unknown) => error as EidGatewayError);
    expect(invalid).toMatchObject({ status: 400, code: 'validation_failed', errors: [expect.objectContaining({ pointer: '/endUserIp' })] });
    const unknownKey = new EidGateway({ apiKey: `eidk_test_${'B'.repeat(38)}`, environment: 'test', baseUrl: e2e.baseUrl });
    await expect(unknownKey.sessions.poll(randomUUID())).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });

    for (const shown of [
      inspect(gateway, { depth: 10, showHidden: true }),
      JSON.stringify(gateway),
      inspect(refused, { depth: 10 }),
      (refused as EidGatewayError).message,
    ]) {
      expect(shown).not.toContain(e2e.key);
      expect(shown).not.toContain(token);
    }
  });

  it('should name the library and its version in the User-Agent, and give up on a request after its timeout', async () => {
    const pkg = JSON.parse(await readFile('clients/typescript/package.json', 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
    const gateway = await clientFor(e2e.key, e2e.team.id);
    await gateway.sessions.poll(randomUUID()).catch(() => undefined);
    expect(seen.at(-1)?.headers.get('user-agent')).toMatch(
      new RegExp(`^eid-gateway-client-typescript/${VERSION.replaceAll('.', '\\.')} node/`),
    );

    receiver.answerNext({ hang: true });
    const hanging = new EidGateway({ apiKey: e2e.key, environment: 'test', baseUrl: receiver.url(''), timeoutMs: 300 });
    const started = Date.now();
    await expect(hanging.sessions.poll(randomUUID())).rejects.toMatchObject({ code: 'timeout', status: undefined });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  // Last: it moves the service's clock by a minute.
  it('should wait out a 429 by its Retry-After and then succeed', async () => {
    const { team, key } = await createTeamWithKey(e2e.app, { plan: 'pro', key: { perMinuteLimit: 2 } });
    const gateway = await clientFor(key, team.id);
    await gateway.sessions.startAuth('simulator', { endUserIp: '192.0.2.10' });
    await gateway.sessions.startAuth('simulator', { endUserIp: '192.0.2.10' });
    // The first request leaves the sliding window 61 s after it: bring that to about 1.5 s from now.
    e2e.clock.advance(59_500);

    // A client that may not wait gets the 429 as it is (a refused request does not count towards the limit).
    const impatient = await clientFor(key, team.id, { maxRetries: 0 });
    await expect(impatient.sessions.startAuth('simulator', { endUserIp: '192.0.2.10' })).rejects.toMatchObject({
      status: 429,
      code: 'rate_limit_exceeded',
      retryAfter: expect.any(Number),
    });

    const before = seen.length;
    const started = Date.now();
    const third = await gateway.sessions.startAuth('simulator', { endUserIp: '192.0.2.10' });
    expect(third.status).toBe('pending');
    const statuses = seen.slice(before).map((call) => call.status);
    expect(statuses[0]).toBe(429);
    expect(statuses.at(-1)).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
  }, 30_000);
});
