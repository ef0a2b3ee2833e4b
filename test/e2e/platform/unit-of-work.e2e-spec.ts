import { DataSource } from 'typeorm';
import { postgresPool } from '../../../src/database/sql-execution.js';
import { statement } from '../../../src/database/statement.js';
import { afterCommit, inOneTransaction } from '../../../src/database/unit-of-work.js';
import { TeamsService } from '../../../src/teams/teams.service.js';
import { useE2eApp } from '../../support/e2e.js';

const teamNamed = statement<[name: string], { id: string }>(`SELECT id FROM teams WHERE name = $1`);
const renameTeam = statement<[id: string, name: string]>(`UPDATE teams SET name = $2 WHERE id = $1`);

// docs/architecture.md, "Data access": a unit of work puts every query of the DataSource inside it,
// through a service's repository, statement() or a nested transaction, into one transaction.
describe('A unit of work (inOneTransaction)', () => {
  const e2e = useE2eApp({ stopBackgroundJobs: true });
  const named = async (name: string) => (await teamNamed.run(e2e.app.get(DataSource), name)).rows.length;

  it('should commit every query inside together, and run afterCommit callbacks only then', async () => {
    const dataSource = e2e.app.get(DataSource);
    const seen: string[] = [];
    await inOneTransaction(dataSource, async () => {
      const team = await e2e.app.get(TeamsService).create({ name: 'uow-a', plan: 'free', subscriptionEndsAt: null });
      await dataSource.transaction((manager) => renameTeam.run(manager, team.id, 'uow-b'));
      await afterCommit(async () => {
        seen.push(`after commit: ${await named('uow-b')}`);
      });
      // Not committed yet: another connection of the pool sees nothing.
      const outside = await postgresPool(dataSource).query(`SELECT 1 FROM teams WHERE name = 'uow-b'`);
      seen.push(`outside before commit: ${outside.rows.length}`);
    });
    expect(seen).toEqual(['outside before commit: 0', 'after commit: 1']);
  });

  it('should roll back every query inside when the work fails, savepoints included, and skip afterCommit', async () => {
    const dataSource = e2e.app.get(DataSource);
    let told = false;
    await expect(
      inOneTransaction(dataSource, async () => {
        const team = await e2e.app.get(TeamsService).create({ name: 'uow-c', plan: 'free', subscriptionEndsAt: null });
        await dataSource.transaction((manager) => renameTeam.run(manager, team.id, 'uow-d'));
        await afterCommit(async () => {
          told = true;
        });
        throw new Error('the entry could not be written');
      }),
    ).rejects.toThrow('the entry could not be written');
    expect({ c: await named('uow-c'), d: await named('uow-d'), told }).toEqual({ c: 0, d: 0, told: false });
    // The connection went back to the pool: later work runs as usual.
    await e2e.app.get(TeamsService).create({ name: 'uow-e', plan: 'free', subscriptionEndsAt: null });
    expect(await named('uow-e')).toBe(1);
  });
});
