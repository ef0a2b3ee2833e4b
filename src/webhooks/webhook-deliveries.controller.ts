import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import { Audited, answerIdAndEnvironment } from '../audit/audited.decorator.js';
import { ManagementEndpoint, RequireFeatures } from '../auth/access.decorators.js';
import { CurrentPrincipal, type Principal } from '../auth/principal.js';
import { ListingRequestDto } from '../listings/listing-request.dto.js';
import { WebhookDeliveriesService } from './webhook-deliveries.service.js';
import { ApiProblems, BEARER_PROBLEMS, VALIDATION } from '../common/problem-details/api-problems.decorator.js';
import { WebhookDeliveryDto, WebhookDeliveryListingDto } from './dto/webhook-answers.dto.js';

@ApiTags('webhooks')
@ApiBearerAuth('bearer')
@ManagementEndpoint()
@RequireFeatures('pro')
@Controller('api/v1/webhook-deliveries')
export class WebhookDeliveriesController {
  constructor(private readonly deliveries: WebhookDeliveriesService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'The delivery log, with every attempt (tabular listing)' })
  @ApiOkResponse({ type: WebhookDeliveryListingDto })
  @ApiProblems(...BEARER_PROBLEMS, 'feature_required', VALIDATION, 'payload_too_large', 'unsupported_media_type')
  list(@CurrentPrincipal() principal: Principal, @Body() body: ListingRequestDto) {
    return this.deliveries.list(principal.team.id, body);
  }

  @Post(':id/redeliver')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a message again now, with the same webhook-id' })
  @ApiOkResponse({ type: WebhookDeliveryDto })
  @ApiProblems(...BEARER_PROBLEMS, 'feature_required', 'not_found', 'delivery_not_redeliverable')
  @Audited('webhook_delivery.redelivered', answerIdAndEnvironment((delivery) => ({ eventType: delivery.eventType, url: delivery.url })))
  redeliver(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.deliveries.redeliver(principal.team.id, id);
  }
}
