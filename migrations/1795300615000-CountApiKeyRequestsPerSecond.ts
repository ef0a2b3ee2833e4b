import type { MigrationInterface, QueryRunner } from 'typeorm';
import { CONSUME_API_KEY_QUOTA_WITH_LOG } from './1795300400000-CreateProtectionState.js';

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
             minute_buckets = ARRAY(SELECT count(*) FILTER (WHERE s % 61 = slot)::integer
                                      FROM generate_series(0, 60) slot, unnest(w.seconds) s GROUP BY slot ORDER BY slot)
        FROM (SELECT api_key_id, max(s) AS head, array_agg(s) AS seconds
                FROM api_key_usage, LATERAL unnest(recent_requests) t, LATERAL (SELECT floor(extract(epoch FROM t))::bigint AS s) x
               GROUP BY api_key_id) w
       WHERE u.api_key_id = w.api_key_id`);
    await db.query(`ALTER TABLE api_key_usage DROP COLUMN recent_requests`);
    await db.query(
      `COMMENT ON COLUMN api_key_usage.minute_buckets IS 'accepted requests per second; slot (second mod 61) + 1 holds the second''s count'`,
    );
    await db.query(`COMMENT ON COLUMN api_key_usage.minute_second IS 'the newest second counted (epoch seconds)'`);

    // The bucket maths alone: the buckets of the 61 seconds up to p_second (older ones read as 0),
    // their sum and the oldest second that still counts. p_second is never before p_head.
    await db.query(`
      CREATE FUNCTION minute_window(p_buckets integer[], p_head bigint, p_second bigint,
                                    OUT buckets integer[], OUT recent integer, OUT oldest_second bigint)
      LANGUAGE sql IMMUTABLE AS $$
        SELECT array_agg(CASE WHEN b.live THEN b.n ELSE 0 END ORDER BY b.slot),
               coalesce(sum(b.n) FILTER (WHERE b.live), 0)::integer,
               min(b.second) FILTER (WHERE b.live AND b.n > 0)
          FROM (SELECT slot, coalesce(p_buckets[slot + 1], 0) AS n, s.second, s.second >= p_second - 60 AS live
                  FROM generate_series(0, 60) slot,
                       LATERAL (SELECT p_head - ((p_head - slot) % 61 + 61) % 61 AS second) s) b
      $$`);

    // Accepts the request (and records it) only when every limit the key has allows it.
    await db.query(`
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
            SELECT u.* FROM api_key_usage u WHERE u.api_key_id = p_api_key_id FOR UPDATE
          ), seen AS (
            -- A replica whose clock is a little behind counts into the newer month and the newer second.
            SELECT greatest(l.month, this_month) AS month,
                   CASE WHEN this_month > l.month THEN 0 ELSE l.month_requests END AS month_requests,
                   CASE WHEN this_month > l.month THEN '{}'::inet[] ELSE l.month_addresses END AS month_addresses,
                   greatest(l.minute_second, this_second) AS second, w.buckets, w.recent, w.oldest_second
              FROM locked l, minute_window(l.minute_buckets, l.minute_second, greatest(l.minute_second, this_second)) w
          ), decided AS (
            SELECT s.*, p_address = ANY (s.month_addresses) AS known,
                   (p_per_minute IS NULL OR s.recent < p_per_minute)
                   AND (p_monthly IS NULL OR s.month_requests < p_monthly)
                   AND (p_address_limit IS NULL OR p_address = ANY (s.month_addresses)
                        OR cardinality(s.month_addresses) < p_address_limit) AS ok,
                   (s.second % 61 + 1)::integer AS slot
              FROM seen s
          ), recorded AS (
            UPDATE api_key_usage u
               SET month = d.month, month_requests = d.month_requests + 1, minute_second = d.second,
                   month_addresses = CASE WHEN p_address_limit IS NULL THEN '{}'
                                          WHEN d.known THEN d.month_addresses ELSE d.month_addresses || p_address END,
                   minute_buckets = CASE WHEN p_per_minute IS NULL THEN '{}'
                                         ELSE d.buckets[1:d.slot - 1] || (d.buckets[d.slot] + 1) || d.buckets[d.slot + 1:61] END
              FROM decided d
             WHERE u.api_key_id = p_api_key_id AND d.ok
          )
          SELECT d.ok,
                 CASE WHEN NOT d.ok THEN d.recent WHEN p_per_minute IS NULL THEN 0 ELSE d.recent + 1 END,
                 -- The oldest counted second stops counting when the 61 buckets have moved past it.
                 to_timestamp((coalesce(d.oldest_second, d.second) + 61)::double precision),
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
      $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP FUNCTION consume_api_key_quota(uuid, inet, timestamptz, integer, integer, integer)`);
    await db.query(`ALTER TABLE api_key_usage ADD COLUMN recent_requests timestamptz[] NOT NULL DEFAULT '{}'`);
    await db.query(`COMMENT ON COLUMN api_key_usage.recent_requests IS 'accepted requests of the last 60 s: the sliding-window log'`);
    // Each counted request becomes a timestamp at the start of its second: the log keeps the minute's count.
    await db.query(`
      UPDATE api_key_usage
         SET recent_requests = ARRAY(SELECT to_timestamp(w.second::double precision)
                                       FROM minute_window(minute_buckets, minute_second, minute_second) m,
                                            LATERAL unnest(m.buckets) WITH ORDINALITY b(n, slot),
                                            LATERAL (SELECT minute_second - ((minute_second - (b.slot - 1)) % 61 + 61) % 61 AS second) w,
                                            LATERAL generate_series(1, b.n) copy
                                      ORDER BY w.second)`);
    await db.query(`DROP FUNCTION minute_window(integer[], bigint, bigint)`);
    await db.query(`ALTER TABLE api_key_usage DROP COLUMN minute_buckets, DROP COLUMN minute_second`);
    await db.query(CONSUME_API_KEY_QUOTA_WITH_LOG);
  }
}
