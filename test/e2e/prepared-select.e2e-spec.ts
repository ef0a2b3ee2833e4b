import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { PreparedSelect } from '../../src/database/prepared-select.js';
import { Session } from '../../src/sessions/session.entity.js';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '../support/create-test-app.js';
import { createTeamWithKey } from '../support/fixtures.js';

/** The hot-path reader must hand out exactly what TypeORM's find does, column for column. */
describe('PreparedSelect on the sessions table', () => {
  let database: TestDatabase;
  let testApp: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    testApp = await createTestApp(database.env);
  });

  afterAll(async () => {
    await testApp?.close();
    await database?.drop();
  });

  it('should hydrate pending and completed sessions (dates, json, bytea, nulls) exactly as findOneBy does', async () => {
    testApp.clock.freeze();
    const http = request(testApp.app.getHttpServer());
    const { key } = await createTeamWithKey(testApp.app);
    const start = () =>
      http.post('/api/v1/auth/simulator/start').set('x-api-key', key).send({ endUserIp: '192.0.2.1', metadata: { orderId: 'A-1' } }).expect(200);
    const pending = (await start()).body;
    const completed = (await start()).body;
    await http.post('/api/v1/simulator/scan').send({ autoStartToken: completed.autoStartToken }).expect(200);
    testApp.clock.advance(2_000); // the next collect is due
    expect((await http.post(`/api/v1/auth/${completed.sessionId}/poll`).set('x-api-key', key).expect(200)).body.status).toBe('complete');

    const dataSource = testApp.app.get(DataSource);
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
});
