import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';

/** Endpoint management alone, without the dispatcher: what the command line needs. */
@Module({
  imports: [TeamsModule],
  providers: [WebhookEndpointsService],
  exports: [WebhookEndpointsService],
})
export class WebhookEndpointsModule {}
