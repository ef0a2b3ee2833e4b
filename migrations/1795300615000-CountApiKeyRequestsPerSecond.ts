import type { MigrationInterface, QueryRunner } from 'typeorm';
import { CONSUME_API_KEY_QUOTA_WITH_LOG } from './1795300400000-CreateProtectionState.js';

/** Accepts the request (and records it) only when every limit the key has allows it; 1795302315000 replaces it and restores it in its down(). */
export const CONSUME_API_KEY_QUOTA_PER_SECOND = `
      CREATE FUNCTION consume_api_key_quota(
        p_api_key_id uuid, p_address inet, p_now timestamptz,
        p_per_minute integer, p_monthly integer, p_address_limit integer)
      RETURNS TABLE (accepted boolean, recent_count integer, minute_frees_at timestamptz,
                     month_count integer, address_count integer, address_known boolean)
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
                        OR cardinality(c.month_addresses) < p_address_limit) AS ok
              FROM counted c
          ), recorded AS (
            UPDATE api_key_usage u
               SET month = d.month, month_requests = d.month_requests + 1, minute_second = d.second,
                   month_addresses = CASE WHEN p_address_limit IS NULL THEN '{}'
                                          WHEN d.known THEN d.month_addresses ELSE d.month_addresses || p_address END,
                   minute_buckets = CASE WHEN p_per_minute IS NULL THEN '{}'
                                         ELSE ARRAY[coalesce(d.buckets[1], 0) + 1] || d.buckets[2:61] END
              FROM decided d
             WHERE u.api_key_id = p_api_key_id AND d.ok
          )
          SELECT d.ok,
                 CASE WHEN NOT d.ok THEN d.recent WHEN p_per_minute IS NULL THEN 0 ELSE d.recent + 1 END,
                 -- The oldest counted second stops counting when the 61 buckets have moved past it.
                 to_timestamp((d.second - coalesce(d.oldest, 1) + 62)::double precision),
                 CASE WHEN d.ok THEN d.month_requests + 1 ELSE d.month_requests END,
                 CASE WHEN d.ok AND p_address_limit IS NULL THEN 0
                      WHEN d.ok AND NOT d.known THEN cardinality(d.month_addresses) + 1
                      ELSE cardinality(d.month_addresses) END,
                 d.known OR (d.ok AND p_address_limit IS NOT NULL)
            FROM decided d;
          IF FOUND THEN
            RETURN;
          END IF;
          -- The key's first counted request: its row is created once, then locked like any other.
          INSERT INTO api_key_usage (api_key_id, month) VALUES (p_api_key_id, this_month) ON CONFLICT DO NOTHING;
        END LOOP;
      END
      $$`;

/**
 * The per-minute limit counts in 61 one-second buckets per key instead of a log of timestamps, so a
 * decision costs the same at a limit of 60 and of 10,000,000 (docs/protection.md, "Per-key rate
 * limits"). consume_api_key_quota() locks the key's row in the one statement that decides and records.
 */
export class CountApiKeyRequestsPerSecond1795300615000 implements MigrationInterface {
  name = 'CountApiKeyRequestsPerSecond1795300615000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`DROP FUNCTION consume_api_key_quota(uuid, inet, timestamptz, integer, integer, integer)`);
    await db.query(`
      ALTER TABLE api_key_usage
        ADD COLUMN minute_buckets integer[] NOT NULL DEFAULT '{}',
        ADD COLUMN minute_second bigint NOT NULL DEFAULT 0`);
    // Carry the log over, so a key's current minute is still counted across the upgrade.
    await db.query(`
      UPDATE api_key_usage u
         SET minute_second = w.head,
             minute_buckets = ARRAY(SELECT count(*) FILTER (WHERE s = w.head - (k - 1))::integer
                                      FROM generate_series(1, 61) k, unnest(w.seconds) s GROUP BY k ORDER BY k)
        FROM (SELECT api_key_id, max(s) AS head, array_agg(s) AS seconds
                FROM api_key_usage, LATERAL unnest(recent_requests) t, LATERAL (SELECT floor(extract(epoch FROM t))::bigint AS s) x
               GROUP BY api_key_id) w
       WHERE u.api_key_id = w.api_key_id`);
    await db.query(`ALTER TABLE api_key_usage DROP COLUMN recent_requests`);
    await db.query(
      `COMMENT ON COLUMN api_key_usage.minute_buckets IS 'accepted requests per second: [k] counts second minute_second - (k - 1), 61 at most'`,
    );
    await db.query(`COMMENT ON COLUMN api_key_usage.minute_second IS 'the newest second counted (epoch seconds)'`);

    await db.query(CONSUME_API_KEY_QUOTA_PER_SECOND);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP FUNCTION consume_api_key_quota(uuid, inet, timestamptz, integer, integer, integer)`);
    await db.query(`ALTER TABLE api_key_usage ADD COLUMN recent_requests timestamptz[] NOT NULL DEFAULT '{}'`);
    await db.query(`COMMENT ON COLUMN api_key_usage.recent_requests IS 'accepted requests of the last 60 s: the sliding-window log'`);
    // Each counted request becomes a timestamp at the start of its second: the log keeps the minute's count.
    await db.query(`
      UPDATE api_key_usage
         SET recent_requests = ARRAY(SELECT to_timestamp((minute_second - (b.k - 1))::double precision)
                                       FROM unnest(minute_buckets) WITH ORDINALITY b(n, k), generate_series(1, b.n) copy
                                      ORDER BY b.k DESC)`);
    await db.query(`ALTER TABLE api_key_usage DROP COLUMN minute_buckets, DROP COLUMN minute_second`);
    await db.query(CONSUME_API_KEY_QUOTA_WITH_LOG);
  }
}
