import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module.js';
import { WebhookEndpointStore } from './webhook-endpoint.store.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';

/** Endpoint management alone, without the dispatcher: what the command line needs. */
@Module({
  imports: [TeamsModule],
  providers: [WebhookEndpointStore, WebhookEndpointsService],
  exports: [WebhookEndpointStore, WebhookEndpointsService],
})
export class WebhookEndpointsModule {}
