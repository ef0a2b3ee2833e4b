import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

interface Scope {
  dataSource: DataSource;
  /** The transaction's runner as the code inside sees it: its release() is the unit of work's. */
  shared: QueryRunner;
  open: boolean;
  afterCommit: (() => Promise<void>)[];
}

const scopes = new AsyncLocalStorage<Scope>();

/** The open unit of work of this DataSource around the running code, if any. */
function openScope(dataSource: DataSource): Scope | undefined {
  const scope = scopes.getStore();
  return scope?.open && scope.dataSource === dataSource ? scope : undefined;
}

/**
 * The runner of the unit of work around the running code, for every query of this DataSource that
 * would otherwise take a connection of its own (AppDataSource.createQueryRunner, `execute()`).
 */
export function sharedRunnerOf(dataSource: DataSource): QueryRunner | undefined {
  return openScope(dataSource)?.shared;
}

/**
 * Runs `work` so that every query it makes on this DataSource, through stores, repositories or
 * `statement()`, is one transaction (docs/audit.md: a change and its audit entry commit together or
 * not at all). Nested, it joins the outer one; a `transaction()` inside becomes a savepoint. Work the
 * code leaves running after it returns gets connections of its own again.
 */
export async function inOneTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  const outer = openScope(dataSource);
  if (outer) return work(outer.shared.manager);
  const runner = dataSource.createQueryRunner();
  // Hand-written because TypeORM has no ambient transaction: the code inside must not release the connection.
  const shared = new Proxy(runner, {
    get: (target, property) => {
      if (property === 'release') return () => Promise.resolve();
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const scope: Scope = { dataSource, shared, open: true, afterCommit: [] };
  try {
    await runner.startTransaction();
    const result = await scopes.run(scope, () => work(runner.manager));
    await runner.commitTransaction();
    scope.open = false;
    for (const callback of scope.afterCommit) await callback();
    return result;
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction();
    throw error;
  } finally {
    scope.open = false;
    await runner.release();
  }
}

/** Runs `callback` once the unit of work around the running code has committed (at once outside one); never after a rollback. */
export async function afterCommit(callback: () => Promise<void>): Promise<void> {
  const scope = scopes.getStore();
  if (scope?.open) scope.afterCommit.push(callback);
  else await callback();
}
