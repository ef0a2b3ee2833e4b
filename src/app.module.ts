import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { ScheduleModule } from '@nestjs/schedule';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { ENTITIES } from './app.entities.js';
import { ApiKeysModule } from './api-keys/api-keys.module.js';
import { AuditModule } from './audit/audit.module.js';
import { AuthModule } from './auth/auth.module.js';
import { CommonModule } from './common/common.module.js';
import { ConsoleModule } from './console/console.module.js';
import { LoggingModule } from './common/logging/logging.module.js';
import { ProblemDetailsFilter } from './common/problem-details/problem-details.filter.js';
import { apiValidationPipe } from './common/validation/api-validation-pipe.js';
import { consoleConfig } from './config/console.config.js';
import { samlConfig } from './saml/saml.config.js';
import { databaseConfig } from './config/database.config.js';
import { kioskConfig } from './config/kiosk.config.js';
import { otpConfig } from './config/otp.config.js';
import { protectionConfig } from './config/protection.config.js';
import { securityConfig } from './config/security.config.js';
import { serverConfig } from './config/server.config.js';
import { sessionsConfig } from './config/sessions.config.js';
import { tokensConfig } from './config/tokens.config.js';
import { webhooksConfig } from './config/webhooks.config.js';
import { DatabaseModule } from './database/database.module.js';
import { ForwardAuthModule } from './forward-auth/forward-auth.module.js';
import { HealthModule } from './health/health.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { KioskModule } from './kiosk/kiosk.module.js';
import { IdCardModule } from './idcard/idcard.module.js';
import { OidcModule } from './oidc/oidc.module.js';
import { SamlModule } from './saml/saml.module.js';
import { OnboardingModule } from './onboarding/onboarding.module.js';
import { OtpModule } from './otp/otp.module.js';
import { ProtectionModule } from './protection/protection.module.js';
import { PublicRouteLimitsModule } from './protection/public-route-limits/public-route-limits.module.js';
import { SessionsModule } from './sessions/sessions.module.js';
import { StatsModule } from './stats/stats.module.js';
import { SessionTimelineModule } from './timeline/session-timeline.module.js';
import { TeamsModule } from './teams/teams.module.js';
import { TokensModule } from './tokens/tokens.module.js';
import { EvidenceBundleModule } from './transparency/evidence-bundle.module.js';
import { UsersModule } from './users/users.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';

@Module({
  imports: [
    // The environment is validated once (validatedEnv()), at module compile time; each namespace reads its part.
    ConfigModule.forRoot({
      isGlobal: true,
      ignoreEnvFile: true,
      load: [
        serverConfig,
        databaseConfig,
        securityConfig,
        sessionsConfig,
        otpConfig,
        tokensConfig,
        protectionConfig,
        webhooksConfig,
        kioskConfig,
        consoleConfig,
        samlConfig,
      ],
    }),
    ScheduleModule.forRoot(),
    LoggingModule,
    CommonModule,
    DatabaseModule.forRoot({ entities: ENTITIES }),
    AuditModule,
    TeamsModule,
    ApiKeysModule,
    AuthModule,
    ProtectionModule,
    PublicRouteLimitsModule,
    HealthModule,
    MetricsModule,
    OnboardingModule,
    SessionsModule,
    UsersModule,
    TokensModule,
    OtpModule,
    WebhooksModule,
    KioskModule,
    IdCardModule,
    ConsoleModule,
    ForwardAuthModule,
    StatsModule,
    SessionTimelineModule,
    OidcModule,
    EvidenceBundleModule,
    SamlModule,
  ],
  providers: [
    { provide: APP_FILTER, useClass: ProblemDetailsFilter },
    { provide: APP_PIPE, useValue: apiValidationPipe },
  ],
})
export class AppModule {}
