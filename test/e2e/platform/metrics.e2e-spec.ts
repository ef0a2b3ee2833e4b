import { useE2eApp } from '../../support/e2e.js';

/** One sample's value from a Prometheus text exposition, or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(',');
    if (wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return undefined;
}

describe('Metrics (HTTP RED, sessions, providers)', () => {
  const e2e = useE2eApp({ stopBackgroundJobs: true, withKey: true, freezeClock: true });
  const scrape = async () => (await e2e.http.get('/metrics').expect(200)).text;

  it('should count requests by route template, never by raw path or id', async () => {
    const started = await e2e.http
      .post('/api/v1/auth/simulator/start')
      .set('x-api-key', e2e.key)
      .send({ endUserIp: '192.0.2.10' })
      .expect(200);
    const { sessionId } = started.body as { sessionId: string };
    await e2e.http.post(`/api/v1/auth/${sessionId}/poll`).set('x-api-key', e2e.key).expect(200);
    await e2e.http.post(`/api/v1/auth/${sessionId}/poll`).set('x-api-key', e2e.key).expect(200);
    await e2e.http.post('/api/v1/auth/00000000-0000-4000-8000-000000000000/poll').set('x-api-key', e2e.key).expect(404);
    await e2e.http.get('/no/such/route/sk_live_secret').expect(404);
    await e2e.http.get('/another/unknown/path').expect(404);

    const text = await scrape();
    expect(sample(text, 'http_requests_total', { method: 'POST', route: '/api/v1/auth/:provider/start', status: '200' })).toBe(1);
    expect(sample(text, 'http_requests_total', { method: 'POST', route: '/api/v1/auth/:sessionId/poll', status: '200' })).toBe(2);
    expect(sample(text, 'http_requests_total', { method: 'POST', route: '/api/v1/auth/:sessionId/poll', status: '404' })).toBe(1);
    // Requests that match no route share one label, whatever their path.
    expect(sample(text, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/auth/:sessionId/poll' })).toBe(3);
    expect(
      sample(text, 'http_request_duration_seconds_bucket', { method: 'POST', route: '/api/v1/auth/:sessionId/poll', le: '+Inf' }),
    ).toBe(3);
    expect(text).not.toContain(sessionId);
    expect(text).not.toContain('sk_live_secret');
    expect(text).not.toContain(e2e.key);
  });

  it('should count sessions started and ended by outcome, the pending ones, and provider calls', async () => {
    const start = async () =>
      (
        (await e2e.http.post('/api/v1/auth/simulator/start').set('x-api-key', e2e.key).send({ endUserIp: '192.0.2.10' }).expect(200))
          .body as { sessionId: string }
      ).sessionId;
    const before = await scrape();
    const startedBefore = sample(before, 'eid_sessions_started_total', { provider: 'simulator', operation: 'auth' }) ?? 0;
    const toCancel = await start();
    await start();
    await e2e.http.post(`/api/v1/auth/${toCancel}/cancel`).set('x-api-key', e2e.key).expect(200);

    const text = await scrape();
    expect(sample(text, 'eid_sessions_started_total', { provider: 'simulator', operation: 'auth' })).toBe(startedBefore + 2);
    expect(sample(text, 'eid_sessions_ended_total', { provider: 'simulator', operation: 'auth', outcome: 'cancelled' })).toBe(1);
    expect(sample(text, 'eid_provider_calls_total', { provider: 'simulator', operation: 'start', outcome: 'success' })).toBe(
      startedBefore + 2,
    );
    expect(sample(text, 'eid_provider_calls_total', { provider: 'simulator', operation: 'cancel', outcome: 'success' })).toBe(1);
    expect(
      sample(text, 'eid_provider_call_duration_seconds_count', { provider: 'simulator', operation: 'start', outcome: 'success' }),
    ).toBe(startedBefore + 2);
    // Read from the database at most every few seconds: a scrape may see a count up to that old.
    expect(sample(text, 'eid_sessions_pending', { provider: 'simulator' })).toBeGreaterThanOrEqual(1);
  });
});
