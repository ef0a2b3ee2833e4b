import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { statement } from '../../database/statement.js';

export interface SamlLoginRow {
  uid: string;
  serviceProviderId: string;
  requestId: string;
  payloadEnc: Buffer;
  answered: boolean;
}

// A replayed request ID meets uq_saml_logins_request: nothing is inserted and no row comes back.
const insertSql = statement<[uid: string, spId: string, requestId: string, payload: Buffer, expiresAt: Date], { uid: string }>(
  `INSERT INTO saml_logins (uid, service_provider_id, request_id, payload_enc, expires_at)
   VALUES ($1, $2, $3, $4, $5)
   ON CONFLICT (service_provider_id, request_id) DO NOTHING
   RETURNING uid`,
);
const findSql = statement<[uid: string, now: Date], SamlLoginRow>(
  `SELECT uid, service_provider_id AS "serviceProviderId", request_id AS "requestId", payload_enc AS "payloadEnc", answered
     FROM saml_logins WHERE uid = $1 AND expires_at > $2`,
);
const payloadSql = statement<[uid: string, payload: Buffer]>(`UPDATE saml_logins SET payload_enc = $2 WHERE uid = $1`);
const answerSql = statement<[uid: string], { uid: string }>(
  `UPDATE saml_logins SET answered = true WHERE uid = $1 AND NOT answered RETURNING uid`,
);
const purgeSql = statement<[now: Date]>(`DELETE FROM saml_logins WHERE expires_at <= $1`);

/** Every statement on saml_logins: one row per accepted AuthnRequest, kept until it expires (docs/saml.md, "State"). */
@Injectable()
export class SamlLoginStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** False when the SP already sent this request ID (a replay). */
  async insert(uid: string, spId: string, requestId: string, payloadEnc: Buffer, expiresAt: Date): Promise<boolean> {
    return (await insertSql.run(this.dataSource, uid, spId, requestId, payloadEnc, expiresAt)).rows.length === 1;
  }

  /** The login's record once its session has started. */
  async savePayload(uid: string, payloadEnc: Buffer): Promise<void> {
    await payloadSql.run(this.dataSource, uid, payloadEnc);
  }

  async find(uid: string, now: Date): Promise<SamlLoginRow | undefined> {
    return (await findSql.run(this.dataSource, uid, now)).rows[0];
  }

  /** Claims the single answer of a login: true once, false after (a second tab, a replayed /done). */
  async claimAnswer(uid: string): Promise<boolean> {
    return (await answerSql.run(this.dataSource, uid)).rows.length === 1;
  }

  async purgeExpired(now: Date): Promise<number> {
    return (await purgeSql.run(this.dataSource, now)).rowCount;
  }
}
