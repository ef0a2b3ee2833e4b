import { TokensService } from '../../../src/tokens/tokens.service.js';
import { UsersService } from '../../../src/users/users.service.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { useE2eApp } from '../../support/e2e.js';
import { expectMatchesSchema } from '../../support/openapi.js';
import { OVERVIEW_EXPECTED, seedOverview } from '../../support/overview-seed.js';
import { expectProblem, expectValidationProblem } from '../../support/problem.js';

describe('GET /api/v1/stats: the overview figures, walled by team and environment', () => {
  const e2e = useE2eApp({ withKey: true });
  let bearer: string;
  let otherBearer: string;

  const stats = (query: string, authorization = bearer) => e2e.http.get(`/api/v1/stats?${query}`).set('authorization', authorization);

  async function memberBearer(teamId: string, email: string): Promise<string> {
    const user = await e2e.app.get(UsersService).create({ teamId, email });
    return `Bearer ${(await e2e.app.get(TokensService).issue({ userId: user.id, teamId, clientId: 'test' })).token}`;
  }

  beforeAll(async () => {
    await seedOverview(e2e.app, e2e.team.id, e2e.apiKey.id);
    const other = await createTeamWithKey(e2e.app);
    bearer = await memberBearer(e2e.team.id, 'stats@example.com');
    otherBearer = await memberBearer(other.team.id, 'other-stats@example.com');
  });

  it("should count the team's test sessions of the last 24 hours by outcome, provider and failure", async () => {
    const res = await stats('environment=test&range=24h').expect(200);
    expectMatchesSchema(res, 'GET /api/v1/stats');
    const { sessions, webhooks, apiKeys } = res.body;
    const expected = OVERVIEW_EXPECTED.test24h;
    expect(res.body).toMatchObject({ environment: 'test', range: '24h', bucket: 'hour' });
    expect(sessions.total).toBe(expected.total);
    expect(sessions.byOutcome).toEqual(expected.byOutcome);
    expect(sessions.shareCompleted).toBeCloseTo(expected.shareCompleted);
    expect(sessions.completionMs).toEqual(expected.completionMs);
    expect(sessions.series).toHaveLength(24);
    expect(sessions.series.reduce((sum: number, bucket: { complete: number }) => sum + bucket.complete, 0)).toBe(6);
    expect(sessions.byProvider).toEqual([
      // As many of each: by name.
      { provider: 'bankid', total: 8, complete: 2, failed: 3, cancelled: 3, expired: 0, pending: 0 },
      { provider: 'simulator', total: 8, complete: 4, failed: 0, cancelled: 1, expired: 2, pending: 1 },
    ]);
    expect(sessions.topFailures).toEqual([
      // BankID is not enabled in this test's deployment: its words are not known here.
      { provider: 'bankid', hintCode: 'startFailed', count: 3, userMessageCode: null, userMessage: null },
      { provider: 'bankid', hintCode: 'userCancel', count: 3, userMessageCode: null, userMessage: null },
      {
        provider: 'simulator',
        hintCode: 'expiredTransaction',
        count: 2,
        userMessageCode: 'RFA8',
        userMessage: {
          code: 'RFA8',
          sv: expect.stringContaining('BankID-appen svarar inte'),
          en: expect.stringContaining('not responding'),
        },
      },
      {
        provider: 'simulator',
        hintCode: 'cancelled',
        count: 1,
        userMessageCode: 'RFA3',
        userMessage: { code: 'RFA3', sv: 'Åtgärden avbruten. Försök igen.', en: expect.any(String) },
      },
    ]);
    expect(webhooks).toMatchObject({
      total: 5,
      byOutcome: { delivered: 4, failed: 1, pending: 0 },
      attempts: 7,
      latencyMs: { median: 400, p95: 1000 },
    });
    expect(apiKeys).toEqual([
      expect.objectContaining({ id: e2e.apiKey.id, displayPrefix: e2e.apiKey.displayPrefix, usageThisMonth: expect.any(Object) }),
    ]);
    expect(JSON.stringify(res.body)).not.toContain('order-');
  });

  it('should take 30 days in UTC days and include the older session', async () => {
    const res = await stats('environment=test&range=30d').expect(200);
    expect(res.body.bucket).toBe('day');
    expect(res.body.sessions.series).toHaveLength(30);
    expect(res.body.sessions.total).toBe(OVERVIEW_EXPECTED.test30dTotal);
    expect((await stats('environment=test&range=7d').expect(200)).body.sessions.total).toBe(OVERVIEW_EXPECTED.test24h.total);
  });

  it('should keep the live environment apart', async () => {
    const res = await stats('environment=live&range=24h').expect(200);
    expect(res.body.sessions.total).toBe(OVERVIEW_EXPECTED.live24hTotal);
    expect(res.body.sessions.byOutcome.complete).toBe(5);
    expect(res.body.webhooks.total).toBe(0);
    expect(res.body.apiKeys).toEqual([]);
  });

  it("should show another team none of this team's figures", async () => {
    const res = await stats('environment=test&range=30d', otherBearer).expect(200);
    expect(res.body.sessions.total).toBe(0);
    expect(res.body.sessions.shareCompleted).toBeNull();
    expect(res.body.sessions.completionMs).toEqual({ median: null, p95: null });
    expect(res.body.webhooks.total).toBe(0);
    expect(res.body.apiKeys.map((key: { id: string }) => key.id)).not.toContain(e2e.apiKey.id);
  });

  it('should refuse an unknown range or environment, an API key and no credential', async () => {
    expectValidationProblem(await stats('environment=prod&range=24h').expect(400));
    expectValidationProblem(await stats('environment=test&range=1y').expect(400));
    expectValidationProblem(await stats('range=24h').expect(400));
    expectProblem(
      await e2e.http.get('/api/v1/stats?environment=test&range=24h').set('x-api-key', e2e.key).expect(403),
      403,
      'endpoint_not_available',
    );
    await e2e.http.get('/api/v1/stats?environment=test&range=24h').expect(401);
  });
});
