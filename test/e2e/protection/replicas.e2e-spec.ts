import { randomUUID } from 'node:crypto';
import { createTeamWithKey } from '../../support/fixtures.js';
import { protectionBackends } from '../../support/protection-backends.js';
import { usingRealPostgres } from '../../support/test-postgres.js';
import { httpOf, useE2eApp } from '../../support/e2e.js';

const { backends, redisSkipped } = await protectionBackends();

// Two replicas need a database several processes can use: the embedded fallback serves one.
const describeReplicas = usingRealPostgres() ? describe.each(backends) : describe.skip.each(backends);

describeReplicas('Limits and blocks across two replicas ($name)', (backend) => {
  // One database (and one Redis key prefix) shared by two service instances, as two replicas would.
  const protection = backend.env();
  const e2e = useE2eApp({ env: { ...protection, TRUST_PROXY: '127.0.0.1,::1' }, replicas: 2 });
  afterAll(() => backend.cleanUp(protection));

  const poll = (replica: number, key: string, clientIp = '198.51.100.1') =>
    httpOf(e2e.replicas[replica].app).post(`/api/v1/auth/${randomUUID()}/poll`).set('x-api-key', key).set('x-forwarded-for', clientIp);

  beforeEach(() => {
    const now = Date.now();
    for (const replica of e2e.replicas) replica.clock.freeze(now);
  });

  it('should admit exactly N requests per minute in total across both under concurrent load', async () => {
    const { key } = await createTeamWithKey(e2e.replicas[0].app, { key: { perMinuteLimit: 10 } });
    const responses = await Promise.all(Array.from({ length: 60 }, (_, i) => poll(i % 2, key)));
    const admitted = responses.filter((res) => res.status === 404);
    expect(admitted).toHaveLength(10);
    expect(responses.filter((res) => res.status === 429)).toHaveLength(50);
    // Both replicas admitted some: the limit is shared, not per replica.
    expect(new Set(responses.flatMap((res, i) => (res.status === 404 ? [i % 2] : []))).size).toBe(2);

    // 61 s on, the second they were counted in has left the minute's buckets (docs/protection.md).
    for (const replica of e2e.replicas) replica.clock.advance(61_000);
    const next = await Promise.all(Array.from({ length: 20 }, (_, i) => poll(i % 2, key)));
    expect(next.filter((res) => res.status === 404)).toHaveLength(10);
  });

  it('should admit exactly the monthly limit across both under concurrent load', async () => {
    const { key } = await createTeamWithKey(e2e.replicas[0].app, { key: { monthlyLimit: 15 } });
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => poll(i % 2, key)));
    expect(responses.filter((res) => res.status === 404)).toHaveLength(15);
  });

  /** Polls with a valid key until the replica answers ip_blocked; answers how long that took. */
  const blockedWithin = async (replica: number, key: string, ip: string): Promise<number> => {
    const started = performance.now();
    for (;;) {
      const res = await poll(replica, key, ip);
      if (res.body.code === 'ip_blocked') return performance.now() - started;
      expect(res.status).toBe(404);
      if (performance.now() - started > 5_000) throw new Error(`replica ${replica} never blocked ${ip}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('should block at once on the replica that counted the last failure, and on the other within the one-second sync', async () => {
    const { key } = await createTeamWithKey(e2e.replicas[0].app);
    const ip = '203.0.113.50';
    const failures = await Promise.all(Array.from({ length: 10 }, () => poll(0, 'eidk_test_wrong', ip)));
    expect(failures.map((res) => res.body.code)).toEqual(Array(10).fill('invalid_api_key'));
    expect((await poll(0, key, ip).expect(401)).body.code).toBe('ip_blocked');
    // The sync runs each second on wall time; a little slack for a loaded machine.
    expect(await blockedWithin(1, key, ip)).toBeLessThan(2_500);
    await poll(1, key, '203.0.113.51').expect(404);
  });

  it('should carry an IPv6 block (its /64 network) to the other replica', async () => {
    const { key } = await createTeamWithKey(e2e.replicas[0].app);
    await Promise.all(Array.from({ length: 10 }, (_, i) => poll(0, 'eidk_test_wrong', `2001:db8:0:7::${i + 1}`).expect(401)));
    expect(await blockedWithin(1, key, '2001:db8:0:7:abcd::1')).toBeLessThan(2_500);
  });

  it('should add up the failures an address makes on both replicas', async () => {
    const { key } = await createTeamWithKey(e2e.replicas[0].app);
    const ip = '203.0.113.60';
    await Promise.all(Array.from({ length: 9 }, (_, i) => poll(i % 2, 'eidk_test_wrong', ip).expect(401)));
    await poll(0, key, ip).expect(404);
    await poll(1, 'eidk_test_wrong', ip).expect(401);
    expect((await poll(1, key, ip).expect(401)).body.code).toBe('ip_blocked');
    expect(await blockedWithin(0, key, ip)).toBeLessThan(2_500);
  });

  it('should learn at once of a block made elsewhere when the address fails on this replica too', async () => {
    const { key } = await createTeamWithKey(e2e.replicas[0].app);
    const ip = '203.0.113.70';
    // Replica 1 syncs no more (last test of the file): its copy, still fresh for 3 s, lacks the block.
    e2e.replicas[1].stopBackgroundJobs();
    await Promise.all(Array.from({ length: 10 }, () => poll(0, 'eidk_test_wrong', ip).expect(401)));
    expect((await poll(1, 'eidk_test_wrong', ip).expect(401)).body.code).toBe('invalid_api_key');
    expect((await poll(1, key, ip).expect(401)).body.code).toBe('ip_blocked');
  });
});

if (redisSkipped) it.skip('Redis variants of the replica tests (Redis unreachable)', () => undefined);
