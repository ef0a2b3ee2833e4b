import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The transparency log of result tokens (docs/transparency.md): its queue, its tree and its signed heads. */
export class CreateTransparencyLog1796620804371 implements MigrationInterface {
  name = 'CreateTransparencyLog1796620804371';

  async up(db: QueryRunner): Promise<void> {
    // Written by the transaction that ends a session, drained into the tree by one writer at a time.
    await db.query(`
      CREATE TABLE transparency_pending (
        id bigserial NOT NULL,
        leaf_hash bytea NOT NULL,
        queued_at timestamptz NOT NULL,
        CONSTRAINT pk_transparency_pending PRIMARY KEY (id)
      )`);
    // Every complete subtree: level 0 holds the leaf hashes, level l the subtree of leaves
    // [node_index * 2^l, (node_index + 1) * 2^l). Rows are never updated or deleted.
    await db.query(`
      CREATE TABLE transparency_nodes (
        level smallint NOT NULL,
        node_index bigint NOT NULL,
        hash bytea NOT NULL,
        CONSTRAINT pk_transparency_nodes PRIMARY KEY (level, node_index),
        CONSTRAINT ck_transparency_nodes_level CHECK (level BETWEEN 0 AND 63),
        CONSTRAINT ck_transparency_nodes_hash CHECK (octet_length(hash) = 32)
      )`);
    await db.query(`CREATE UNIQUE INDEX uq_transparency_nodes_leaf_hash ON transparency_nodes (hash) WHERE level = 0`);
    await db.query(`
      CREATE TABLE transparency_tree_heads (
        tree_size bigint NOT NULL,
        root_hash bytea NOT NULL,
        signed_at timestamptz NOT NULL,
        jws text NOT NULL,
        CONSTRAINT pk_transparency_tree_heads PRIMARY KEY (tree_size)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE transparency_tree_heads`);
    await db.query(`DROP TABLE transparency_nodes`);
    await db.query(`DROP TABLE transparency_pending`);
  }
}
