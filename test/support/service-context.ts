import { AuditModule } from '../../src/audit/audit.module.js';
import { randomBytes } from 'node:crypto';
import type { ModuleMetadata } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { Test, type TestingModule } from '@nestjs/testing';
import { CommonModule } from '../../src/common/common.module.js';
import { Clock } from '../../src/common/clock/clock.js';
import { bankIdConfig } from '../../src/eid-providers/bankid/bankid.config.js';
import { databaseConfig } from '../../src/config/database.config.js';
import { kioskConfig } from '../../src/config/kiosk.config.js';
import { otpConfig } from '../../src/config/otp.config.js';
import { protectionConfig } from '../../src/config/protection.config.js';
import { securityConfig } from '../../src/config/security.config.js';
import { serverConfig } from '../../src/config/server.config.js';
import { sessionsConfig } from '../../src/config/sessions.config.js';
import { tokensConfig } from '../../src/config/tokens.config.js';
import { webhooksConfig } from '../../src/config/webhooks.config.js';
import { ENTITIES } from '../../src/app.entities.js';
import { DatabaseModule } from '../../src/database/database.module.js';
import { MetricsModule } from '../../src/metrics/metrics.module.js';
import { TEST_ENCRYPTION_KEY, withEnv } from './create-test-app.js';
import { TestClock } from './test-clock.js';

export interface ServiceContext {
  module: TestingModule;
  clock: TestClock;
  close(): Promise<void>;
}

/**
 * Feature modules on their own, without HTTP and without the scheduler (no interval ticks: the test
 * drives the services), on a real database: the level between unit specs and HTTP e2e tests.
 */
export async function createServiceContext(
  env: Record<string, string>,
  imports: NonNullable<ModuleMetadata['imports']>,
): Promise<ServiceContext> {
  const clock = new TestClock();
  const module = await withEnv(
    { LOG_LEVEL: 'silent', DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, KIOSK_TOKEN_SECRET: randomBytes(32).toString('base64'), ...env },
    async () => {
      const built = await Test.createTestingModule({
        imports: [
          ConfigModule.forRoot({
            isGlobal: true,
            ignoreEnvFile: true,
            load: [
              serverConfig,
              databaseConfig,
              securityConfig,
              sessionsConfig,
              bankIdConfig,
              otpConfig,
              tokensConfig,
              protectionConfig,
              webhooksConfig,
              kioskConfig,
            ],
          }),
          CommonModule,
          DatabaseModule.forRoot({ entities: ENTITIES }),
          MetricsModule,
          // Global in the app: the @Audited() routes' interceptor needs its AuditLog wherever they are.
          AuditModule,
          ...imports,
        ],
      })
        .overrideProvider(Clock)
        .useValue(clock)
        .compile();
      built.useLogger(false);
      return built.init();
    },
  );
  return { module, clock, close: () => module.close() };
}
