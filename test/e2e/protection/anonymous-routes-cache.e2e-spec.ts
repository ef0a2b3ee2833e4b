import { DataSource } from 'typeorm';
import { useE2eApp } from '../../support/e2e.js';

// docs/operations.md, "Anonymous routes": /metrics, /health/ready and /.well-known/jwks.json are cached for
// ANONYMOUS_CACHE_TTL, so a flood of them costs one database round per interval, not one per request.
const FLOOD = 200;
const TTL_MS = 2_000;

describe('Anonymous routes under a flood', () => {
  const e2e = useE2eApp({ env: { ANONYMOUS_CACHE_TTL: `${TTL_MS}ms` }, stopBackgroundJobs: true, listen: true });
  const queries: string[] = [];

  beforeAll(() => {
    // Every SQL statement TypeORM sends goes through its logger: a real count of what reached PostgreSQL.
    const logger = e2e.app.get(DataSource).logger;
    const logQuery = logger.logQuery.bind(logger);
    logger.logQuery = (query, parameters, runner) => {
      queries.push(query);
      return logQuery(query, parameters, runner);
    };
  });

  it.each([
    ['/health/ready', /^SELECT 1$/],
    ['/.well-known/jwks.json', /signing_keys/],
    ['/metrics', /webhook/i],
  ])('should answer a flood of %s with at most one query of its own per interval', async (path, own) => {
    // After the last interval ran out, one request makes the route's own queries (the filter is not vacuous).
    await new Promise((resolve) => setTimeout(resolve, TTL_MS));
    queries.length = 0;
    await e2e.http.get(path).expect(200);
    expect(queries.filter((query) => own.test(query)).length).toBeGreaterThan(0);
    queries.length = 0;
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: FLOOD }, () => e2e.http.get(path)));
    const intervals = Math.ceil((Date.now() - started) / TTL_MS) + 1;
    expect(answers.filter((res) => res.status !== 200)).toEqual([]);
    const count = queries.filter((query) => own.test(query)).length;
    expect(count).toBeLessThanOrEqual(intervals * (path === '/metrics' ? 2 : 1));
  });
});
