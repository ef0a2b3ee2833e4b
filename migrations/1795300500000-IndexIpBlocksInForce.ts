import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Every replica reads the blocks in force each second (IpBlockSyncJob): only blocked rows are indexed. */
export class IndexIpBlocksInForce1795300500000 implements MigrationInterface {
  name = 'IndexIpBlocksInForce1795300500000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX ix_ip_blocks_blocked_until ON ip_blocks (blocked_until) WHERE blocked_until IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX ix_ip_blocks_blocked_until`);
  }
}
