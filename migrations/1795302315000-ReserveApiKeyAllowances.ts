import type { MigrationInterface, QueryRunner } from 'typeorm';
import { CONSUME_API_KEY_QUOTA_PER_SECOND } from './1795300615000-CountApiKeyRequestsPerSecond.js';

const OLD_SIGNATURE = 'consume_api_key_quota(uuid, inet, timestamptz, integer, integer, integer)';
const NEW_SIGNATURE = 'consume_api_key_quota(uuid, inet, timestamptz, integer, integer, integer, integer)';

/**
 * consume_api_key_quota() may record a block of admissions at once, which a service process then
 * admits from locally (docs/protection.md, "Allowance"): p_block asks for up to that many; the
 * function grants at most 1% of what is left of the minute and of the month (at least the request
 * itself). `granted` says how many were counted (0 when refused).
 */
export class ReserveApiKeyAllowances1795302315000 implements MigrationInterface {
  name = 'ReserveApiKeyAllowances1795302315000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`DROP FUNCTION ${OLD_SIGNATURE}`);
    await db.query(`
      CREATE FUNCTION consume_api_key_quota(
        p_api_key_id uuid, p_address inet, p_now timestamptz,
        p_per_minute integer, p_monthly integer, p_address_limit integer, p_block integer)
      RETURNS TABLE (accepted boolean, recent_count integer, minute_frees_at timestamptz,
                     month_count integer, address_count integer, address_known boolean, granted integer)
      LANGUAGE plpgsql AS $$
      DECLARE
        this_month date := date_trunc('month', p_now AT TIME ZONE 'UTC')::date;
        this_second bigint := floor(extract(epoch FROM p_now))::bigint;
      BEGIN
        -- Counters, not records: a server crash may forget the last fraction of a second of them, and in
        -- exchange no request waits for a WAL flush (the write would otherwise cost a disk sync each).
        PERFORM set_config('synchronous_commit', 'off', true);
        FOR attempt IN 1..2 LOOP
          -- One statement locks the row, decides and records, so the lock lasts that statement and the commit.
          RETURN QUERY
          WITH locked AS (
            -- A replica whose clock is a little behind counts into the newest second (and the newer month).
            SELECT u.*, least(greatest(this_second - u.minute_second, 0), 61)::integer AS gap, greatest(u.minute_second, this_second) AS second
              FROM api_key_usage u WHERE u.api_key_id = p_api_key_id FOR UPDATE
          ), seen AS (
            SELECT greatest(l.month, this_month) AS month,
                   CASE WHEN this_month > l.month THEN 0 ELSE l.month_requests END AS month_requests,
                   CASE WHEN this_month > l.month THEN '{}'::inet[] ELSE l.month_addresses END AS month_addresses,
                   l.second,
                   -- The buckets moved on to this second: [1] is this second, [61] the oldest that counts.
                   CASE WHEN l.gap >= 61 THEN '{}'::integer[]
                        ELSE array_fill(0, ARRAY[l.gap]) || l.minute_buckets[1:61 - l.gap] END AS buckets
              FROM locked l
          ), counted AS (
            SELECT s.*, w.recent, w.oldest
              FROM seen s,
                   LATERAL (SELECT coalesce(sum(b.n), 0)::integer AS recent, max(b.k) FILTER (WHERE b.n > 0) AS oldest
                              FROM unnest(s.buckets) WITH ORDINALITY b(n, k)) w
          ), decided AS (
            SELECT c.*, p_address = ANY (c.month_addresses) AS known,
                   (p_per_minute IS NULL OR c.recent < p_per_minute)
                   AND (p_monthly IS NULL OR c.month_requests < p_monthly)
                   AND (p_address_limit IS NULL OR p_address = ANY (c.month_addresses)
                        OR cardinality(c.month_addresses) < p_address_limit) AS ok,
                   -- A block of at most 1% of what is left of each request limit (least() skips a NULL: no limit).
                   greatest(1, least(p_block, (p_per_minute - c.recent) / 100, (p_monthly - c.month_requests) / 100)) AS n
              FROM counted c
          ), recorded AS (
            UPDATE api_key_usage u
               SET month = d.month, month_requests = d.month_requests + d.n, minute_second = d.second,
                   month_addresses = CASE WHEN p_address_limit IS NULL THEN '{}'
                                          WHEN d.known THEN d.month_addresses ELSE d.month_addresses || p_address END,
                   minute_buckets = CASE WHEN p_per_minute IS NULL THEN '{}'
                                         ELSE ARRAY[coalesce(d.buckets[1], 0) + d.n] || d.buckets[2:61] END
              FROM decided d
             WHERE u.api_key_id = p_api_key_id AND d.ok
          )
          SELECT d.ok,
                 CASE WHEN NOT d.ok THEN d.recent WHEN p_per_minute IS NULL THEN 0 ELSE d.recent + d.n END,
                 -- The oldest counted second stops counting when the 61 buckets have moved past it.
                 to_timestamp((d.second - coalesce(d.oldest, 1) + 62)::double precision),
                 CASE WHEN d.ok THEN d.month_requests + d.n ELSE d.month_requests END,
                 CASE WHEN d.ok AND p_address_limit IS NULL THEN 0
                      WHEN d.ok AND NOT d.known THEN cardinality(d.month_addresses) + 1
                      ELSE cardinality(d.month_addresses) END,
                 d.known OR (d.ok AND p_address_limit IS NOT NULL),
                 CASE WHEN d.ok THEN d.n ELSE 0 END
            FROM decided d;
          IF FOUND THEN
            RETURN;
          END IF;
          -- The key's first counted request: its row is created once, then locked like any other.
          INSERT INTO api_key_usage (api_key_id, month) VALUES (p_api_key_id, this_month) ON CONFLICT DO NOTHING;
        END LOOP;
      END
      $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP FUNCTION ${NEW_SIGNATURE}`);
    await db.query(CONSUME_API_KEY_QUOTA_PER_SECOND);
  }
}
