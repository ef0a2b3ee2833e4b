import { DataSource } from 'typeorm';
import { TokensService } from '../../../src/tokens/tokens.service.js';
import { UsersService } from '../../../src/users/users.service.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { useE2eApp } from '../../support/e2e.js';
import { expectMatchesSchema } from '../../support/openapi.js';
import { expectValidationProblem } from '../../support/problem.js';

const ROWS = 2_500;
const BASE = Date.parse('2026-11-01T00:00:00.000Z');

describe('POST /api/v1/sessions: the tabular listing on real SQL', () => {
  const e2e = useE2eApp();
  let bearer: string;
  let apiKey: string;

  const list = (body: object) =>
    e2e.http
      .post('/api/v1/sessions')
      .set('authorization', bearer)
      .send(body)
      .expect((res) => expectMatchesSchema(res, 'POST /api/v1/sessions'));
  const ids = (rows: { sessionId: string }[]) => rows.map((row) => row.sessionId);

  /**
   * Session n of the team: created n minutes after BASE; every third complete (n ms long), every third
   * failed with a hint, the rest pending. Another team's sessions sit beside them. Their last collect
   * lies in the future, so the background collector leaves these made-up orders alone.
   */
  async function seed(teamId: string, otherTeamId: string, apiKeyId: string): Promise<void> {
    await e2e.app.get(DataSource).query(
      `INSERT INTO sessions (id, team_id, api_key_id, environment, provider, order_ref, status, hint_code, order_time, end_user_ip,
                             metadata, created_at, expires_at, completed_at, last_collected_at)
       SELECT ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid,
              CASE WHEN n > $2 THEN $4::uuid ELSE $3::uuid END, $5::uuid, 'test', 'simulator', 'order-' || n,
              (ARRAY['complete', 'failed', 'pending'])[n % 3 + 1],
              (ARRAY[NULL, 'userCancel', 'outstandingTransaction'])[n % 3 + 1],
              $1::timestamptz + n * interval '1 minute', '192.0.2.1', '{"orderId":"secret"}',
              $1::timestamptz + n * interval '1 minute', $1::timestamptz + n * interval '1 minute' + interval '3 minutes',
              CASE WHEN n % 3 = 2 THEN NULL ELSE $1::timestamptz + n * interval '1 minute' + n * interval '1 millisecond' END,
              'infinity'
         FROM generate_series(1, $2 + 50) AS n`,
      [new Date(BASE), ROWS, teamId, otherTeamId, apiKeyId],
    );
  }

  beforeAll(async () => {
    const owner = await createTeamWithKey(e2e.app);
    const other = await createTeamWithKey(e2e.app);
    apiKey = owner.key;
    await seed(owner.team.id, other.team.id, owner.apiKey.id);
    const user = await e2e.app.get(UsersService).create({ teamId: owner.team.id, email: 'lists@example.com' });
    bearer = `Bearer ${(await e2e.app.get(TokensService).issue({ userId: user.id, teamId: user.teamId, clientId: 'test' })).token}`;
  });

  it.each([1_000, 700, 500])('should page through all 2,500 rows %p at a time with lastrow right on every page', async (pageSize) => {
    const seen: string[] = [];
    let startRow = 0;
    for (;;) {
      const res = await list({ startRow, endRow: startRow + pageSize, sortModel: [{ colId: 'createdAt', sort: 'asc' }] }).expect(200);
      expect(res.body.success).toBe(true);
      seen.push(...ids(res.body.rows));
      const last = startRow + pageSize >= ROWS;
      // A page that ends exactly at the last row is the last page: its lastrow is already the total.
      expect(res.body.lastrow).toBe(last ? ROWS : -1);
      expect(res.body.rows).toHaveLength(last ? ROWS - startRow : pageSize);
      if (res.body.lastrow !== -1) break;
      startRow += pageSize;
    }
    expect(seen).toHaveLength(ROWS);
    expect(new Set(seen).size).toBe(ROWS);
    expect(seen[0]).toBe('00000000-0000-4000-8000-000000000001');
    expect(seen.at(-1)).toBe('00000000-0000-4000-8000-000000002500');
  });

  it('should give the total as lastrow for a page past the end', async () => {
    await list({ startRow: 3_000, endRow: 3_100 }).expect(200, { success: true, rows: [], lastrow: ROWS });
  });

  it('should show status and times only, never personal data or metadata', async () => {
    const res = await list({ startRow: 0, endRow: 3, sortModel: [{ colId: 'createdAt', sort: 'asc' }] }).expect(200);
    expect(res.body.rows[0]).toEqual({
      sessionId: '00000000-0000-4000-8000-000000000001',
      provider: 'simulator',
      environment: 'test',
      operation: 'auth',
      channel: 'app',
      status: 'failed',
      hintCode: 'userCancel',
      apiKeyId: expect.any(String),
      createdAt: '2026-11-01T00:01:00.000Z',
      expiresAt: '2026-11-01T00:04:00.000Z',
      completedAt: '2026-11-01T00:01:00.001Z',
      durationMs: 1,
    });
    // Null values are left out (the v2 convention): a pending session has no completedAt or duration.
    expect(Object.keys(res.body.rows[1])).not.toContain('completedAt');
    expect(JSON.stringify(res.body)).not.toMatch(/192\.0\.2\.1|secret|orderId/);
  });

  it('should filter by set, date range, text, number and blank, combined with AND/OR, on real SQL', async () => {
    const filtered = async (filterModel: object) => (await list({ startRow: 0, endRow: 1_000, filterModel }).expect(200)).body;

    expect(
      (await filtered({ status: { filterType: 'set', values: ['complete'] } })).rows.every(
        (row: { status: string }) => row.status === 'complete',
      ),
    ).toBe(true);
    // Session n starts n minutes after midnight: sessions 1 to 1,439 fall on 2026-11-01.
    const firstDay = await filtered({ createdAt: { filterType: 'date', type: 'inRange', dateFrom: '2026-11-01', dateTo: '2026-11-01' } });
    expect(firstDay.rows).toHaveLength(1_000);
    expect(firstDay.lastrow).toBe(-1);
    const secondDayOn = { createdAt: { filterType: 'date', type: 'greaterThan', dateFrom: '2026-11-01' } };
    const secondPage = await list({ startRow: 1_000, endRow: 2_000, filterModel: secondDayOn }).expect(200);
    expect(secondPage.body.lastrow).toBe(ROWS - 1_439);

    const contains = await filtered({ sessionId: { filterType: 'text', type: 'endsWith', filter: '8000-000000002499' } });
    expect(ids(contains.rows)).toEqual(['00000000-0000-4000-8000-000000002499']);
    // A LIKE wildcard in the value matches itself only.
    expect((await filtered({ sessionId: { filterType: 'text', type: 'contains', filter: '%' } })).rows).toEqual([]);
    expect((await filtered({ hintCode: { filterType: 'text', type: 'equals', filter: `O'Brien'; "x" -- y` } })).rows).toEqual([]);
    // A value that reads as an injection does not reach SQL at all: the input guard refuses it (docs/protection.md).
    await list({
      startRow: 0,
      endRow: 10,
      filterModel: { hintCode: { filterType: 'text', type: 'equals', filter: "O'Brien'; DROP TABLE sessions; --" } },
    }).expect(400);

    const long = await filtered({ durationMs: { filterType: 'number', type: 'greaterThan', filter: 2_490 } });
    expect(ids(long.rows).sort()).toEqual(
      [2_491, 2_493, 2_494, 2_496, 2_497, 2_499, 2_500].map((n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`),
    );
    expect(
      (await filtered({ completedAt: { filterType: 'date', type: 'blank' } })).rows.every(
        (row: { status: string }) => row.status === 'pending',
      ),
    ).toBe(true);

    const either = await filtered({
      hintCode: {
        filterType: 'text',
        operator: 'OR',
        conditions: [
          { filterType: 'text', type: 'equals', filter: 'USERCANCEL' },
          { filterType: 'text', type: 'blank' },
        ],
      },
      durationMs: { filterType: 'number', type: 'lessThan', filter: 10 },
    });
    expect(either.lastrow).toBe(6);
    expect(either.rows.map((row: { status: string }) => row.status).sort()).toEqual([
      'complete',
      'complete',
      'complete',
      'failed',
      'failed',
      'failed',
    ]);
  });

  it('should sort by several columns', async () => {
    const res = await list({
      startRow: 0,
      endRow: 4,
      sortModel: [
        { colId: 'status', sort: 'desc' },
        { colId: 'createdAt', sort: 'desc' },
      ],
    }).expect(200);
    expect(res.body.rows.map((row: { status: string }) => row.status)).toEqual(['pending', 'pending', 'pending', 'pending']);
    expect(ids(res.body.rows)[0]).toBe('00000000-0000-4000-8000-000000002498');
  });

  it.each([
    [{ startRow: 0, endRow: 1_001 }, '/endRow'],
    [
      { startRow: 0, endRow: 10, filterModel: { endUserIp: { filterType: 'text', type: 'equals', filter: '192.0.2.1' } } },
      '/filterModel/endUserIp',
    ],
    [{ startRow: 0, endRow: 10, sortModel: [{ colId: 'metadata', sort: 'asc' }] }, '/sortModel/0/colId'],
    [{ startRow: 0, endRow: 10, sortModel: [{ colId: 'status', sort: 'sideways' }] }, '/sortModel/0/sort'],
    [{ startRow: -1, endRow: 10 }, '/startRow'],
    [{ endRow: 10 }, '/startRow'],
    [{ startRow: 0, endRow: 10, filterModel: [] }, '/filterModel'],
  ])('should answer 400 with the field for %j', async (body, pointer) => {
    expect(expectValidationProblem(await list(body))).toContain(pointer);
  });

  it('should be closed to API keys', async () => {
    expect((await e2e.http.post('/api/v1/sessions').set('x-api-key', apiKey).send({ startRow: 0, endRow: 10 }).expect(403)).body.code).toBe(
      'endpoint_not_available',
    );
  });
});
