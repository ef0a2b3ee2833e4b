import { Module } from '@nestjs/common';
import { EidProvidersModule } from '../eid-providers/eid-providers.module.js';
import { KioskTokenModule } from '../kiosk/kiosk-token.module.js';
import { ListingsModule } from '../listings/listings.module.js';
import { QrRendererService } from '../qr/qr-renderer.service.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { SessionCollectorJob } from './session-collector.job.js';
import { SessionPiiPurgeJob } from './session-pii-purge.job.js';
import { SessionsController } from './sessions.controller.js';
import { SessionsListingController } from './sessions-listing.controller.js';
import { SessionSettlement } from './session-settlement.service.js';
import { SessionStore } from './session.store.js';
import { SessionsService } from './sessions.service.js';

@Module({
  imports: [EidProvidersModule, ListingsModule, WebhooksModule, KioskTokenModule],
  controllers: [SessionsController, SessionsListingController],
  providers: [SessionStore, SessionsService, SessionSettlement, QrRendererService, SessionCollectorJob, SessionPiiPurgeJob],
  exports: [SessionStore],
})
export class SessionsModule {}
