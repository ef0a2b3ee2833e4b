import { Body, Controller, Get, HttpCode, Optional, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags, ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import { Audited, answerIdAndEnvironment } from '../audit/audited.decorator.js';
import { ManagementEndpoint } from '../auth/access.decorators.js';
import { CurrentPrincipal, type UserPrincipal } from '../auth/principal.js';
import { Clock } from '../common/clock/clock.js';
import { QuotaStore, type MonthUsage } from '../protection/rate-limits/quota.store.js';
import { apiKeyView } from './api-key-view.js';
import { ApiKeysService } from './api-keys.service.js';
import { CreateApiKeyDto } from './dto/create-api-key.dto.js';
import { ApiProblems, BEARER_PROBLEMS, VALIDATION } from '../common/problem-details/api-problems.decorator.js';
import { ApiKeyDto, CreatedApiKeyDto, ListedApiKeyDto } from './dto/api-key-answers.dto.js';

@ApiTags('management')
@ApiBearerAuth('bearer')
@ManagementEndpoint()
@Controller('api/v1/api-keys')
export class ApiKeysController {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly clock: Clock,
    // Absent in the command line, which serves no HTTP and has no protection stores.
    @Optional() private readonly quotas?: QuotaStore,
  ) {}

  @Get()
  @ApiOperation({ summary: "The team's API keys (never the secret), with their limits and usage this month" })
  @ApiOkResponse({ type: [ListedApiKeyDto] })
  @ApiProblems(...BEARER_PROBLEMS)
  async list(@CurrentPrincipal() principal: UserPrincipal) {
    const keys = await this.apiKeys.listForTeam(principal.team.id);
    const usage: Map<string, MonthUsage> =
      (await this.quotas?.monthUsage(
        keys.map((key) => key.id),
        this.clock.now(),
      )) ?? new Map<string, MonthUsage>();
    return keys.map((key) => ({ ...apiKeyView(key), usageThisMonth: usage.get(key.id) ?? { requests: 0, addresses: 0 } }));
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an API key; the secret `key` is in this answer only' })
  @ApiCreatedResponse({ type: CreatedApiKeyDto })
  @ApiProblems(...BEARER_PROBLEMS, VALIDATION, 'payload_too_large', 'unsupported_media_type')
  @Audited('api_key.created', answerIdAndEnvironment((key) => ({ name: key.name, scopes: key.scopes })))
  async create(@CurrentPrincipal() principal: UserPrincipal, @Body() body: CreateApiKeyDto) {
    const { apiKey, key } = await this.apiKeys.createForMember({ ...body, teamId: principal.team.id });
    return { ...apiKeyView(apiKey), key };
  }

  @Post(':id/revoke')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke an API key of the team (idempotent)' })
  @ApiOkResponse({ type: ApiKeyDto })
  @ApiProblems(...BEARER_PROBLEMS, 'not_found')
  @Audited('api_key.revoked', answerIdAndEnvironment((key) => ({ name: key.name })))
  async revoke(@CurrentPrincipal() principal: UserPrincipal, @Param('id') id: string) {
    return apiKeyView(await this.apiKeys.revokeForTeam(principal.team.id, id));
  }
}
