// The Redis twins of consume_api_key_quota() (migrations 1795300615000, 1795302315000) and record_failed_attempt()
// (migration 1795300400000): same rules, same answers. Times are epoch milliseconds from the service's
// clock. Keys of one API key share a hash tag, so the script also runs on Redis Cluster.

/**
 * KEYS: minute (hash: epoch second -> accepted requests in it, at most 61 fields), usage (hash: month,
 * requests), addresses (set of the month's client addresses).
 * ARGV: now, per-minute limit, monthly limit, address limit ('' = none), address, month (yyyymm),
 * ttl of the month keys in ms, admissions wanted (the request and a block for the process's allowance,
 * docs/protection.md, "Allowance").
 * Returns {accepted 0|1, minute count, when the oldest counted second stops counting (ms), month count,
 * address count, address known 0|1, admissions counted (0 when refused)}.
 */
export const CONSUME_QUOTA_LUA = `
local now = tonumber(ARGV[1])
local perMinute = tonumber(ARGV[2])
local monthly = tonumber(ARGV[3])
local addressLimit = tonumber(ARGV[4])
local address = ARGV[5]
local month = tonumber(ARGV[6])

local storedMonth = tonumber(redis.call('HGET', KEYS[2], 'month') or '0')
local requests = 0
if storedMonth >= month then
  month = storedMonth
  requests = tonumber(redis.call('HGET', KEYS[2], 'requests') or '0')
else
  redis.call('DEL', KEYS[3])
end

-- The 61 one-second buckets up to this second count; a lagging clock counts into the newest second.
local buckets = redis.call('HGETALL', KEYS[1])
local second = math.floor(now / 1000)
for i = 1, #buckets, 2 do
  second = math.max(second, tonumber(buckets[i]))
end
local recent, oldest, expired = 0, second, {}
for i = 1, #buckets, 2 do
  local bucket = tonumber(buckets[i])
  if bucket < second - 60 then
    expired[#expired + 1] = buckets[i]
  else
    recent = recent + tonumber(buckets[i + 1])
    oldest = math.min(oldest, bucket)
  end
end
local known = redis.call('SISMEMBER', KEYS[3], address) == 1
local addresses = redis.call('SCARD', KEYS[3])

local accepted = (not perMinute or recent < perMinute)
  and (not monthly or requests < monthly)
  and (not addressLimit or known or addresses < addressLimit)

-- A block of at most 1% of what is left of each request limit, and at least the request itself.
local n = tonumber(ARGV[8])
if perMinute then n = math.min(n, math.floor((perMinute - recent) / 100)) end
if monthly then n = math.min(n, math.floor((monthly - requests) / 100)) end
n = math.max(1, n)

if accepted then
  if perMinute then
    if #expired > 0 then
      redis.call('HDEL', KEYS[1], unpack(expired))
    end
    redis.call('HINCRBY', KEYS[1], second, n)
    redis.call('PEXPIRE', KEYS[1], 62000)
    recent = recent + n
  else
    redis.call('DEL', KEYS[1])
    recent = 0
  end
  requests = requests + n
  redis.call('HSET', KEYS[2], 'month', month, 'requests', requests)
  redis.call('PEXPIRE', KEYS[2], ARGV[7])
  if not addressLimit then
    redis.call('DEL', KEYS[3])
    addresses = 0
  elseif not known then
    redis.call('SADD', KEYS[3], address)
    redis.call('PEXPIRE', KEYS[3], ARGV[7])
    addresses = addresses + 1
    known = true
  end
end

return {accepted and 1 or 0, recent, (oldest + 61) * 1000, requests, addresses, known and 1 or 0, accepted and n or 0}
`;

/**
 * Gives a block's unused admissions back: to the month's count unless the month has turned since (the
 * new month started from zero without them), and to the bucket of the block's second while it still
 * counts. The consume script may have counted the block into a newer second (a lagging clock), never
 * an older one, so this leaves the minute's count at or above what was admitted.
 * KEYS: usage, minute. ARGV: month of the block (yyyymm), its epoch second, unused admissions.
 */
export const GIVE_BACK_QUOTA_LUA = `
local unused = tonumber(ARGV[3])
if tonumber(redis.call('HGET', KEYS[1], 'month') or '0') == tonumber(ARGV[1]) then
  local requests = tonumber(redis.call('HGET', KEYS[1], 'requests') or '0')
  redis.call('HSET', KEYS[1], 'requests', math.max(requests - unused, 0))
end
local bucket = tonumber(redis.call('HGET', KEYS[2], ARGV[2]) or '0')
if bucket > 0 then
  redis.call('HSET', KEYS[2], ARGV[2], math.max(bucket - unused, 0))
end
return 1
`;

/**
 * Hands what one process admitted on its own while Redis was away (docs/protection.md, "When Redis is
 * away") to the shared counts: the minute's admissions into the current second's bucket (they count a
 * little longer than they would have: conservative), the month's into its count unless a newer month
 * has started, and the addresses into the month's set.
 * KEYS: minute, usage, addresses. ARGV: now's epoch second, minute admissions, month (yyyymm), month
 * admissions, ttl of the month keys in ms, then the addresses.
 */
export const RECORD_DEGRADED_LUA = `
if tonumber(ARGV[2]) > 0 then
  redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
  redis.call('PEXPIRE', KEYS[1], 62000)
end
local month = tonumber(ARGV[3])
local stored = tonumber(redis.call('HGET', KEYS[2], 'month') or '0')
if stored > month then
  return 0
end
if stored == month then
  redis.call('HINCRBY', KEYS[2], 'requests', ARGV[4])
else
  redis.call('HSET', KEYS[2], 'month', month, 'requests', ARGV[4])
  redis.call('DEL', KEYS[3])
end
redis.call('PEXPIRE', KEYS[2], ARGV[5])
if #ARGV > 5 then
  redis.call('SADD', KEYS[3], unpack(ARGV, 6))
  redis.call('PEXPIRE', KEYS[3], ARGV[5])
end
return 1
`;

/**
 * KEYS: failures (sorted set of failed attempts, score = time), block (string: end of the block).
 * ARGV: now, window ms, threshold, block duration ms, a unique member for this failure.
 * Returns the end of the address's block, or 0 when it is not blocked.
 */
export const RECORD_FAILURE_LUA = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local threshold = tonumber(ARGV[3])
local duration = tonumber(ARGV[4])

local blockedUntil = tonumber(redis.call('GET', KEYS[2]) or '0')
if blockedUntil > now then
  return blockedUntil
end

redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
redis.call('ZADD', KEYS[1], now, ARGV[5])
if redis.call('ZCARD', KEYS[1]) >= threshold then
  redis.call('DEL', KEYS[1])
  redis.call('SET', KEYS[2], now + duration, 'PX', duration)
  return now + duration
end
redis.call('PEXPIRE', KEYS[1], window)
return 0
`;
