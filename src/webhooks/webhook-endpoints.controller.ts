import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiOperation,
  ApiTags,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiAcceptedResponse,
} from '@nestjs/swagger';
import { Audited, answerIdAndEnvironment } from '../audit/audited.decorator.js';
import { ManagementEndpoint, RequireFeatures } from '../auth/access.decorators.js';
import { CurrentPrincipal, type Principal } from '../auth/principal.js';
import { Clock } from '../common/clock/clock.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { CreateWebhookEndpointDto } from './dto/create-webhook-endpoint.dto.js';
import { UpdateWebhookEndpointDto } from './dto/update-webhook-endpoint.dto.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { WebhookOutbox } from './webhook-outbox.js';
import { ApiProblems, BEARER_PROBLEMS, VALIDATION } from '../common/problem-details/api-problems.decorator.js';
import { QueuedTestEventDto, WebhookEndpointDto, WebhookEndpointListDto, WebhookEndpointWithSecretDto } from './dto/webhook-answers.dto.js';

@ApiTags('webhooks')
@ApiBearerAuth('bearer')
@ManagementEndpoint()
@RequireFeatures('pro')
@Controller('api/v1/webhook-endpoints')
export class WebhookEndpointsController {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly outbox: WebhookOutbox,
    private readonly clock: Clock,
  ) {}

  @Get()
  @ApiOperation({ summary: "The team's webhook endpoints (never their secrets)" })
  @ApiOkResponse({ type: WebhookEndpointListDto })
  @ApiProblems(...BEARER_PROBLEMS, 'feature_required')
  async list(@CurrentPrincipal() principal: Principal) {
    return { data: await this.endpoints.list(principal.team.id) };
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Register an endpoint; the signing secret is in this answer only' })
  @ApiCreatedResponse({ type: WebhookEndpointWithSecretDto })
  @ApiProblems(...BEARER_PROBLEMS, 'feature_required', VALIDATION, 'payload_too_large', 'unsupported_media_type', 'invalid_webhook_url')
  @Audited('webhook_endpoint.created', answerIdAndEnvironment((endpoint) => ({ url: endpoint.url, eventTypes: endpoint.eventTypes })))
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateWebhookEndpointDto) {
    const { endpoint, secret } = await this.endpoints.create(principal.team.id, body);
    return { ...endpoint, secret };
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change the URL, event types or description; enable or disable' })
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiProblems(
    ...BEARER_PROBLEMS,
    'feature_required',
    VALIDATION,
    'payload_too_large',
    'unsupported_media_type',
    'invalid_webhook_url',
    'not_found',
  )
  // Which fields changed, not their values beyond the URL and flags: a description may say anything.
  @Audited(
    'webhook_endpoint.changed',
    answerIdAndEnvironment((endpoint, body) => ({ url: endpoint.url, changed: Object.keys(body).sort() })),
  )
  update(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: UpdateWebhookEndpointDto) {
    return this.endpoints.update(principal.team.id, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an endpoint with its pending messages and delivery log' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiProblems(...BEARER_PROBLEMS, 'feature_required', 'not_found')
  @Audited('webhook_endpoint.deleted', answerIdAndEnvironment((endpoint) => ({ url: endpoint.url })), { noContent: true })
  async remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    // The removed endpoint is for the audit entry only; the client gets 204 without a body.
    return this.endpoints.remove(principal.team.id, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({ summary: 'A new signing secret; the old one keeps signing beside it for 24 hours' })
  @ApiOkResponse({ type: WebhookEndpointWithSecretDto })
  @ApiProblems(...BEARER_PROBLEMS, 'feature_required', 'not_found')
  @Audited('webhook_endpoint.secret_rotated', answerIdAndEnvironment((endpoint) => ({ url: endpoint.url })))
  async rotateSecret(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    const { endpoint, secret } = await this.endpoints.rotateSecret(principal.team.id, id);
    return { ...endpoint, secret };
  }

  @Post(':id/test')
  @HttpCode(202)
  @ApiOperation({ summary: 'Queue a webhook.test message to this endpoint; it shows in the delivery log like any other' })
  @ApiAcceptedResponse({ type: QueuedTestEventDto })
  @ApiProblems(...BEARER_PROBLEMS, 'feature_required', 'not_found', 'endpoint_disabled')
  @Audited('webhook_endpoint.test_sent', (request, answer) => ({
    targetId: request.params.id,
    details: { deliveryId: (answer as { deliveryId: string }).deliveryId },
  }))
  async sendTest(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    const endpoint = await this.endpoints.get(principal.team.id, id);
    if (!endpoint.enabled) throw new DomainException('endpoint_disabled', 'The endpoint is disabled; enable it first.');
    const queued = await this.outbox.enqueueTest(
      { id: endpoint.id, teamId: principal.team.id, environment: endpoint.environment },
      this.clock.now(),
    );
    this.outbox.dispatchSoon();
    return { deliveryId: queued.id, messageId: queued.messageId };
  }
}
