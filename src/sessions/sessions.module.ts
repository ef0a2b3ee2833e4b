import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EidProvidersModule } from '../eid-providers/eid-providers.module.js';
import { KioskTokenModule } from '../kiosk-tokens/kiosk-token.module.js';
import { ListingsModule } from '../listings/listings.module.js';
import { QrModule } from '../qr/qr.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { TransparencyLogModule } from '../transparency/transparency-log.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { SessionCollectorJob } from './jobs/session-collector.job.js';
import { SessionEndListeners } from './settlement/session-end-listeners.js';
import { SessionMetrics } from './session-metrics.js';
import { SessionQrSources } from './session-qr-sources.js';
import { SessionPiiPurgeJob } from './jobs/session-pii-purge.job.js';
import { SessionsController } from './api/sessions.controller.js';
import { SessionsListingController } from './api/sessions-listing.controller.js';
import { SessionEventLog } from './settlement/session-event-log.js';
import { SessionSettlement } from './settlement/session-settlement.js';
import { SessionRenewal } from './settlement/session-renewal.js';
import { SessionFinalisation } from './settlement/session-finalisation.js';
import { SessionTransitionWriter } from './settlement/session-transition-writer.js';
import { Session } from './session.entity.js';
import { SessionStore } from './session.store.js';
import { SessionReader } from './api/session-reader.js';
import { EvidenceService } from './settlement/evidence.service.js';
import { SessionScreenReader } from './session-screen-reader.js';
import { SessionReturnsService } from './api/session-returns.service.js';
import { SessionsService } from './api/sessions.service.js';
import { PaymentController } from './api/payment.controller.js';
import { SignAndPhoneController } from './api/sign-and-phone.controller.js';
import { IdCardSessions } from './idcard-sessions.service.js';

@Module({
  imports: [
    TypeOrmModule.forFeature([Session]),
    EidProvidersModule,
    ListingsModule,
    WebhooksModule,
    KioskTokenModule,
    QrModule,
    TokensModule,
    TransparencyLogModule,
  ],
  controllers: [SessionsController, SignAndPhoneController, PaymentController, SessionsListingController],
  providers: [
    SessionStore,
    SessionReader,
    SessionsService,
    IdCardSessions,
    SessionReturnsService,
    SessionSettlement,
    SessionRenewal,
    SessionFinalisation,
    EvidenceService,
    SessionTransitionWriter,
    SessionEndListeners,
    SessionEventLog,
    SessionMetrics,
    SessionQrSources,
    SessionScreenReader,
    SessionCollectorJob,
    SessionPiiPurgeJob,
  ],
  exports: [SessionsService, IdCardSessions, SessionReader, SessionScreenReader, SessionReturnsService, SessionEndListeners],
})
export class SessionsModule {}
