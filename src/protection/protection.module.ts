import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { protectionConfig, type ProtectionConfig } from '../config/protection.config.js';
import { IpBlockPurgeJob } from './ip-blocks/ip-block-purge.job.js';
import { IpBlockStore } from './ip-blocks/ip-block.store.js';
import { IpBlockSyncJob } from './ip-blocks/ip-block-sync.job.js';
import { IpBlocksService } from './ip-blocks/ip-blocks.service.js';
import { PostgresIpBlockStore } from './ip-blocks/postgres-ip-block.store.js';
import { RedisIpBlockStore } from './ip-blocks/redis-ip-block.store.js';
import { ProtectionHooks } from './protection.hooks.js';
import { PostgresQuotaStore } from './rate-limits/postgres-quota.store.js';
import { QuotaStore } from './rate-limits/quota.store.js';
import { RateLimitGuard } from './rate-limits/rate-limit.guard.js';
import { RateLimitsService } from './rate-limits/rate-limits.service.js';
import { RedisQuotaStore } from './rate-limits/redis-quota.store.js';
import { RedisConnection } from './redis/redis-connection.js';

/**
 * Protection (docs/protection.md): IP blocks, the input guard, per-key rate limits; state in
 * PostgreSQL or Redis. Global so that key listings can read usage from the same store.
 */
@Global()
@Module({
  providers: [
    { provide: RedisConnection, inject: [protectionConfig.KEY], useFactory: (config: ProtectionConfig) => RedisConnection.open(config) },
    {
      provide: IpBlockStore,
      inject: [RedisConnection, DataSource],
      useFactory: (redis: RedisConnection, dataSource: DataSource) =>
        redis.client ? new RedisIpBlockStore(redis) : new PostgresIpBlockStore(dataSource),
    },
    {
      provide: QuotaStore,
      inject: [RedisConnection, DataSource],
      useFactory: (redis: RedisConnection, dataSource: DataSource) =>
        redis.client ? new RedisQuotaStore(redis) : new PostgresQuotaStore(dataSource),
    },
    IpBlocksService,
    RateLimitsService,
    ProtectionHooks,
    IpBlockPurgeJob,
    IpBlockSyncJob,
    // After AuthModule's AuthGuard: global guards run in the order their modules are imported (AppModule).
    { provide: APP_GUARD, useClass: RateLimitGuard },
  ],
  // RedisConnection and QuotaStore: readiness reports Redis's degraded mode (HealthController).
  // IpBlocksService and RateLimitsService: forward authentication applies them to a gateway's requests (docs/forward-auth.md).
  exports: [QuotaStore, IpBlocksService, RateLimitsService, RedisConnection],
})
export class ProtectionModule {}
