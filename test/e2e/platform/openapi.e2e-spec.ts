import { readFile } from 'node:fs/promises';
import { useE2eApp } from '../../support/e2e.js';

describe('OpenAPI document', () => {
  const e2e = useE2eApp();

  it('should serve at /docs/json exactly the openapi.json of the repository (regenerate it with npm run openapi)', async () => {
    const served = await e2e.http.get('/docs/json').expect(200);
    const kept: unknown = JSON.parse(await readFile(new URL('../../../openapi.json', import.meta.url), 'utf8'));
    expect(served.body).toEqual(kept);
  });

  it('should be OpenAPI 3.1 with its security schemes, problem answers and webhook events', async () => {
    const { body } = await e2e.http.get('/docs/json').expect(200);
    expect(body.openapi).toBe('3.1.0');
    expect(body.components.securitySchemes).toEqual({
      apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
      apiKeyQuery: expect.objectContaining({ type: 'apiKey', in: 'query', name: 'key' }),
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
    });
    expect(Object.keys(body.webhooks).sort()).toEqual([
      'auth.session.completed',
      'auth.session.failed',
      'auth.session.updated',
      'idcard.session.completed',
      'payment.session.completed',
      'payment.session.failed',
      'payment.session.updated',
      'sign.session.completed',
      'sign.session.failed',
      'sign.session.updated',
    ]);
    // Every operation states a success answer and the 500 every route may give.
    for (const [path, item] of Object.entries(body.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)) {
      for (const [method, operation] of Object.entries(item)) {
        const statuses = Object.keys(operation.responses);
        expect({
          operation: `${method} ${path}`,
          success: statuses.some((s) => s.startsWith('2')),
          internal: statuses.includes('500'),
        }).toEqual({
          operation: `${method} ${path}`,
          success: true,
          internal: true,
        });
      }
    }
    const poll = body.paths['/api/v1/auth/{sessionId}/poll'].post;
    expect(poll.responses['404'].content['application/problem+json'].schema.allOf[1].properties.code.enum).toEqual(['session_not_found']);
  });
});
