import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ManagementEndpoint, RequireFeatures } from '../common/access/access.decorators.js';
import { CurrentPrincipal, type Principal } from '../common/access/principal.js';
import { ListingRequestDto } from '../listings/listing-request.dto.js';
import { WebhookDeliveriesService } from './webhook-deliveries.service.js';

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
  list(@CurrentPrincipal() principal: Principal, @Body() body: ListingRequestDto) {
    return this.deliveries.list(principal.team.id, body);
  }

  @Post(':id/redeliver')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a message again now, with the same webhook-id' })
  redeliver(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.deliveries.redeliver(principal.team.id, id);
  }
}
