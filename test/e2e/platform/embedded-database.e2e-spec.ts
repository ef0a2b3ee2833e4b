import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { runCli } from '../../../src/cli/run-cli.js';
import { EmbeddedPostgres } from '../../../src/database/embedded-postgres.js';
import { writeEmbeddedSeed } from '../../../src/database/embedded-seed.js';
import { ENTITIES } from '../../../src/app.entities.js';
import { MIGRATIONS } from '../../../src/database/migrations.js';
import { createTestApp, withEnv } from '../../support/create-test-app.js';
import { httpOf, useTestDatabase } from '../../support/e2e.js';

// PGlite's first initdb takes seconds, and much longer on a loaded 2-core machine.
const SLOW = 120_000;

describe('Embedded database (PGlite): first start, restart, CLI beside the server', () => {
  const database = useTestDatabase({ embedded: true, timeout: SLOW });

  it(
    'should migrate, create the dev team and key once, and keep both across a restart',
    async () => {
      const first = await createTestApp(database.current.env);
      const keyFile = join(database.current.env.DATA_DIR, 'dev-api-key');
      const pgdata = join(database.current.env.DATA_DIR, 'pgdata');
      let key: string;
      try {
        const http = httpOf(first.app);
        expect((await http.get('/health/ready').expect(200)).body.checks.migrations).toBe('applied');
        key = (await readFile(keyFile, 'utf8')).trim();
        expect(key).toMatch(/^eidk_test_/);
        expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
        // PGlite writes its files 0666: only the owner may enter the directory that holds them.
        expect((await stat(pgdata)).mode & 0o077).toBe(0);
        await http.post('/api/v1/auth/simulator/start').set('x-api-key', key).send({ endUserIp: '192.0.2.1' }).expect(200);

        // The CLI works beside the running server, through its socket, on the session the server's
        // own prepared statements live in: a key it makes works on the API at once (the README's tour).
        const cli = await withEnv({ ...database.current.env }, () =>
          runCli(['teams', 'create', '--name', 'beside', '--plan', 'pro', '--subscription-until', '2099-01-01T00:00:00Z']),
        );
        expect(cli).toMatchObject({ exitCode: 0, output: { name: 'beside' } });
        const team = (cli.output as { id: string }).id;
        for (let i = 0; i < 2; i++) {
          const made = await withEnv({ ...database.current.env }, () =>
            runCli(['keys', 'create', '--team', team, '--env', 'test', '--name', `beside ${i}`]),
          );
          expect(made).toMatchObject({ exitCode: 0, output: { key: expect.stringMatching(/^eidk_test_/) } });
          const besideKey = (made.output as { key: string }).key;
          await http.post('/api/v1/auth/simulator/start').set('x-api-key', besideKey).send({ endUserIp: '192.0.2.1' }).expect(200);
        }
      } finally {
        await first.close();
      }

      // A directory an older version left 0755 is closed again at the next start.
      await chmod(pgdata, 0o755);
      const second = await createTestApp(database.current.env);
      try {
        const dataSource = second.app.get(DataSource);
        expect((await dataSource.query('SELECT count(*)::int AS n FROM migrations'))[0].n).toBe(MIGRATIONS.length);
        expect((await dataSource.query(`SELECT name FROM teams ORDER BY name`)).map((t: { name: string }) => t.name)).toEqual([
          'beside',
          'dev',
        ]);
        expect((await readFile(keyFile, 'utf8')).trim()).toBe(key);
        expect((await stat(pgdata)).mode & 0o077).toBe(0);
        await httpOf(second.app).post('/api/v1/auth/simulator/start').set('x-api-key', key).send({ endUserIp: '192.0.2.1' }).expect(200);
      } finally {
        await second.close();
      }
    },
    SLOW,
  );

  it(
    'should let the CLI open the embedded database itself when no server runs',
    async () => {
      const result = await withEnv({ ...database.current.env }, () => runCli(['migrate']));
      expect(result).toEqual({ exitCode: 0, output: { applied: [] } });
    },
    SLOW,
  );

  it(
    'should refuse a second server on the same DATA_DIR with a clear message',
    async () => {
      const running = await createTestApp(database.current.env);
      try {
        await expect(createTestApp(database.current.env)).rejects.toThrow(/already open in another process/);
      } finally {
        await running.close();
      }
    },
    SLOW,
  );

  it(
    "should start a new DATA_DIR from the build's seed with every migration applied and its folder closed",
    async () => {
      const scratch = await mkdtemp(join(tmpdir(), 'eidgw-seed-test-'));
      try {
        const seed = join(scratch, 'pgdata.tar.gz');
        await writeEmbeddedSeed(seed, ENTITIES);
        const embedded = await EmbeddedPostgres.open(join(scratch, 'data'), seed);
        const dataSource = new DataSource({ type: 'postgres', url: embedded.url, poolSize: 1 });
        try {
          await dataSource.initialize();
          const [{ n }] = await dataSource.query('SELECT count(*)::int AS n FROM migrations');
          expect(n).toBe(MIGRATIONS.length);
          expect(await dataSource.query('SELECT id FROM teams')).toEqual([]);
          expect((await stat(join(scratch, 'data', 'pgdata'))).mode & 0o077).toBe(0);
        } finally {
          await dataSource.destroy();
          await embedded.close();
        }
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    },
    SLOW,
  );
});
