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
import { SessionsService } from './sessions.service.js';
import { SignAndPhoneController } from './sign-and-phone.controller.js';

@Module({
  imports: [EidProvidersModule, ListingsModule, WebhooksModule, KioskTokenModule],
  controllers: [SessionsController, SignAndPhoneController, SessionsListingController],
  providers: [SessionsService, QrRendererService, SessionCollectorJob, SessionPiiPurgeJob],
  exports: [SessionsService],
})
export class SessionsModule {}
