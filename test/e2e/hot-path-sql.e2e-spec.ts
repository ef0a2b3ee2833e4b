import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { InsertBatcher } from '../../src/database/insert-batcher.js';
import { PreparedSelect } from '../../src/database/prepared-select.js';
import { Session } from '../../src/sessions/session.entity.js';
import { createTeamWithKey } from '../support/fixtures.js';
import { useE2eApp } from '../support/e2e.js';

/** The hot-path reader and writer must read and write exactly what TypeORM's find and insert do. */
describe('Hot-path SQL on the sessions table', () => {
  // The rows are pending and past due: a background collect would move their lastCollectedAt mid-test.
  const e2e = useE2eApp({ stopBackgroundJobs: true });

  it('should hydrate pending and completed sessions (dates, json, bytea, nulls) exactly as findOneBy does', async () => {
    e2e.clock.freeze();
    const { key } = await createTeamWithKey(e2e.app);
    const start = () =>
      e2e.http
        .post('/api/v1/auth/simulator/start')
        .set('x-api-key', key)
        .send({ endUserIp: '192.0.2.1', metadata: { orderId: 'A-1' } })
        .expect(200);
    const pending = (await start()).body;
    const completed = (await start()).body;
    await e2e.http.post('/api/v1/simulator/scan').send({ autoStartToken: completed.autoStartToken }).expect(200);
    e2e.clock.advance(2_000); // the next collect is due
    await e2e.collect();
    expect((await e2e.http.post(`/api/v1/auth/${completed.sessionId}/poll`).set('x-api-key', key).expect(200)).body.status).toBe(
      'complete',
    );

    const dataSource = e2e.app.get(DataSource);
    const reader = new PreparedSelect(dataSource, Session, 'id = $1 AND team_id = $2');
    for (const id of [pending.sessionId, completed.sessionId]) {
      const found = await dataSource.getRepository(Session).findOneByOrFail({ id });
      const read = await reader.one([id, found.teamId]);
      expect(read).toBeInstanceOf(Session);
      expect(read).toEqual(found);
    }
    expect((await dataSource.getRepository(Session).findOneByOrFail({ id: completed.sessionId })).completionEnc).toBeInstanceOf(Buffer);
    // Another team's id finds nothing.
    expect(await reader.one([pending.sessionId, randomUUID()])).toBeNull();
  });

  it('should read only the given columns, each as findOneBy hydrates it', async () => {
    const { key } = await createTeamWithKey(e2e.app);
    const started = await e2e.http
      .post('/api/v1/auth/simulator/start')
      .set('x-api-key', key)
      .send({ endUserIp: '192.0.2.1', metadata: { orderId: 'A-1' } })
      .expect(200);
    const dataSource = e2e.app.get(DataSource);
    const found = await dataSource.getRepository(Session).findOneByOrFail({ id: started.body.sessionId });

    const reader = new PreparedSelect(dataSource, Session, 'id = $1', ['id', 'expiresAt', 'metadata', 'qrStartSecretEnc', 'autoRenew']);

    expect(reader.columnList).toBe('"id", "expires_at", "metadata", "qr_start_secret_enc", "auto_renew"');
    expect(await reader.one([found.id])).toEqual({
      id: found.id,
      expiresAt: found.expiresAt,
      metadata: found.metadata,
      qrStartSecretEnc: found.qrStartSecretEnc,
      autoRenew: found.autoRenew,
    });
    expect(() => new PreparedSelect(dataSource, Session, 'id = $1', ['nope' as keyof Session])).toThrow('Session has no column nope');
  });

  /** A session row as SessionStore writes it, of the given team. */
  const sessionOf = (teamId: string, overrides: Partial<Session> = {}): Session =>
    Object.assign(new Session(), {
      id: randomUUID(),
      teamId,
      apiKeyId: null,
      environment: 'test',
      provider: 'simulator',
      operation: 'auth',
      channel: 'app',
      orderRef: randomUUID(),
      status: 'pending',
      hintCode: 'outstandingTransaction',
      qrStartToken: randomUUID(),
      qrStartSecretEnc: Buffer.from([0, 1, 2, 255]),
      orderTime: new Date('2026-11-22T10:00:00.123Z'),
      endUserIp: '192.0.2.1',
      metadata: { orderId: 'A-1', paid: true, amount: 12.5, note: null },
      completionEnc: null,
      signedTextsEnc: null,
      evidenceEnc: null,
      resultTokenEnc: null,
      createdAt: new Date('2026-11-22T10:00:00.123Z'),
      expiresAt: new Date('2026-11-22T10:03:00.123Z'),
      completedAt: null,
      lastCollectedAt: new Date('2026-11-22T10:00:00.123Z'),
      piiPurgedAt: null,
      returnNonceHash: null,
      returnNonceFailures: 0,
      returnedAt: null,
      launchUrlEnc: null,
      autoRenew: false,
      renewalRequestEnc: null,
      renewals: 0,
      maxRisk: null,
      ...overrides,
    });

  it('should insert rows written concurrently, in fewer statements, exactly as TypeORM writes them', async () => {
    const { team } = await createTeamWithKey(e2e.app);
    const dataSource = e2e.app.get(DataSource);
    const batcher = new InsertBatcher(dataSource, Session);
    const rows = Array.from({ length: 40 }, () => sessionOf(team.id));
    const statements: string[] = [];
    const { logger } = dataSource;
    const logQuery = logger.logQuery.bind(logger);
    // Counts the statements that reach the database: every one passes TypeORM's logger.
    logger.logQuery = (sql, parameters, runner) => (statements.push(sql), logQuery(sql, parameters, runner));
    try {
      await Promise.all(rows.map((row) => batcher.insert(row)));
    } finally {
      logger.logQuery = logQuery;
    }
    expect(statements.length).toBeLessThan(rows.length);
    expect(statements[0]).toMatch(/^INSERT INTO "sessions"/);
    for (const row of rows) expect(await dataSource.getRepository(Session).findOneByOrFail({ id: row.id })).toEqual(row);
  });

  it('should fail only the row that breaks a constraint, not the others of its batch', async () => {
    const { team } = await createTeamWithKey(e2e.app);
    const batcher = new InsertBatcher(e2e.app.get(DataSource), Session);
    const good = Array.from({ length: 5 }, () => sessionOf(team.id));
    const orphan = sessionOf(randomUUID()); // no such team: fk_sessions_team
    const results = await Promise.allSettled([good[0], orphan, ...good.slice(1)].map((row) => batcher.insert(row)));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/fk_sessions_team/);
    expect(await e2e.app.get(DataSource).getRepository(Session).countBy({ teamId: team.id })).toBe(5);
  });
});
