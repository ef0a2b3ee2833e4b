import { randomUUID } from 'node:crypto';
import { useE2eApp } from '../../support/e2e.js';
import { expectProblem } from '../../support/problem.js';

// docs/protection.md, "Per-address limits": the anonymous simulator and kiosk routes answer 429 with
// Retry-After once one client address has used PUBLIC_ROUTE_LIMIT_PER_MINUTE of them.
describe('Per-address limits on the anonymous routes', () => {
  const e2e = useE2eApp({ env: { PUBLIC_ROUTE_LIMIT_PER_MINUTE: '3' } });
  // Frozen once, not per test: each test moves on by a minute from where the last one left the clock.
  beforeAll(() => e2e.clock.freeze());

  it.each([
    ['POST /api/v1/simulator/scan', () => e2e.http.post('/api/v1/simulator/scan').send({})],
    ['GET /kiosk/:sessionId', () => e2e.http.get(`/kiosk/${randomUUID()}`)],
  ])('should refuse the 4th %s within a minute with 429 and Retry-After, then admit again', async (_route, send) => {
    e2e.clock.advance(60_000); // a fresh window: the routes share one count per address
    const statuses = [(await send()).status, (await send()).status, (await send()).status];
    expect(statuses).not.toContain(429);
    const refused = await send();
    expectProblem(refused, 429, 'rate_limit_exceeded');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await e2e.http.get('/health/live').expect(200);
    e2e.clock.advance(60_000);
    expect((await send()).status).not.toBe(429);
  });
});
