import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TeamsModule } from '../teams/teams.module.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { WebhookEndpointStore } from './webhook-endpoint.store.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';

/** Endpoint management alone, without the dispatcher: what the command line needs. */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint]), TeamsModule],
  providers: [WebhookEndpointStore, WebhookEndpointsService],
  exports: [WebhookEndpointStore, WebhookEndpointsService],
})
export class WebhookEndpointsModule {}
