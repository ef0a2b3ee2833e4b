import { createHmac } from 'node:crypto';
import { KioskStreamsService, MAX_VIEWERS_PER_SESSION } from '../../../src/kiosk/kiosk-streams.service.js';
import { SessionSettlement } from '../../../src/sessions/settlement/session-settlement.js';
import { useE2eApp } from '../../support/e2e.js';
import { expectMatchesSchema } from '../../support/openapi.js';

interface KioskEvent {
  event: string;
  data: Record<string, unknown>;
}

/** An open kiosk event stream, read as the page reads it (fetch, not EventSource: it sends a header). */
class EventStream {
  private buffer = '';
  private readonly queue: KioskEvent[] = [];
  private waiting: (() => void) | null = null;
  ended = false;

  constructor(
    readonly response: Response,
    private readonly abort: AbortController,
  ) {
    // Error answers are problem documents for the test to read, not streams.
    if (response.ok) void this.pump();
    else this.ended = true;
  }

  /** The next event, or null once the server has ended the stream. */
  async next(): Promise<KioskEvent | null> {
    while (this.queue.length === 0 && !this.ended) await new Promise<void>((resolve) => (this.waiting = resolve));
    return this.queue.shift() ?? null;
  }

  close(): void {
    this.abort.abort();
  }

  private async pump(): Promise<void> {
    try {
      for await (const chunk of this.response.body!.pipeThrough(new TextDecoderStream())) {
        this.buffer += chunk;
        let end: number;
        while ((end = this.buffer.indexOf('\n\n')) >= 0) {
          const block = this.buffer.slice(0, end);
          this.buffer = this.buffer.slice(end + 2);
          const event = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (event && data) this.queue.push({ event, data: JSON.parse(data) });
          this.wake();
        }
      }
    } catch {
      // aborted by close()
    }
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    this.waiting?.();
    this.waiting = null;
  }
}

describe('Kiosk page and event stream', () => {
  const e2e = useE2eApp({
    env: { PUBLIC_BASE_URL: 'https://id.example.com/', KIOSK_FRAME_ANCESTORS: 'https://rp.example' },
    listen: true,
    withKey: true,
    freezeClock: true,
  });
  const streams: EventStream[] = [];

  const start = async () => {
    const body = (
      await e2e.http.post('/api/v1/auth/simulator/start').set('x-api-key', e2e.key).send({ endUserIp: '192.0.2.10' }).expect(200)
    ).body;
    const [, sessionId, token] = /\/kiosk\/([0-9a-f-]{36})#t=(.+)$/.exec(body.kioskUrl)!;
    expect(sessionId).toBe(body.sessionId);
    return { ...body, token } as { sessionId: string; qrStartToken: string; qrStartSecret: string; token: string };
  };

  const open = async (sessionId: string, authorization?: string) => {
    const abort = new AbortController();
    const response = await fetch(`${e2e.baseUrl}/kiosk/${sessionId}/events`, {
      headers: authorization ? { authorization } : {},
      signal: abort.signal,
    });
    const stream = new EventStream(response, abort);
    streams.push(stream);
    return stream;
  };

  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
  });

  it('should give a kiosk link under PUBLIC_BASE_URL with the token in the fragment', async () => {
    const body = (
      await e2e.http.post('/api/v1/auth/simulator/start').set('x-api-key', e2e.key).send({ endUserIp: '192.0.2.10' }).expect(200)
    ).body;
    expect(body.kioskUrl).toMatch(new RegExp(`^https://id\\.example\\.com/kiosk/${body.sessionId}#t=[A-Za-z0-9_-]{28}$`));
  });

  it('should serve the page with a strict CSP, no Referer, no caching and the configured frame ancestors', async () => {
    const { sessionId } = await start();
    const page = await e2e.http
      .get(`/kiosk/${sessionId}`)
      .expect(200)
      .expect('content-type', /^text\/html/);
    const csp = page.headers['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain('frame-ancestors https://rp.example');
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers).toMatchObject({
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    expect(page.headers['x-frame-options']).toBeUndefined();
    // No inline script or style: everything the page runs comes from its own files.
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page.text).not.toMatch(/\sstyle=/);
    expect(page.text).toContain('<html lang="sv">');

    const english = await e2e.http
      .get(`/kiosk/${sessionId}?lang=en`)
      .expect(200)
      .expect((res) => expectMatchesSchema(res, 'GET /kiosk/{sessionId}'));
    expect(english.text).toContain('<html lang="en">');
    expect((await e2e.http.get(`/kiosk/${sessionId}?lang=xx`).expect(200)).text).toContain('<html lang="sv">');
    // Without ?lang the browser's languages choose (docs/kiosk.md, "Languages").
    const danish = await e2e.http.get(`/kiosk/${sessionId}`).set('accept-language', 'de-DE, da;q=0.9, en;q=0.8').expect(200);
    expect(danish.text).toContain('<html lang="da">');
    expect(danish.text).toContain('data-with-app="Identificér dig med {app}"');
  });

  it('should serve the page assets and nothing else from the assets folder', async () => {
    const page = (await e2e.http.get(`/kiosk/${(await start()).sessionId}`).expect(200)).text;
    for (const [, path] of page.matchAll(/(?:src|href)="(assets\/[^"]+)"/g)) {
      await e2e.http
        .get(`/kiosk/${path}`)
        .expect(200)
        .expect('cache-control', /max-age/);
    }
    await e2e.http
      .get('/kiosk/assets/qrcode.mjs')
      .expect(200)
      .expect('content-type', /^text\/javascript/);
    await e2e.http.get('/kiosk/assets/kiosk.controller.ts').expect(404);
    // Path traversal never reaches the handler: the input guard answers first.
    await e2e.http.get('/kiosk/assets/..%2Fkiosk.controller.ts').expect(400);
    await e2e.http
      .get('/kiosk/not-a-session')
      .expect(404)
      .expect((res) => expectMatchesSchema(res, 'GET /kiosk/{sessionId}'));
  });

  it('should stream the current frame and status, then the outcome, and end the stream', async () => {
    const { sessionId, qrStartToken, qrStartSecret, token } = await start();
    const stream = await open(sessionId, `Kiosk ${token}`);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.response.headers.get('cache-control')).toBe('no-store, no-transform');

    expect(await stream.next()).toEqual({
      event: 'status',
      data: { status: 'pending', provider: 'simulator', hintCode: 'outstandingTransaction' },
    });
    const frame = await stream.next();
    const expected = `bankid.${qrStartToken}.0.${createHmac('sha256', qrStartSecret).update('0').digest('hex')}`;
    expect(frame).toEqual({ event: 'frame', data: { qrTime: 0, qrData: expected } });

    e2e.clock.advance(1_000);
    await e2e.http.post('/api/v1/simulator/scan').send({ qrData: expected }).expect(200);
    e2e.clock.advance(1_500);
    await e2e.app.get(SessionSettlement).collectDue();
    await e2e.app.get(KioskStreamsService).refreshStatuses();
    // Frames keep coming while the session is pending (the page hides them once the app has it).
    let next = await stream.next();
    while (next?.event === 'frame') next = await stream.next();
    expect(next).toEqual({ event: 'status', data: { status: 'pending', provider: 'simulator', hintCode: 'userSign' } });

    e2e.clock.advance(2_000);
    await e2e.app.get(SessionSettlement).collectDue();
    await e2e.app.get(KioskStreamsService).refreshStatuses();
    // Whatever frames were in flight, the stream ends with the outcome, and no identity reaches the screen.
    let last: KioskEvent | null = null;
    for (let event = await stream.next(); event; event = await stream.next()) last = event;
    expect(last).toEqual({ event: 'status', data: { status: 'complete', provider: 'simulator' } });
    expect(stream.ended).toBe(true);
  });

  it('should carry on with the frames of a renewed order on the same stream (autoRenew), with no failure shown', async () => {
    const started = (
      await e2e.http
        .post('/api/v1/auth/simulator/start')
        .set('x-api-key', e2e.key)
        .send({ endUserIp: '192.0.2.10', autoRenew: true })
        .expect(200)
    ).body;
    const token = /#t=(.+)$/.exec(started.kioskUrl)![1];
    const stream = await open(started.sessionId, `Kiosk ${token}`);
    expect(await stream.next()).toMatchObject({ event: 'status', data: { status: 'pending' } });
    expect((await stream.next())?.data.qrData).toContain(started.qrStartToken);

    // Nobody scans for longer than the simulator's start timeout: the order fails startFailed and is renewed.
    e2e.clock.advance(31_000);
    await e2e.app.get(SessionSettlement).collectDue();
    await e2e.app.get(KioskStreamsService).refreshStatuses();
    let event = await stream.next();
    while (event?.event === 'frame' && String(event.data.qrData).includes(started.qrStartToken)) event = await stream.next();
    expect(event).toMatchObject({ event: 'frame', data: { qrTime: 0 } });
    const current = (await e2e.http.get(`/api/v1/auth/${started.sessionId}/qr`).set('x-api-key', e2e.key).expect(200)).body;
    expect(event?.data.qrData).toBe(current.qrData);
    expect(stream.ended).toBe(false);
  });

  it('should answer a finished session with its outcome only', async () => {
    const { sessionId, token } = await start();
    await e2e.http.post(`/api/v1/auth/${sessionId}/cancel`).set('x-api-key', e2e.key).expect(200);
    const stream = await open(sessionId, `Kiosk ${token}`);
    expect(await stream.next()).toEqual({ event: 'status', data: { status: 'failed', provider: 'simulator', hintCode: 'cancelled' } });
    expect(await stream.next()).toBeNull();
  });

  it.each([
    ['no token', () => undefined],
    ['a bearer token', (token: string) => `Bearer ${token}`],
    ['a malformed token', () => 'Kiosk not-a-token'],
  ])('should refuse %s with 401 invalid_kiosk_token', async (_name, header) => {
    const { sessionId, token } = await start();
    const stream = await open(sessionId, header(token));
    expect(stream.response.status).toBe(401);
    expect(stream.response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(stream.response.headers.get('www-authenticate')).toBe('Kiosk realm="eid-gateway"');
    expect(((await stream.response.json()) as { code: string }).code).toBe('invalid_kiosk_token');
    const again = e2e.http.get(`/kiosk/${sessionId}/events`);
    const authorization = header(token);
    expectMatchesSchema(
      await (authorization ? again.set('authorization', authorization) : again).expect(401),
      'GET /kiosk/{sessionId}/events',
    );
  });

  it("should refuse another session's token and an expired one", async () => {
    const first = await start();
    const second = await start();
    const crossed = await open(second.sessionId, `Kiosk ${first.token}`);
    expect(crossed.response.status).toBe(401);

    // The link lives as long as the session plus a minute to show the outcome.
    e2e.clock.advance(180_000 + 60_000);
    const expired = await open(first.sessionId, `Kiosk ${first.token}`);
    expect(expired.response.status).toBe(401);
    expect(await expired.response.json()).toMatchObject({ code: 'invalid_kiosk_token', detail: 'The kiosk link has expired.' });
  });

  it(`should let at most ${MAX_VIEWERS_PER_SESSION} screens watch one session`, async () => {
    const { sessionId, token } = await start();
    for (let i = 0; i < MAX_VIEWERS_PER_SESSION; i++) {
      const stream = await open(sessionId, `Kiosk ${token}`);
      expect(stream.response.status).toBe(200);
      await stream.next();
    }
    const refused = await open(sessionId, `Kiosk ${token}`);
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get('retry-after')).toBe('5');
  });

  it(`should hold screens arriving together to ${MAX_VIEWERS_PER_SESSION}`, async () => {
    const { sessionId, token } = await start();
    const streams = await Promise.all(Array.from({ length: MAX_VIEWERS_PER_SESSION + 5 }, () => open(sessionId, `Kiosk ${token}`)));
    expect(streams.filter((stream) => stream.response.status === 200)).toHaveLength(MAX_VIEWERS_PER_SESSION);
    expect(streams.filter((stream) => stream.response.status === 429)).toHaveLength(5);
  });
});
