import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { statement, type RowOf } from '../../database/statement.js';

type OrderRow = {
  order_ref: string;
  environment: ApiKeyEnvironment;
  status: 'pending' | 'complete' | 'failed';
  hint_code: string | null;
  state_hash: Buffer;
  secrets_enc: Buffer | null;
  return_url_enc: Buffer | null;
  completion_enc: Buffer | null;
  request_fetched_at: Date | null;
};
const COLUMNS = 'order_ref, environment, status, hint_code, state_hash, secrets_enc, return_url_enc, completion_enc, request_fetched_at';

const insertSql = statement<
  [orderRef: string, environment: ApiKeyEnvironment, stateHash: Buffer, secretsEnc: Buffer, returnUrlEnc: Buffer | null, createdAt: Date]
>(
  `INSERT INTO eudi_orders (order_ref, environment, status, state_hash, secrets_enc, return_url_enc, created_at)
   VALUES ($1, $2, 'pending', $3, $4, $5, $6)`,
);
const findByRefSql = statement<[orderRef: string], OrderRow>(`SELECT ${COLUMNS} FROM eudi_orders WHERE order_ref = $1`);
const findByStateSql = statement<[stateHash: Buffer], OrderRow>(`SELECT ${COLUMNS} FROM eudi_orders WHERE state_hash = $1`);
const fetchedSql = statement<[orderRef: string, at: Date]>(
  `UPDATE eudi_orders SET request_fetched_at = COALESCE(request_fetched_at, $2) WHERE order_ref = $1 AND status = 'pending'`,
);
// Only a pending order is answered, in one statement: of two responses for one state, one wins and the other changes nothing.
const finishSql = statement<[orderRef: string, status: 'complete' | 'failed', hintCode: string | null, completionEnc: Buffer | null]>(
  `UPDATE eudi_orders SET status = $2, hint_code = $3, completion_enc = $4, secrets_enc = NULL
    WHERE order_ref = $1 AND status = 'pending'`,
);
const forgetSql = statement<[orderRef: string]>(`UPDATE eudi_orders SET completion_enc = NULL WHERE order_ref = $1`);
const purgeSql = statement<[createdBefore: Date]>(`DELETE FROM eudi_orders WHERE created_at < $1`);

export type EudiOrderRow = RowOf<typeof findByRefSql>;

/** Every statement on the wallet verifier's orders. */
@Injectable()
export class EudiOrderStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(order: {
    orderRef: string;
    environment: ApiKeyEnvironment;
    stateHash: Buffer;
    secretsEnc: Buffer;
    returnUrlEnc: Buffer | null;
    createdAt: Date;
  }): Promise<void> {
    await insertSql.run(this.db, order.orderRef, order.environment, order.stateHash, order.secretsEnc, order.returnUrlEnc, order.createdAt);
  }

  async findByRef(orderRef: string): Promise<EudiOrderRow | undefined> {
    return (await findByRefSql.run(this.db, orderRef)).rows[0];
  }

  async findByStateHash(stateHash: Buffer): Promise<EudiOrderRow | undefined> {
    return (await findByStateSql.run(this.db, stateHash)).rows[0];
  }

  async markRequestFetched(orderRef: string, at: Date): Promise<void> {
    await fetchedSql.run(this.db, orderRef, at);
  }

  /** The outcome of a response, or a cancel; false when the order was no longer pending (nothing changed). */
  async finish(orderRef: string, outcome: { status: 'complete' | 'failed'; hintCode: string | null; completionEnc: Buffer | null }) {
    return (await finishSql.run(this.db, orderRef, outcome.status, outcome.hintCode, outcome.completionEnc)).rowCount > 0;
  }

  /** The identity and evidence of a presentation (docs/age-verification.md); the order keeps its outcome. */
  async forgetCompletion(orderRef: string): Promise<void> {
    await forgetSql.run(this.db, orderRef);
  }

  async purgeCreatedBefore(createdBefore: Date): Promise<void> {
    await purgeSql.run(this.db, createdBefore);
  }
}
