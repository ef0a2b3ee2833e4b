import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type Repository } from 'typeorm';
import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';
import { CounterLink } from './counter-link.entity.js';

/** The link a counter's token opens, with its count in the current minute. */
export interface CounterLinkUse {
  id: string;
  teamId: string;
  environment: ApiKeyEnvironment;
  provider: string;
  windowCount: number;
}

/** Every statement on counter_links. */
@Injectable()
export class CounterLinkStore {
  constructor(@InjectRepository(CounterLink) private readonly links: Repository<CounterLink>) {}

  async insert(link: CounterLink): Promise<void> {
    await this.links.insert(link);
  }

  listForTeam(teamId: string): Promise<CounterLink[]> {
    return this.links.find({ where: { teamId }, order: { createdAt: 'DESC' } });
  }

  /** Revokes a link of the team; false when it has none of that id not yet revoked. */
  async revoke(teamId: string, id: string, now: Date): Promise<CounterLink | null> {
    const link = await this.links.findOneBy({ id, teamId, revokedAt: IsNull() });
    if (!link) return null;
    await this.links.update({ id, teamId }, { revokedAt: now });
    return { ...link, revokedAt: now };
  }

  /** Counts one use of the live link with this token hash in its minute window (a new window after a minute); null: no such link. */
  async use(tokenHash: Buffer, now: Date): Promise<CounterLinkUse | null> {
    const rows: { id: string; team_id: string; environment: ApiKeyEnvironment; provider: string; window_count: number }[] =
      await this.links.query(
        `UPDATE counter_links SET
           window_count = CASE WHEN window_started_at IS NULL OR window_started_at <= $2::timestamptz - interval '1 minute'
                               THEN 1 ELSE window_count + 1 END,
           window_started_at = CASE WHEN window_started_at IS NULL OR window_started_at <= $2::timestamptz - interval '1 minute'
                                    THEN $2::timestamptz ELSE window_started_at END
         WHERE token_hash = $1 AND revoked_at IS NULL
         RETURNING id, team_id, environment, provider, window_count`,
        [tokenHash, now],
      );
    const [row] = Array.isArray(rows[0]) ? (rows[0] as typeof rows) : rows;
    return row
      ? { id: row.id, teamId: row.team_id, environment: row.environment, provider: row.provider, windowCount: row.window_count }
      : null;
  }
}
