import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { webhooksConfig, type WebhooksConfig } from '../config/webhooks.config.js';
import { ListingsModule } from '../listings/listings.module.js';
import { TeamsModule } from '../teams/teams.module.js';
import { WebhookAttempt } from './webhook-attempt.entity.js';
import { WebhookDelivery } from './webhook-delivery.entity.js';
import { WebhookDeliveriesController } from './webhook-deliveries.controller.js';
import { WebhookDeliveriesService } from './webhook-deliveries.service.js';
import { WebhookDeliveryStore } from './webhook-delivery.store.js';
import { WebhookDispatcherJob } from './webhook-dispatcher.job.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookEndpointsController } from './webhook-endpoints.controller.js';
import { WebhookEndpointsModule } from './webhook-endpoints.module.js';
import { WebhookMetrics } from './webhook-metrics.js';
import { WebhookOutbox } from './webhook-outbox.js';
import { WebhookPayloadPurgeJob } from './webhook-payload-purge.job.js';
import { WebhookSender } from './webhook-sender.js';

/** The relay (docs/webhooks.md): endpoints, the outbox sessions write to, the dispatcher, the delivery log. */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookDelivery, WebhookAttempt]), WebhookEndpointsModule, ListingsModule, TeamsModule],
  controllers: [WebhookEndpointsController, WebhookDeliveriesController],
  providers: [
    {
      provide: WebhookSender,
      inject: [webhooksConfig.KEY],
      useFactory: (config: WebhooksConfig) =>
        new WebhookSender({ timeoutMs: config.timeoutMs, allowPrivateTargets: config.allowPrivateTargets }),
    },
    WebhookDeliveryStore,
    WebhookDispatcher,
    WebhookDispatcherJob,
    WebhookOutbox,
    WebhookMetrics,
    WebhookDeliveriesService,
    WebhookPayloadPurgeJob,
  ],
  exports: [WebhookOutbox, WebhookSender],
})
export class WebhooksModule {}
