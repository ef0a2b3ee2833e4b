import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The first consume_api_key_quota(): a log of timestamps per key; 1795300615000 replaces it and restores it in its down(). */
export const CONSUME_API_KEY_QUOTA_WITH_LOG = `
      CREATE FUNCTION consume_api_key_quota(
        p_api_key_id uuid, p_address inet, p_now timestamptz,
        p_per_minute integer, p_monthly integer, p_address_limit integer)
      RETURNS TABLE (accepted boolean, recent_count integer, oldest_recent timestamptz,
                     month_count integer, address_count integer, address_known boolean)
      LANGUAGE plpgsql AS $$
      DECLARE
        key_usage api_key_usage%ROWTYPE;
        this_month date := date_trunc('month', p_now AT TIME ZONE 'UTC')::date;
        recent timestamptz[];
      BEGIN
        -- Counters, not records: a server crash may forget the last fraction of a second of them, and in
        -- exchange no request waits for a WAL flush (the write would otherwise cost a disk sync each).
        PERFORM set_config('synchronous_commit', 'off', true);
        INSERT INTO api_key_usage (api_key_id, month) VALUES (p_api_key_id, this_month) ON CONFLICT DO NOTHING;
        SELECT * INTO key_usage FROM api_key_usage u WHERE u.api_key_id = p_api_key_id FOR UPDATE;
        -- A replica whose clock is a little behind at the turn of a month counts into the newer month.
        IF this_month > key_usage.month THEN
          key_usage.month := this_month;
          key_usage.month_requests := 0;
          key_usage.month_addresses := '{}';
        END IF;
        recent := ARRAY(SELECT t FROM unnest(key_usage.recent_requests) t WHERE t > p_now - interval '60 seconds');
        address_known := p_address = ANY (key_usage.month_addresses);
        accepted := (p_per_minute IS NULL OR cardinality(recent) < p_per_minute)
                AND (p_monthly IS NULL OR key_usage.month_requests < p_monthly)
                AND (p_address_limit IS NULL OR address_known OR cardinality(key_usage.month_addresses) < p_address_limit);
        IF accepted THEN
          recent := CASE WHEN p_per_minute IS NULL THEN '{}' ELSE recent || p_now END;
          key_usage.month_requests := key_usage.month_requests + 1;
          IF p_address_limit IS NULL THEN
            key_usage.month_addresses := '{}';
          ELSIF NOT address_known THEN
            key_usage.month_addresses := key_usage.month_addresses || p_address;
            address_known := true;
          END IF;
          UPDATE api_key_usage u
             SET month = key_usage.month, month_requests = key_usage.month_requests,
                 month_addresses = key_usage.month_addresses, recent_requests = recent
           WHERE u.api_key_id = p_api_key_id;
        END IF;
        recent_count := cardinality(recent);
        oldest_recent := (SELECT min(t) FROM unnest(recent) t);
        month_count := key_usage.month_requests;
        address_count := cardinality(key_usage.month_addresses);
        RETURN NEXT;
      END
      $$`;

/**
 * Rate-limit usage per API key and failed-attempt IP blocks (docs/protection.md), shared by every replica.
 * Each decision is one function call: it locks the one row it reads, so concurrent requests on any
 * number of replicas are decided one after the other, in one round trip.
 */
export class CreateProtectionState1795300400000 implements MigrationInterface {
  name = 'CreateProtectionState1795300400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE api_key_usage (
        api_key_id uuid NOT NULL,
        month date NOT NULL,
        month_requests integer NOT NULL DEFAULT 0,
        month_addresses inet[] NOT NULL DEFAULT '{}',
        recent_requests timestamptz[] NOT NULL DEFAULT '{}',
        CONSTRAINT pk_api_key_usage PRIMARY KEY (api_key_id),
        CONSTRAINT fk_api_key_usage_api_key FOREIGN KEY (api_key_id) REFERENCES api_keys (id) ON DELETE CASCADE
      )`);
    await db.query(`COMMENT ON COLUMN api_key_usage.recent_requests IS 'accepted requests of the last 60 s: the sliding-window log'`);
    await db.query(
      `COMMENT ON COLUMN api_key_usage.month_addresses IS 'distinct client addresses of the month, kept only while the key has an IP limit'`,
    );

    // Accepts the request (and records it) only when every limit the key has allows it.
    await db.query(CONSUME_API_KEY_QUOTA_WITH_LOG);

    await db.query(`
      CREATE TABLE ip_blocks (
        address inet NOT NULL,
        recent_failures timestamptz[] NOT NULL DEFAULT '{}',
        blocked_until timestamptz,
        expires_at timestamptz NOT NULL,
        CONSTRAINT pk_ip_blocks PRIMARY KEY (address)
      )`);
    await db.query(
      `COMMENT ON COLUMN ip_blocks.expires_at IS 'when the row no longer matters: the block and every counted failure have ended'`,
    );
    await db.query(`CREATE INDEX ix_ip_blocks_expires_at ON ip_blocks (expires_at)`);

    // Counts one failed attempt; the one that reaches the threshold blocks the address.
    await db.query(`
      CREATE FUNCTION record_failed_attempt(
        p_address inet, p_now timestamptz, p_window_ms bigint, p_threshold integer, p_block_ms bigint)
      RETURNS timestamptz
      LANGUAGE plpgsql AS $$
      DECLARE
        state ip_blocks%ROWTYPE;
        failures timestamptz[];
        block_ends timestamptz := p_now + p_block_ms * interval '1 millisecond';
      BEGIN
        PERFORM set_config('synchronous_commit', 'off', true);
        INSERT INTO ip_blocks (address, expires_at) VALUES (p_address, p_now) ON CONFLICT DO NOTHING;
        SELECT * INTO state FROM ip_blocks b WHERE b.address = p_address FOR UPDATE;
        -- Failures that raced past the block check do not lengthen a block.
        IF state.blocked_until > p_now THEN
          RETURN state.blocked_until;
        END IF;
        failures := ARRAY(SELECT t FROM unnest(state.recent_failures) t
                          WHERE t > p_now - p_window_ms * interval '1 millisecond') || p_now;
        IF cardinality(failures) >= p_threshold THEN
          UPDATE ip_blocks b SET recent_failures = '{}', blocked_until = block_ends, expires_at = block_ends
           WHERE b.address = p_address;
          RETURN block_ends;
        END IF;
        UPDATE ip_blocks b SET recent_failures = failures, expires_at = p_now + p_window_ms * interval '1 millisecond'
         WHERE b.address = p_address;
        RETURN NULL;
      END
      $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP FUNCTION record_failed_attempt(inet, timestamptz, bigint, integer, bigint)`);
    await db.query(`DROP TABLE ip_blocks`);
    await db.query(`DROP FUNCTION consume_api_key_quota(uuid, inet, timestamptz, integer, integer, integer)`);
    await db.query(`DROP TABLE api_key_usage`);
  }
}
