import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags, ApiExtraModels, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Public } from '../auth/access.decorators.js';
import { RecentValue } from '../common/cache/recent-value.js';
import { serverConfig, type ServerConfig } from '../config/server.config.js';
import { DatabaseHealth } from '../database/database-health.js';
import { ApiProblems } from '../common/problem-details/api-problems.decorator.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { EidProviderRegistry } from '../eid-providers/eid-provider.registry.js';
import { QuotaStore } from '../protection/rate-limits/quota.store.js';
import { RedisConnection } from '../protection/redis/redis-connection.js';
import { certificateReadiness } from './certificate-readiness.js';
import { LiveDto, ReadyDto, CertificateStatusDto } from './dto/health-answers.dto.js';

// Two checks need no framework: @nestjs/terminus 12 also drags in a peer conflict (mikro-orm wants Nest 11).
@ApiTags('operations')
@Public()
@Controller('health')
export class HealthController {
  // Anonymous: a flood costs one database round per ANONYMOUS_CACHE_TTL (docs/operations.md).
  private readonly databaseChecks: RecentValue<{ database: string; migrations: string }>;

  constructor(
    private readonly database: DatabaseHealth,
    private readonly providers: EidProviderRegistry,
    private readonly redis: RedisConnection,
    private readonly quota: QuotaStore,
    @Inject(serverConfig.KEY) server: ServerConfig,
  ) {
    this.databaseChecks = new RecentValue(server.anonymousCacheTtlMs, () => this.checkDatabase());
  }

  /** The process answers: for the liveness probe, nothing else is checked. */
  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ type: LiveDto })
  @ApiProblems()
  live() {
    return { status: 'ok' };
  }

  /**
   * Ready to serve: the database answers, every migration of this build is applied, and no provider's
   * RP certificate has expired. One that expires within 30 days is a warning, not an outage yet; so is
   * Redis (when configured) away: `checks.redis` is then `degraded` (docs/reliability.md).
   * Each provider with certificates reports them as `<name>Certificates` (docs/operations.md).
   */
  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the database answers and every migration is applied' })
  @ApiExtraModels(CertificateStatusDto)
  @ApiOkResponse({ type: ReadyDto })
  // Not ready: 503 service_unavailable, whose detail names the failing check.
  @ApiProblems()
  async ready() {
    const checks = await this.databaseChecks.get();
    const certificates = certificateReadiness(
      this.providers
        .all()
        .flatMap((provider) =>
          provider.certificateStatuses
            ? [{ label: provider.messages.appName, check: `${provider.name}Certificates`, statuses: provider.certificateStatuses() }]
            : [],
        ),
    );
    if (checks.database !== 'up' || checks.migrations !== 'applied' || certificates.expired.length) {
      const certificateProblem = certificates.expired.map((problem) => `, ${problem}`).join('');
      throw new DomainException(
        'service_unavailable',
        `Not ready: database ${checks.database}, migrations ${checks.migrations}${certificateProblem}.`,
        { headers: { 'retry-after': '5' } },
      );
    }
    // A provider's own readiness (an upstream's metadata) warns: the other providers still serve.
    const own = this.providers.all().flatMap((provider) => (provider.readiness ? [[provider.name, provider.readiness()] as const] : []));
    const warnings = [...certificates.warnings, ...own.flatMap(([, readiness]) => readiness.warnings)];
    // Redis away is a degraded mode, not an outage: limits are counted per process (docs/protection.md).
    const redis = this.redis.client ? { redis: this.quota.degraded ? 'degraded' : 'up' } : {};
    if (redis.redis === 'degraded') warnings.push('Redis unreachable: rate limits are counted per process until it returns.');
    return {
      status: warnings.length ? 'warn' : 'ok',
      checks: {
        ...checks,
        ...redis,
        ...certificates.checks,
        ...Object.fromEntries(own.map(([name, readiness]) => [name, readiness.check])),
      },
      ...(warnings.length ? { warnings } : {}),
    };
  }

  private async checkDatabase(): Promise<{ database: string; migrations: string }> {
    const checks = { database: 'down', migrations: 'unknown' };
    try {
      await this.database.ping();
      checks.database = 'up';
      checks.migrations = (await this.database.migrationsApplied()) ? 'applied' : 'pending';
    } catch {
      // Reported through the checks below; the cause is in the database's own log.
    }
    return checks;
  }
}
