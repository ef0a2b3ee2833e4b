import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * POST /simulator/phone answers the newest waiting phone order of a person (docs/api.md). Two orders
 * started within the same clock instant share created_at, so "newest" is the order inserted last: an
 * identity column numbers the orders as they are inserted, and the waiting-phone index follows it.
 */
export class OrderSimulatorOrdersByInsertion1795303700000 implements MigrationInterface {
  name = 'OrderSimulatorOrdersByInsertion1795303700000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE simulator_orders ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY`);
    await db.query(`DROP INDEX ix_simulator_orders_phone_waiting`);
    await db.query(`
      CREATE INDEX ix_simulator_orders_phone_waiting ON simulator_orders (personal_number_hash, seq DESC)
        WHERE channel = 'phone' AND scanned_at IS NULL AND cancelled_at IS NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX ix_simulator_orders_phone_waiting`);
    await db.query(`
      CREATE INDEX ix_simulator_orders_phone_waiting ON simulator_orders (personal_number_hash, created_at DESC)
        WHERE channel = 'phone' AND scanned_at IS NULL AND cancelled_at IS NULL`);
    await db.query(`ALTER TABLE simulator_orders DROP COLUMN seq`);
  }
}
