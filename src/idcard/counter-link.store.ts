import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { IsNull, type DataSource, type Repository } from 'typeorm';
import { statement } from '../database/statement.js';
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
  constructor(
    @InjectRepository(CounterLink) private readonly links: Repository<CounterLink>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

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
    const [row] = (await useSql.run(this.dataSource, tokenHash, now)).rows;
    return row ?? null;
  }
}

// One statement: the link found by its token's hash and its window counted, so two counters at once never both pass the limit.
const useSql = statement<[tokenHash: Buffer, now: Date], CounterLinkRow>(
  `UPDATE counter_links SET
     window_count = CASE WHEN window_started_at IS NULL OR window_started_at <= $2::timestamptz - interval '1 minute'
                         THEN 1 ELSE window_count + 1 END,
     window_started_at = CASE WHEN window_started_at IS NULL OR window_started_at <= $2::timestamptz - interval '1 minute'
                              THEN $2::timestamptz ELSE window_started_at END
   WHERE token_hash = $1 AND revoked_at IS NULL
   RETURNING id, team_id, environment, provider, window_count`,
);

interface CounterLinkRow {
  id: string;
  team_id: string;
  environment: ApiKeyEnvironment;
  provider: string;
  window_count: number;
}
