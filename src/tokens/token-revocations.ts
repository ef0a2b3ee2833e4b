import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { statement } from '../database/statement.js';

const revokeSql = statement<[tokenId: string, expiresAt: Date]>(
  `INSERT INTO revoked_tokens (token_id, expires_at) VALUES ($1, $2) ON CONFLICT (token_id) DO NOTHING`,
);
const isRevokedSql = statement<[tokenId: string]>(`SELECT 1 FROM revoked_tokens WHERE token_id = $1`);
const purgeSql = statement<[now: Date]>(`DELETE FROM revoked_tokens WHERE expires_at < $1`);

/**
 * Member tokens revoked before they expire (docs/otp-and-tokens.md, "Revocation"): a logout ends the
 * token on every replica at once. A row lives only until its token would have expired anyway.
 */
@Injectable()
export class TokenRevocations {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async revoke(tokenId: string, expiresAt: Date): Promise<void> {
    await revokeSql.run(this.db, tokenId, expiresAt);
  }

  async isRevoked(tokenId: string): Promise<boolean> {
    return (await isRevokedSql.run(this.db, tokenId)).rowCount > 0;
  }

  /** Rows whose token has expired anyway (TokenRevocationPurgeJob). */
  async purgeExpired(now: Date): Promise<number> {
    return (await purgeSql.run(this.db, now)).rowCount;
  }
}
