import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
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
  private readonly logger = new Logger(TokenRevocations.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  async revoke(tokenId: string, expiresAt: Date): Promise<void> {
    await revokeSql.run(this.db, tokenId, expiresAt);
  }

  async isRevoked(tokenId: string): Promise<boolean> {
    return (await isRevokedSql.run(this.db, tokenId)).rowCount > 0;
  }

  @Interval(15 * 60_000)
  async purgeExpired(): Promise<void> {
    try {
      await purgeSql.run(this.db, this.clock.now());
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'Purging expired token revocations failed; retrying later');
    }
  }
}
