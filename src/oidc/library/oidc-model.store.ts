import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { statement } from '../../database/statement.js';

/** One row of oidc_models as the adapter reads it back. */
export interface StoredModel {
  payloadEnc: Buffer;
  consumedAt: Date | null;
}

export interface ModelRow {
  model: string;
  id: string;
  payloadEnc: Buffer;
  grantId: string | null;
  uid: string | null;
  userCode: string | null;
  expiresAt: Date | null;
}

type Stored = { payload_enc: Buffer; consumed_at: Date | null };

// Prepared: the statements of every token and userinfo request, each a primary-key read or write (docs/performance.md).
const upsertSql = statement<
  [
    model: string,
    id: string,
    payloadEnc: Buffer,
    grantId: string | null,
    uid: string | null,
    userCode: string | null,
    expiresAt: Date | null,
  ]
>(
  `INSERT INTO oidc_models (model, id, payload_enc, grant_id, uid, user_code, expires_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7)
   ON CONFLICT (model, id) DO UPDATE
     SET payload_enc = EXCLUDED.payload_enc, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
         user_code = EXCLUDED.user_code, expires_at = EXCLUDED.expires_at`,
  { prepare: true },
);
const takeLeaseSql = statement<[model: string, id: string, until: Date, now: Date, emptyPayload: Buffer]>(
  `INSERT INTO oidc_models (model, id, payload_enc, expires_at) VALUES ($1, $2, $5, $3)
   ON CONFLICT (model, id) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE oidc_models.expires_at <= $4`,
);
const findSql = statement<[model: string, id: string, now: Date], Stored>(
  `SELECT payload_enc, consumed_at FROM oidc_models
    WHERE model = $1 AND id = $2 AND (expires_at IS NULL OR expires_at > $3)`,
  { prepare: true },
);
const findBySql = (column: 'uid' | 'user_code') =>
  statement<[model: string, value: string, now: Date], Stored & { id: string }>(
    `SELECT id, payload_enc, consumed_at FROM oidc_models
      WHERE model = $1 AND ${column} = $2 AND (expires_at IS NULL OR expires_at > $3) LIMIT 1`,
  );
const findByColumn = { uid: findBySql('uid'), user_code: findBySql('user_code') };
const consumeSql = statement<[model: string, id: string, now: Date]>(
  `UPDATE oidc_models SET consumed_at = $3 WHERE model = $1 AND id = $2 AND consumed_at IS NULL`,
  { prepare: true },
);
const grantOfSql = statement<[model: string, id: string], { grant_id: string | null }>(
  `SELECT grant_id FROM oidc_models WHERE model = $1 AND id = $2`,
);
const destroySql = statement<[model: string, id: string]>(`DELETE FROM oidc_models WHERE model = $1 AND id = $2`);
const revokeByGrantSql = statement<[grantId: string]>(`DELETE FROM oidc_models WHERE grant_id = $1 OR (model = 'Grant' AND id = $1)`);
const purgeExpiredSql = statement<[now: Date, batchSize: number]>(
  `DELETE FROM oidc_models WHERE ctid IN (
     SELECT ctid FROM oidc_models WHERE expires_at IS NOT NULL AND expires_at <= $1 LIMIT $2)`,
);

/** Every statement on oidc_models: the storage of oidc-provider's models (docs/oidc.md, "State"). */
@Injectable()
export class OidcModelStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async upsert(row: ModelRow): Promise<void> {
    await upsertSql.run(this.dataSource, row.model, row.id, row.payloadEnc, row.grantId, row.uid, row.userCode, row.expiresAt);
  }

  /**
   * A lease on (model, id) until `until`, for one replica at a time: true when this call took it (no
   * row, or the last lease has run out), false while another holds it. The row carries no payload.
   */
  async takeLease(model: string, id: string, until: Date, now: Date): Promise<boolean> {
    return (await takeLeaseSql.run(this.dataSource, model, id, until, now, Buffer.alloc(0))).rowCount > 0;
  }

  async find(model: string, id: string, now: Date): Promise<StoredModel | undefined> {
    return (await findSql.run(this.dataSource, model, id, now)).rows[0];
  }

  async findBy(
    model: string,
    column: 'uid' | 'user_code',
    value: string,
    now: Date,
  ): Promise<{ id: string; stored: StoredModel } | undefined> {
    const {
      rows: [row],
    } = await findByColumn[column].run(this.dataSource, model, value, now);
    return row ? { id: row.id, stored: { payloadEnc: row.payloadEnc, consumedAt: row.consumedAt } } : undefined;
  }

  /**
   * Marks the row used; true for the one call that did. Two token requests may both have read the
   * code unused: the one answered false lost the race and must not issue (docs/oidc.md, "State").
   */
  async consume(model: string, id: string, now: Date): Promise<boolean> {
    return (await consumeSql.run(this.dataSource, model, id, now)).rowCount > 0;
  }

  /** The grant a row belongs to, expired or used alike (a code used twice revokes its grant). */
  async grantOf(model: string, id: string): Promise<string | null | undefined> {
    return (await grantOfSql.run(this.dataSource, model, id)).rows[0]?.grantId;
  }

  async destroy(model: string, id: string): Promise<void> {
    await destroySql.run(this.dataSource, model, id);
  }

  /**
   * A grant's codes and tokens of every model go together (a revoked token, a revoked grant, a code
   * used twice), and the grant with them: it carries the login's claims (docs/oidc.md, "State").
   */
  async revokeByGrantId(grantId: string): Promise<void> {
    await revokeByGrantSql.run(this.dataSource, grantId);
  }

  /** Deletes expired rows in batches, so one purge never holds a long lock; answers how many went. */
  async purgeExpired(now: Date, batchSize: number): Promise<number> {
    return (await purgeExpiredSql.run(this.dataSource, now, batchSize)).rowCount;
  }
}
