import { randomBytes, randomUUID } from 'node:crypto';
import type { Pool, QueryConfig } from 'pg';
import { DataSource } from 'typeorm';
import { InsertBatcher } from '../../../src/database/insert-batcher.js';
import { PreparedSelect } from '../../../src/database/prepared-select.js';
import { SimulatorOrder } from '../../../src/eid-providers/simulator/simulator-order.entity.js';
import { Session } from '../../../src/sessions/session.entity.js';
import { SessionStore } from '../../../src/sessions/session.store.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { useE2eApp } from '../../support/e2e.js';

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

  it('should answer columns read as they hydrate (text, uuid, bytea, dates, nulls) as findOneBy does, with the same properties', async () => {
    const { key } = await createTeamWithKey(e2e.app);
    const started = await e2e.http.post('/api/v1/auth/simulator/start').set('x-api-key', key).send({ endUserIp: '192.0.2.1' }).expect(200);
    const dataSource = e2e.app.get(DataSource);
    const found = await dataSource.getRepository(Session).findOneByOrFail({ id: started.body.sessionId });

    const properties = ['id', 'provider', 'orderRef', 'hintCode', 'qrStartSecretEnc', 'expiresAt', 'completedAt'] as const;
    const read = await new PreparedSelect(dataSource, Session, 'id = $1', properties).many([found.id]);

    expect(read).toEqual([Object.fromEntries(properties.map((property) => [property, found[property]]))]);
    expect(Object.keys(read[0])).toEqual(properties);
    expect(read[0].expiresAt).toBeInstanceOf(Date);
    expect(read[0].qrStartSecretEnc).toBeInstanceOf(Buffer);
    expect(read[0].completedAt).toBeNull();
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
      ageOver: null,
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

  it("should write each session with its provider's order in one statement, and neither when the session cannot be written", async () => {
    const { team } = await createTeamWithKey(e2e.app);
    const dataSource = e2e.app.get(DataSource);
    const sessions = new InsertBatcher(dataSource, Session);
    const orders = new InsertBatcher(dataSource, SimulatorOrder);
    const orderOf = (): Omit<SimulatorOrder, 'seq'> => ({
      orderRef: randomUUID(),
      operation: 'auth',
      channel: 'app',
      endUserIp: '192.0.2.1',
      qrStartToken: randomUUID(),
      qrStartSecretEnc: Buffer.from([1, 2, 3]),
      autoStartTokenHash: randomBytes(32),
      personalNumberHash: null,
      userVisibleDataEnc: null,
      transactionEnc: null,
      createdAt: new Date('2026-11-22T10:00:00.123Z'),
      scannedAt: null,
      action: null,
      userEnc: null,
      signedTextsEnc: null,
      evidenceEnc: null,
      cancelledAt: null,
      returnUrl: null,
    });
    const pairs = Array.from({ length: 6 }, (_, i) => ({ session: sessionOf(i === 2 ? randomUUID() : team.id), order: orderOf() }));
    const statements: string[] = [];
    const { logger } = dataSource;
    const logQuery = logger.logQuery.bind(logger);
    logger.logQuery = (sql, parameters, runner) => (statements.push(sql), logQuery(sql, parameters, runner));
    let results: PromiseSettledResult<void>[];
    try {
      results = await Promise.allSettled(
        pairs.map(({ session, order }) => sessions.insert(session, [orders.rowOf(order as SimulatorOrder)])),
      );
    } finally {
      logger.logQuery = logQuery;
    }
    // The third session names no team (fk_sessions_team): it fails alone, and its order is not written either.
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(statements[0]).toMatch(/^WITH w0 AS \(INSERT INTO "simulator_orders" .*\) INSERT INTO "sessions"/);
    const orderRows = dataSource.getRepository(SimulatorOrder);
    for (const [i, { session, order }] of pairs.entries()) {
      const stored = await orderRows.findOneBy({ orderRef: order.orderRef });
      if (i === 2) {
        expect(stored).toBeNull();
        continue;
      }
      expect(await dataSource.getRepository(Session).findOneByOrFail({ id: session.id })).toEqual(session);
      expect(stored).toEqual({ ...order, seq: expect.any(String) });
    }
  });

  it('should answer concurrent reads from shared statements, each caller its own session of its team and environment only', async () => {
    const [{ team: mine }, { team: theirs }] = [await createTeamWithKey(e2e.app), await createTeamWithKey(e2e.app)];
    const dataSource = e2e.app.get(DataSource);
    const own = Array.from({ length: 6 }, () => sessionOf(mine.id));
    const other = sessionOf(theirs.id);
    const live = sessionOf(mine.id, { environment: 'live' });
    await dataSource.getRepository(Session).insert([...own, other, live]);
    const store = e2e.app.get(SessionStore, { strict: false });
    const pool = (dataSource.driver as unknown as { master: Pool }).master;
    const query = pool.query.bind(pool) as (config: QueryConfig) => Promise<unknown>;
    let statements = 0;
    (pool as unknown as { query: typeof query }).query = (config) => (config.text?.includes('key_team') && statements++, query(config));
    try {
      const asked = [
        ...own.map((row) => store.findForKey(row.id, mine.id, 'test')),
        store.findForKey(own[0].id, mine.id, 'test'),
        store.findForKey(other.id, mine.id, 'test'),
        store.findForKey(live.id, mine.id, 'test'),
        store.findForKey(own[1].id, theirs.id, 'test'),
        store.findForKey(randomUUID(), mine.id, 'test'),
      ];
      const found = await Promise.all(asked);
      expect(found.slice(0, 6).map((row) => row?.id)).toEqual(own.map((row) => row.id));
      for (const row of found.slice(0, 6)) expect(row).toBeInstanceOf(Session);
      // The same session asked twice at once: equal, yet not one object two callers could both change.
      expect(found[6]).toEqual(found[0]);
      expect(found[6]).toBeInstanceOf(Session);
      expect(found[6]).not.toBe(found[0]);
      expect(found.slice(7)).toEqual([null, null, null, null]);
    } finally {
      (pool as unknown as { query: typeof query }).query = query;
    }
    // The first read leaves at once; the eleven that queued behind it share one statement.
    expect(statements).toBe(2);
  });

  it("should plan a team's session read on the primary key even before the table has statistics", async () => {
    // Rows of one team written just now, as the bench's start step leaves them: no analysis has seen them.
    const { team } = await createTeamWithKey(e2e.app);
    const dataSource = e2e.app.get(DataSource);
    const rows = Array.from({ length: 300 }, () => sessionOf(team.id));
    await dataSource.getRepository(Session).insert(rows);
    // The statement a poll sends, taken on its way to the pool (it still runs).
    const pool = (dataSource.driver as unknown as { master: Pool }).master;
    const query = pool.query.bind(pool) as (config: QueryConfig) => Promise<unknown>;
    const sent: string[] = [];
    (pool as unknown as { query: typeof query }).query = (config) => (sent.push(config.text), query(config));
    try {
      expect((await e2e.app.get(SessionStore, { strict: false }).findForKey(rows[0].id, team.id, 'test'))?.id).toBe(rows[0].id);
    } finally {
      (pool as unknown as { query: typeof query }).query = query;
    }
    expect(sent).toHaveLength(1);
    // The generic plan a prepared statement keeps after five runs; it does not depend on the values.
    const plan = await dataSource.transaction(async (manager) => {
      await manager.query(`SET LOCAL plan_cache_mode = force_generic_plan`);
      await manager.query(`PREPARE session_for_key AS ${sent[0]}`);
      try {
        const [row] = await manager.query(
          `EXPLAIN (FORMAT JSON) EXECUTE session_for_key('{00000000-0000-4000-8000-000000000000}', '{00000000-0000-4000-8000-000000000000}', '{test}')`,
        );
        return JSON.stringify(row['QUERY PLAN']);
      } finally {
        await manager.query(`DEALLOCATE session_for_key`);
      }
    });
    expect(plan).toContain('"Node Type":"Nested Loop"');
    expect(plan).toContain('"Index Name":"pk_sessions"');
    expect(plan).not.toContain('Seq Scan');
  });
});
