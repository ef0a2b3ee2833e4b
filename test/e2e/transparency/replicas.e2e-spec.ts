import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jest } from '@jest/globals';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { DataSource } from 'typeorm';
import { SessionSettlement } from '../../../src/sessions/settlement/session-settlement.js';
import { TransparencyLog } from '../../../src/transparency/transparency-log.service.js';
import { createTestApp, type TestApp } from '../../support/create-test-app.js';
import { httpOf, useTestDatabase } from '../../support/e2e.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { consistencyHolds, inclusionHolds, tokenLeafHex } from '../../support/rfc9162-reference.js';
import { buildService } from '../../support/service-process.js';
import { usingRealPostgres } from '../../support/test-postgres.js';
import { completeSimulatorSession } from '../../support/webhooks.js';

const run = promisify(execFile);
// Replicas share a PostgreSQL server; the embedded database belongs to one process.
const describeOnPostgres = usingRealPostgres() ? describe : describe.skip;

type Head = { treeSize: number; rootHash: string; jws: string };

describeOnPostgres('Transparency log: two replicas, a restart, and a bundle checked with the service stopped', () => {
  jest.setTimeout(180_000);
  const database = useTestDatabase();
  let service: Awaited<ReturnType<typeof buildService>>;
  let dir: string;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    [service, dir] = await Promise.all([buildService(), mkdtemp(join(tmpdir(), 'eidgw-transparency-'))]);
  });
  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
    await service?.remove();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const start = async () => {
    const app = await createTestApp(database.current.env);
    app.stopBackgroundJobs();
    apps.push(app);
    return app;
  };
  const tokenOf = async (app: TestApp, key: string, sessionId: string): Promise<string> =>
    (await httpOf(app.app).post(`/api/v1/auth/${sessionId}/poll`).set('x-api-key', key).expect(200)).body.resultToken;
  const headsIn = async (app: TestApp): Promise<Head[]> =>
    (
      await app.app
        .get(DataSource)
        .query(`SELECT tree_size, encode(root_hash, 'hex') AS root_hash, jws FROM transparency_tree_heads ORDER BY tree_size`)
    ).map((row: { tree_size: string; root_hash: string; jws: string }) => ({
      treeSize: Number(row.tree_size),
      rootHash: row.root_hash,
      jws: row.jws,
    }));
  const expectOneLinearLog = async (app: TestApp, heads: Head[], tokens: string[]) => {
    const http = httpOf(app.app);
    const keys: JSONWebKeySet = (await http.get('/.well-known/jwks.json').expect(200)).body;
    for (const head of heads) {
      const { payload } = await jwtVerify(head.jws, createLocalJWKSet(keys), { typ: 'eidgw-sth+jwt' });
      expect(payload).toMatchObject({ treeSize: head.treeSize, rootHash: head.rootHash });
    }
    // Every head extends the one before it: one history, never a fork.
    for (let i = 1; i < heads.length; i++) {
      const [older, newer] = [heads[i - 1], heads[i]];
      if (older.treeSize === 0) continue;
      const { body } = await http.get('/transparency/consistency').query({ from: older.treeSize, to: newer.treeSize }).expect(200);
      expect(consistencyHolds(older.treeSize, newer.treeSize, body.consistencyProof, older.rootHash, newer.rootHash)).toBe(true);
    }
    // Every token once, at its own index, and proven against the last head.
    const last = heads[heads.length - 1];
    expect(last.treeSize).toBe(tokens.length);
    const indexes = new Set<number>();
    for (const token of tokens) {
      const { body } = await http
        .get('/transparency/proof')
        .query({ leaf: tokenLeafHex(token), size: last.treeSize })
        .expect(200);
      expect(inclusionHolds(tokenLeafHex(token), body.leafIndex, last.treeSize, body.inclusionProof, last.rootHash)).toBe(true);
      indexes.add(body.leafIndex);
    }
    expect(indexes.size).toBe(tokens.length);
  };

  it('should keep one linear log while two replicas append concurrently, and after both restart', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    const { key } = await createTeamWithKey(a.app);
    const publish = (app: TestApp, wait: boolean) => app.app.get(TransparencyLog).publish(wait);

    // Sessions end on both replicas while both keep appending, waiting for the lock or giving up on it.
    const sessionIds: string[] = [];
    await Promise.all(
      [a, b].map(async (app, n) => {
        for (let i = 0; i < 6; i++) {
          sessionIds.push(await completeSimulatorSession(app.app, app.clock, key));
          await Promise.all([publish(a, (i + n) % 2 === 0), publish(b, (i + n) % 2 === 1), publish(app, true)]);
        }
      }),
    );
    // Each replica's test clock runs apart: one's collector may claim the other's session before its scan
    // and set its next collect in its own clock's future, where the other's collect does not reach. A
    // poll answers the stored state, so both collect once more past every such claim, as the running
    // collectors would; then the last append.
    for (const app of [a, b]) {
      app.clock.advance(5_000);
      await app.app.get(SessionSettlement).collectDue();
    }
    await publish(b, true);
    const tokens = await Promise.all(sessionIds.map((id) => tokenOf(a, key, id)));
    expect(await a.app.get(DataSource).query(`SELECT count(*)::int AS n FROM transparency_pending`)).toEqual([{ n: 0 }]);
    const heads = await headsIn(a);
    expect(heads.length).toBeGreaterThan(2);
    await expectOneLinearLog(b, heads, tokens);

    // A bundle taken now, then every replica stops.
    const bundle = (await httpOf(a.app).get(`/api/v1/sessions/${sessionIds[0]}/bundle`).set('x-api-key', key).expect(200)).body;
    for (const app of apps.splice(0)) await app.close();

    // With no service and no database in its environment, the command line checks the bundle.
    const file = join(dir, 'bundle.json');
    await writeFile(file, JSON.stringify(bundle));
    const offline = await run(process.execPath, [service.cli, 'verify-bundle', file], { env: { PATH: process.env.PATH ?? '' } });
    expect(JSON.parse(offline.stdout)).toMatchObject({ valid: true, result: { sessionId: sessionIds[0], status: 'complete' } });
    const changed = JSON.parse(JSON.stringify(bundle));
    changed.transparency.inclusionProof[0] = changed.transparency.inclusionProof[0].replace(/^./, (c: string) => (c === '0' ? '1' : '0'));
    await writeFile(join(dir, 'changed.json'), JSON.stringify(changed));
    const refused = await run(process.execPath, [service.cli, 'verify-bundle', join(dir, 'changed.json')], {
      env: { PATH: process.env.PATH ?? '' },
    }).catch((error: { code: number; stderr: string }) => error);
    expect('code' in refused && refused.code).toBe(1);
    const verdict = JSON.parse((refused as { stderr: string }).stderr);
    expect(verdict.checks.filter((check: { ok: boolean }) => !check.ok).map((check: { part: string }) => check.part)).toEqual([
      'inclusionProof',
    ]);

    // A restart continues the same log: the old heads stay, new leaves extend them.
    const c = await start();
    for (let i = 0; i < 3; i++) sessionIds.push(await completeSimulatorSession(c.app, c.clock, key));
    await publish(c, true);
    const after = await headsIn(c);
    expect(after.slice(0, heads.length)).toEqual(heads);
    await expectOneLinearLog(c, after, [
      ...tokens,
      ...(await Promise.all(sessionIds.slice(tokens.length).map((id) => tokenOf(c, key, id)))),
    ]);

    // The RP's old bundle, refreshed against the new head: the proof the service gives after the restart.
    const proofFile = join(dir, 'proof.json');
    await writeFile(
      proofFile,
      JSON.stringify((await httpOf(c.app).get('/transparency/proof').query({ leaf: bundle.transparency.leafHash }).expect(200)).body),
    );
    const refreshed = await run(process.execPath, [service.cli, 'verify-bundle', file, '--proof', proofFile], {
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(JSON.parse(refreshed.stdout)).toMatchObject({ valid: true, treeHead: { treeSize: after[after.length - 1].treeSize } });
  });
});
