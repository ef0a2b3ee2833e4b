import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '../../../src/api-keys/api-keys.service.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { useE2eApp } from '../../support/e2e.js';

const corpus = (name: string): string[] =>
  readFileSync(new URL(`../../fixtures/guard/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0 && !line.startsWith('# '));
const ATTACKS = corpus('attacks.txt');
const BENIGN = corpus('benign.txt');

type Part = 'body' | 'query' | 'path';

describe('Input guard', () => {
  const e2e = useE2eApp({ listen: true });

  /** Sends `text` in one part of a request without credentials; the status tells who answered. */
  const send = (part: Part, text: string): Promise<{ status: number; body: Record<string, unknown> }> => {
    if (part === 'body') return e2e.http.post('/api/v1/auth/simulator/start').send({ endUserIp: '192.0.2.1', userVisibleData: text });
    if (part === 'query') return e2e.http.get(`/api/v1/auth/${randomUUID()}/qr?format=${encodeURIComponent(text)}`);
    // The path goes out byte for byte (clients that normalise URLs would fold `..` away before sending),
    // under a prefix no route matches: Fastify answers 414 for a route parameter over 100 characters.
    return rawPost(`/api/v1/lookup/${encodeURIComponent(text).replace(/\./g, '%2E')}`);
  };
  const rawPost = (path: string) =>
    new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const { hostname, port } = new URL(e2e.baseUrl);
      const req = httpRequest({ host: hostname, port, path, method: 'POST' }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} }));
      });
      req.on('error', reject);
      req.end();
    });
  /** Share of `texts` the guard refused in `part`, sent 20 at a time. */
  const refusedShare = async (part: Part, texts: string[]) => {
    const refused: string[] = [];
    for (let i = 0; i < texts.length; i += 20) {
      const batch = texts.slice(i, i + 20);
      const answers = await Promise.all(batch.map((text) => send(part, text)));
      answers.forEach((res, j) => {
        if (res.status === 400 && res.body.code === undefined) refused.push(batch[j]);
        // Anything else must be the next step answering: authentication (no key was sent), or routing.
        else expect([res.status, res.body.code]).toEqual(part === 'path' ? [404, 'not_found'] : [401, 'missing_token']);
      });
    }
    return { share: refused.length / texts.length, refused };
  };

  it('should answer 400 problem details without a code, naming the part and the kind of attack', async () => {
    const res = await e2e.http.post('/api/v1/auth/simulator/start').send({ endUserIp: '192.0.2.1', userVisibleData: "' OR '1'='1" });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'The input guard refused the request: its body looks like SQL injection.',
      instance: '/api/v1/auth/simulator/start',
    });
  });

  it.each<[Part, number]>([
    ['body', 0.99],
    ['query', 0.99],
    ['path', 0.99],
  ])('should refuse at least 99%% of the attack corpus in the %s', async (part, minimum) => {
    const { share, refused } = await refusedShare(part, ATTACKS);
    const missed = ATTACKS.filter((payload) => !refused.includes(payload));
    process.stderr.write(
      `[input guard] ${part}: ${refused.length}/${ATTACKS.length} attack payloads refused (${(share * 100).toFixed(1)}%)${missed.length ? `; missed: ${JSON.stringify(missed)}` : ''}\n`,
    );
    expect(ATTACKS.length).toBeGreaterThanOrEqual(200);
    expect(share).toBeGreaterThanOrEqual(minimum);
  });

  it.each<[Part, number]>([
    ['body', 0.01],
    ['query', 0.01],
    ['path', 0.01],
  ])('should let through all but at most 1%% of the benign corpus in the %s', async (part, maximum) => {
    const { share, refused } = await refusedShare(part, BENIGN);
    process.stderr.write(
      `[input guard] ${part}: ${refused.length}/${BENIGN.length} benign strings refused (${(share * 100).toFixed(1)}%)${refused.length ? `: ${JSON.stringify(refused)}` : ''}\n`,
    );
    expect(BENIGN.length).toBeGreaterThanOrEqual(200);
    expect(share).toBeLessThanOrEqual(maximum);
  });

  it('should inspect object keys and nested values of the body, and the query names', async () => {
    const start = (body: object) => e2e.http.post('/api/v1/auth/simulator/start').send(body);
    expect((await start({ endUserIp: '192.0.2.1', metadata: { '<script>alert(1)</script>': 'x' } })).status).toBe(400);
    expect((await start({ endUserIp: '192.0.2.1', metadata: { orderId: '../../etc/passwd' } })).status).toBe(400);
    expect((await start({ endUserIp: '192.0.2.1', requirement: { nested: [['1 UNION SELECT NULL--']] } })).status).toBe(400);
    expect((await e2e.http.get(`/health/live?${encodeURIComponent("' or 1=1--")}=1`)).status).toBe(400);
  });

  it('should refuse before authentication and database work: no key lookup, no quota used, no failed attempt counted', async () => {
    const { key } = await createTeamWithKey(e2e.app, { key: { perMinuteLimit: 1 } });
    const authenticate = jest.spyOn(e2e.app.get(ApiKeysService), 'authenticate');
    const sessionsBefore = await countSessions();
    for (let i = 0; i < 12; i++) {
      const res = await e2e.http
        .post('/api/v1/auth/simulator/start')
        .set('x-api-key', i % 2 ? key : 'eidk_test_wrong')
        .send({ endUserIp: '192.0.2.1', userVisibleData: '<svg/onload=alert(1)>' });
      expect(res.status).toBe(400);
    }
    expect(authenticate).not.toHaveBeenCalled();
    authenticate.mockRestore();
    expect(await countSessions()).toBe(sessionsBefore);
    // Twelve refusals later the key still has its one request, and loopback is not blocked.
    await e2e.http.post('/api/v1/auth/simulator/start').set('x-api-key', key).send({ endUserIp: '192.0.2.1' }).expect(200);
  });

  it("should let ordinary text through to the handler: a start with O'Brien and Select Dental AB succeeds", async () => {
    const { key } = await createTeamWithKey(e2e.app);
    const res = await e2e.http
      .post('/api/v1/auth/simulator/start')
      .set('x-api-key', key)
      .send({
        endUserIp: '192.0.2.1',
        userVisibleData: "Hi O'Brien, log in to Select Dental AB (1 OR 2 people)",
        metadata: { email: 'first.last+tag@example.com' },
      });
    expect(res.status).toBe(200);
  });

  const countSessions = async () =>
    Number((await e2e.app.get(DataSource).query<{ n: string }[]>('SELECT count(*) AS n FROM sessions'))[0].n);
});
