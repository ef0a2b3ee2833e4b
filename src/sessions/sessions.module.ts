import { Module } from '@nestjs/common';
import { EidProvidersModule } from '../eid-providers/eid-providers.module.js';
import { KioskTokenModule } from '../kiosk/kiosk-token.module.js';
import { ListingsModule } from '../listings/listings.module.js';
import { QrRendererService } from '../qr/qr-renderer.service.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { SessionCollectorJob } from './session-collector.job.js';
import { SessionMetrics } from './session-metrics.js';
import { SessionPiiPurgeJob } from './session-pii-purge.job.js';
import { SessionsController } from './sessions.controller.js';
import { SessionsListingController } from './sessions-listing.controller.js';
import { SessionsService } from './sessions.service.js';

@Module({
  imports: [EidProvidersModule, ListingsModule, WebhooksModule, KioskTokenModule],
  controllers: [SessionsController, SessionsListingController],
  providers: [SessionsService, SessionMetrics, QrRendererService, SessionCollectorJob, SessionPiiPurgeJob],
  exports: [SessionsService],
})
export class SessionsModule {}
