import { Injectable } from '@nestjs/common';
import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import { TtlCache } from '../common/cache/ttl-cache.js';
import { Clock } from '../common/clock/clock.js';
import { EidProviderRegistry } from '../eid-providers/eid-provider.registry.js';
import { QuotaStore } from '../protection/rate-limits/quota.store.js';
import { statsWindow, type StatsRange } from './stats-range.js';
import { summariseDeliveries, summariseSessions } from './stats-summary.js';
import { StatsStore } from './stats.store.js';

/** One team's figures are computed at most this often, however often the overview is reloaded. */
const CACHE_MS = 10_000;

export type TeamStats = Awaited<ReturnType<StatsService['compute']>>;

/** The console's overview (docs/console.md, "Overview"): one team's one environment over a range. */
@Injectable()
export class StatsService {
  private readonly cache = new TtlCache<string, Promise<TeamStats>>(CACHE_MS, 1_000);

  constructor(
    private readonly store: StatsStore,
    private readonly apiKeys: ApiKeysService,
    private readonly quotas: QuotaStore,
    private readonly clock: Clock,
    private readonly providers: EidProviderRegistry,
  ) {}

  forTeam(teamId: string, environment: ApiKeyEnvironment, range: StatsRange): Promise<TeamStats> {
    const key = `${teamId}|${environment}|${range}`;
    const nowMs = this.clock.now().getTime();
    const cached = this.cache.get(key, nowMs);
    if (cached) return cached;
    const computed = this.compute(teamId, environment, range);
    this.cache.set(key, computed, nowMs);
    computed.catch(() => this.cache.delete(key));
    return computed;
  }

  private async compute(teamId: string, environment: ApiKeyEnvironment, range: StatsRange) {
    const now = this.clock.now();
    const window = statsWindow(range, now);
    const scope = { teamId, environment, window };
    const [sessionRows, completion, deliveryRows, latency, keys] = await Promise.all([
      this.store.sessionCounts(scope),
      this.store.completionTimes(scope),
      this.store.deliveryCounts(scope),
      this.store.attemptLatencies(scope),
      this.apiKeys.listForTeam(teamId),
    ]);
    const active = keys.filter((key) => key.environment === environment && !key.revokedAt);
    const usage = await this.quotas.monthUsage(
      active.map((key) => key.id),
      now,
    );
    return {
      environment,
      range,
      bucket: window.bucket,
      from: window.from,
      to: window.to,
      sessions: {
        ...summariseSessions(window, sessionRows, (name) => this.providers.find(name)?.messages),
        completionMs: { median: completion.median, p95: completion.p95 },
      },
      webhooks: {
        ...summariseDeliveries(window, deliveryRows),
        attempts: latency.count,
        latencyMs: { median: latency.median, p95: latency.p95 },
      },
      apiKeys: active.map((key) => ({
        id: key.id,
        name: key.name,
        displayPrefix: key.displayPrefix,
        lastFour: key.lastFour,
        perMinuteLimit: key.perMinuteLimit,
        monthlyLimit: key.monthlyLimit,
        ipLimit: key.ipLimit,
        usageThisMonth: usage.get(key.id) ?? { requests: 0, addresses: 0 },
      })),
    };
  }
}
