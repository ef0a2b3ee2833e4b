import { useE2eApp } from '../../support/e2e.js';
import { expectMatchesSchema } from '../../support/openapi.js';

describe('Operations (health, problem details, OpenAPI)', () => {
  const e2e = useE2eApp();

  it('should answer the liveness probe', async () => {
    await e2e.http
      .get('/health/live')
      .expect(200, { status: 'ok' })
      .expect((res) => expectMatchesSchema(res, 'GET /health/live'));
  });

  it('should be ready once the database answers and migrations are applied', async () => {
    const res = await e2e.http
      .get('/health/ready')
      .expect(200)
      .expect((res) => expectMatchesSchema(res, 'GET /health/ready'));
    expect(res.body.checks).toEqual({ database: 'up', migrations: 'applied' });
  });

  it('should answer an unknown route with 404 problem details', async () => {
    const res = await e2e.http.get('/no/such/route').expect(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toEqual({
      type: 'urn:eid-gateway:problem:not_found',
      title: 'Not Found',
      status: 404,
      detail: 'No such resource.',
      instance: '/no/such/route',
      code: 'not_found',
    });
  });

  it('should answer malformed JSON with 400 problem details and no internals', async () => {
    const res = await e2e.http
      .post('/health/live')
      .set('content-type', 'application/json')
      .send('{"a":')
      .expect((r) => {
        expect([400, 404]).toContain(r.status);
      });
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.js|stack/i);
  });

  it.each([
    ['an over-long path segment', `/api/v1/auth/${'a'.repeat(150)}/poll`, 414],
    ['malformed URL encoding', '/api/v1/auth/%E0%A4%A/poll', 400],
  ])('should answer %s with problem details that do not echo the URL', async (_name, path, status) => {
    const res = await e2e.http.post(path).expect(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.status).toBe(status);
    expect(JSON.stringify(res.body)).not.toContain('aaaa');
  });

  it('should give every answer a request id, and keep a caller-supplied one', async () => {
    const mine = await e2e.http.get('/health/live').set('x-request-id', 'trace-123').expect(200);
    expect(mine.headers['x-request-id']).toBe('trace-123');
    const fresh = await e2e.http.get('/health/live').set('x-request-id', 'not ok <script>').expect(200);
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('should serve the OpenAPI document', async () => {
    const res = await e2e.http.get('/docs/json').expect(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.paths['/health/ready']).toBeDefined();
  });
});
