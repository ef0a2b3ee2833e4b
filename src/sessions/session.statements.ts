import { statement } from '../database/statement.js';
import type { Session } from './session.entity.js';

// The statements of SessionStore (session.store.ts), which documents what each does.

type Status = Session['status'];

export const claimForCollectSql = statement<[id: string, now: Date, dueBefore: Date]>(
  `UPDATE sessions SET last_collected_at = $2 WHERE id = $1 AND status = 'pending' AND last_collected_at <= $3`,
);
// The collector's batch: prepared, it runs every interval on every replica. Its columns are named as
// CollectClaim's properties, so that its rows are the claims, not copied (docs/performance.md).
export const claimDueSql = statement<
  [now: Date, dueBefore: Date, limit: number, skipProviders: readonly string[]],
  {
    id: string;
    provider: string;
    environment: Session['environment'];
    orderRef: string;
    status: Status;
    hintCode: string | null;
    expiresAt: Date;
  }
>(
  `UPDATE sessions SET last_collected_at = $1
    WHERE id IN (SELECT id FROM sessions
                  WHERE status = 'pending' AND last_collected_at <= $2 AND provider <> ALL ($4::text[])
                  ORDER BY last_collected_at LIMIT $3
                  FOR UPDATE SKIP LOCKED)
    RETURNING id, provider, environment, order_ref AS "orderRef", status, hint_code AS "hintCode", expires_at AS "expiresAt"`,
  { prepare: true },
);
export const writeTransitionsSql = statement<
  [
    ids: string[],
    statuses: Status[],
    hintCodes: (string | null)[],
    completionEncs: (Buffer | null)[],
    completedAts: (Date | null)[],
    evidenceEncs: (Buffer | null)[],
    resultTokenEncs: (Buffer | null)[],
  ],
  { id: string }
>(
  `UPDATE sessions s SET status = v.status, hint_code = v.hint_code, completion_enc = v.completion_enc, completed_at = v.completed_at,
          evidence_enc = v.evidence_enc, result_token_enc = v.result_token_enc
     FROM unnest($1::uuid[], $2::text[], $3::text[], $4::bytea[], $5::timestamptz[], $6::bytea[], $7::bytea[])
          AS v (id, status, hint_code, completion_enc, completed_at, evidence_enc, result_token_enc)
    WHERE s.id = v.id AND s.status = 'pending'
   RETURNING s.id`,
);
export const changedSinceSql = statement<
  [ids: string[], hintCodes: (string | null)[], renewals: number[]],
  { id: string; status: Status; hint_code: string | null; renewals: number }
>(
  `SELECT s.id, s.status, s.hint_code, s.renewals
     FROM sessions s
     JOIN unnest($1::uuid[], $2::text[], $3::int[]) AS known(id, hint_code, renewals) ON known.id = s.id
    WHERE s.status <> 'pending' OR s.hint_code IS DISTINCT FROM known.hint_code OR s.renewals <> known.renewals`,
);
export const renewOrderSql = statement<
  [
    id: string,
    failedOrderRef: string,
    orderRef: string,
    qrStartToken: string | null,
    qrStartSecretEnc: Buffer | null,
    orderTime: Date,
    launchUrlEnc: Buffer | null,
    now: Date,
  ]
>(
  `UPDATE sessions
      SET order_ref = $3, qr_start_token = $4, qr_start_secret_enc = $5, order_time = $6, launch_url_enc = $7,
          hint_code = 'outstandingTransaction', renewals = renewals + 1, last_collected_at = $8
    WHERE id = $1 AND order_ref = $2 AND status = 'pending'`,
);
export const countReturnNonceFailureSql = statement<[id: string, limit: number], { failures: number }>(
  `UPDATE sessions SET return_nonce_failures = return_nonce_failures + 1
    WHERE id = $1 AND returned_at IS NULL AND return_nonce_failures < $2
   RETURNING return_nonce_failures AS failures`,
);
export const markReturnedSql = statement<[id: string, now: Date, limit: number]>(
  `UPDATE sessions SET returned_at = $2
    WHERE id = $1 AND status = 'complete' AND returned_at IS NULL AND return_nonce_failures < $3`,
);
export const purgePersonalDataSql = statement<[now: Date, endedBefore: Date]>(
  `UPDATE sessions
      SET completion_enc = NULL, qr_start_secret_enc = NULL, end_user_ip = NULL, metadata = NULL,
          launch_url_enc = NULL, renewal_request_enc = NULL,
          signed_texts_enc = NULL, evidence_enc = NULL, result_token_enc = NULL, pii_purged_at = $1
    WHERE pii_purged_at IS NULL AND status <> 'pending' AND completed_at <= $2`,
);
export const countPendingByProviderSql = statement<[], { provider: string; pending: number }>(
  `SELECT provider, count(*)::int AS pending FROM sessions WHERE status = 'pending' GROUP BY provider`,
);
