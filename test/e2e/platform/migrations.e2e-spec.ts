import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../../src/database/migrations.js';
import { createTestApp } from '../../support/create-test-app.js';
import { databaseUrl, testDatabaseName, usingRealPostgres, withServer } from '../../support/test-postgres.js';

const describeOnPostgres = usingRealPostgres() ? describe : describe.skip;

describeOnPostgres('Migrations on PostgreSQL', () => {
  // Not useTestDatabase(): its copies of the template are migrated already; these tests need an empty database.
  const name = testDatabaseName(randomBytes(6).toString('hex'));

  beforeAll(() => withServer((client) => client.query(`CREATE DATABASE ${name}`)));
  afterAll(() => withServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));

  it('should run each migration exactly once when two instances start together on an empty database', async () => {
    const env = { DATABASE_URL: databaseUrl(name) };
    const apps = await Promise.all([createTestApp(env), createTestApp(env)]);
    try {
      const dataSource = apps[0].app.get(DataSource);
      const rows = await dataSource.query('SELECT name FROM migrations ORDER BY id');
      expect(rows.map((r: { name: string }) => r.name)).toEqual(MIGRATIONS.map((m) => m.name));
      expect(await dataSource.showMigrations()).toBe(false);
    } finally {
      await Promise.all(apps.map((a) => a.close()));
    }
  });

  it('should undo every migration with its down() and apply them again', async () => {
    const env = { DATABASE_URL: databaseUrl(name) };
    const testApp = await createTestApp(env);
    try {
      const dataSource = testApp.app.get(DataSource);
      for (let i = 0; i < MIGRATIONS.length; i++) await dataSource.undoLastMigration();
      expect(
        (
          await dataSource.query(
            `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'migrations'`,
          )
        )[0].n,
      ).toBe(0);
      await dataSource.runMigrations();
      expect(await dataSource.showMigrations()).toBe(false);
    } finally {
      await testApp.close();
    }
  });
});
