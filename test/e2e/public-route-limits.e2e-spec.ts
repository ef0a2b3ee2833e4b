import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '../support/create-test-app.js';

// docs/protection.md, "Per-address limits": the anonymous simulator and kiosk routes answer 429 with
// Retry-After once one client address has used PUBLIC_ROUTE_LIMIT_PER_MINUTE of them.
describe('Per-address limits on the anonymous routes', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let http: ReturnType<typeof request>;

  beforeAll(async () => {
    database = await createTestDatabase();
    testApp = await createTestApp({ ...database.env, PUBLIC_ROUTE_LIMIT_PER_MINUTE: '3' });
    testApp.clock.freeze();
    http = request(testApp.app.getHttpServer());
  });

  afterAll(async () => {
    await testApp?.close();
    await database?.drop();
  });

  it.each([
    ['POST /api/v1/simulator/scan', () => http.post('/api/v1/simulator/scan').send({})],
    ['GET /kiosk/:sessionId', () => http.get(`/kiosk/${randomUUID()}`)],
  ])('should refuse the 4th %s within a minute with 429 and Retry-After, then admit again', async (_route, send) => {
    testApp.clock.advance(60_000); // a fresh window: the routes share one count per address
    const statuses = [(await send()).status, (await send()).status, (await send()).status];
    expect(statuses).not.toContain(429);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'rate_limit_exceeded' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await http.get('/health/live').expect(200);
    testApp.clock.advance(60_000);
    expect((await send()).status).not.toBe(429);
  });
});
