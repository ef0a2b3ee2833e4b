import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { statement } from '../database/statement.js';
import type { Subtree } from './merkle.js';

/** A signed tree head as stored. */
export interface StoredTreeHead {
  treeSize: number;
  rootHash: Buffer;
  signedAt: Date;
  jws: string;
}

// One appender at a time across replicas (docs/transparency.md, "Writing"): "eidgwtrl" in ASCII.
const APPEND_LOCK_KEY = 0x6569_6467_7774_726cn.toString();

const enqueueSql = statement<[leafHashes: Buffer[], queuedAt: Date]>(
  `INSERT INTO transparency_pending (leaf_hash, queued_at) SELECT h, $2 FROM unnest($1::bytea[]) AS h`,
);
const hasPendingSql = statement<[], { pending: boolean }>(`SELECT EXISTS (SELECT 1 FROM transparency_pending) AS pending`);
const tryLockSql = statement<[key: string], { locked: boolean }>(`SELECT pg_try_advisory_xact_lock($1::bigint) AS locked`);
const lockSql = statement<[key: string]>(`SELECT pg_advisory_xact_lock($1::bigint)`);
const pendingSql = statement<[limit: number], { id: string; leaf_hash: Buffer }>(
  `SELECT id, leaf_hash FROM transparency_pending ORDER BY id LIMIT $1`,
);
// By id, not up to the largest: a transaction that took a lower id may commit after this read.
const deletePendingSql = statement<[ids: string[]]>(`DELETE FROM transparency_pending WHERE id = ANY($1::bigint[])`);
const treeSizeSql = statement<[], { size: string | number }>(
  `SELECT COALESCE(max(node_index) + 1, 0) AS size FROM transparency_nodes WHERE level = 0`,
);
const nodesSql = statement<[levels: number[], indexes: number[]], { level: number; node_index: string | number; hash: Buffer }>(
  `SELECT n.level, n.node_index, n.hash FROM transparency_nodes n
   JOIN unnest($1::smallint[], $2::bigint[]) AS k (level, node_index) ON n.level = k.level AND n.node_index = k.node_index`,
);
const insertNodesSql = statement<[levels: number[], indexes: number[], hashes: Buffer[]]>(
  `INSERT INTO transparency_nodes (level, node_index, hash) SELECT * FROM unnest($1::smallint[], $2::bigint[], $3::bytea[])`,
);
const leafIndexesSql = statement<[hashes: Buffer[]], { node_index: string | number; hash: Buffer }>(
  `SELECT node_index, hash FROM transparency_nodes WHERE level = 0 AND hash = ANY($1::bytea[])`,
);
const insertTreeHeadSql = statement<[treeSize: number, rootHash: Buffer, signedAt: Date, jws: string]>(
  `INSERT INTO transparency_tree_heads (tree_size, root_hash, signed_at, jws) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
);
const latestTreeHeadSql = statement<[], { tree_size: string | number; root_hash: Buffer; signed_at: Date; jws: string }>(
  `SELECT tree_size, root_hash, signed_at, jws FROM transparency_tree_heads ORDER BY tree_size DESC LIMIT 1`,
);
const treeHeadSql = statement<[treeSize: number], { tree_size: string | number; root_hash: Buffer; signed_at: Date; jws: string }>(
  `SELECT tree_size, root_hash, signed_at, jws FROM transparency_tree_heads WHERE tree_size = $1`,
);

export const subtreeKey = (subtree: Subtree) => `${subtree.level}:${subtree.index}`;

/** Every statement on the transparency tables (docs/transparency.md). Counts are bigint columns, read as numbers. */
@Injectable()
export class TransparencyLogStore {
  constructor(private readonly dataSource: DataSource) {}

  /** Inside the caller's transaction (the one that ends the sessions). */
  async enqueue(manager: EntityManager, leafHashes: Buffer[], queuedAt: Date): Promise<void> {
    if (leafHashes.length > 0) await enqueueSql.run(manager, leafHashes, queuedAt);
  }

  async hasPending(): Promise<boolean> {
    return (await hasPendingSql.run(this.dataSource)).rows[0].pending;
  }

  /**
   * `work` in a transaction holding the append lock; `wait: false` gives up (null) when another
   * replica holds it, which is appending anyway.
   */
  async whileAppending<T>(wait: boolean, work: (manager: EntityManager) => Promise<T>): Promise<T | null> {
    return this.dataSource.transaction(async (manager) => {
      if (wait) await lockSql.run(manager, APPEND_LOCK_KEY);
      else if (!(await tryLockSql.run(manager, APPEND_LOCK_KEY)).rows[0].locked) return null;
      return work(manager);
    });
  }

  async pending(manager: EntityManager, limit: number): Promise<{ id: string; leafHash: Buffer }[]> {
    return (await pendingSql.run(manager, limit)).rows.map((row) => ({ id: String(row.id), leafHash: row.leafHash }));
  }

  async deletePending(manager: EntityManager, ids: string[]): Promise<void> {
    await deletePendingSql.run(manager, ids);
  }

  async treeSize(db: EntityManager | DataSource = this.dataSource): Promise<number> {
    return Number((await treeSizeSql.run(db)).rows[0].size);
  }

  /** The hashes of these complete subtrees, by `level:index`. */
  async subtrees(subtrees: Subtree[], db: EntityManager | DataSource = this.dataSource): Promise<Map<string, Buffer>> {
    const unique = [...new Map(subtrees.map((subtree) => [subtreeKey(subtree), subtree])).values()];
    if (unique.length === 0) return new Map();
    const { rows } = await nodesSql.run(
      db,
      unique.map((subtree) => subtree.level),
      unique.map((subtree) => subtree.index),
    );
    return new Map(rows.map((row) => [subtreeKey({ level: row.level, index: Number(row.nodeIndex) }), row.hash]));
  }

  async insertSubtrees(manager: EntityManager, nodes: (Subtree & { hash: Buffer })[]): Promise<void> {
    if (nodes.length === 0) return;
    await insertNodesSql.run(
      manager,
      nodes.map((node) => node.level),
      nodes.map((node) => node.index),
      nodes.map((node) => node.hash),
    );
  }

  /** The leaf index of each of these leaf hashes that is in the log, by hex hash. */
  async leafIndexes(leafHashes: Buffer[], db: EntityManager | DataSource = this.dataSource): Promise<Map<string, number>> {
    if (leafHashes.length === 0) return new Map();
    const { rows } = await leafIndexesSql.run(db, leafHashes);
    return new Map(rows.map((row) => [row.hash.toString('hex'), Number(row.nodeIndex)]));
  }

  async insertTreeHead(manager: EntityManager, head: StoredTreeHead): Promise<void> {
    await insertTreeHeadSql.run(manager, head.treeSize, head.rootHash, head.signedAt, head.jws);
  }

  async latestTreeHead(db: EntityManager | DataSource = this.dataSource): Promise<StoredTreeHead | null> {
    const [row] = (await latestTreeHeadSql.run(db)).rows;
    return row ? { ...row, treeSize: Number(row.treeSize) } : null;
  }

  async treeHead(treeSize: number): Promise<StoredTreeHead | null> {
    const [row] = (await treeHeadSql.run(this.dataSource, treeSize)).rows;
    return row ? { ...row, treeSize: Number(row.treeSize) } : null;
  }
}
