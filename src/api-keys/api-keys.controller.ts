import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ManagementEndpoint } from '../auth/auth.decorators.js';
import { CurrentPrincipal, type UserPrincipal } from '../auth/principal.js';
import { apiKeyView } from './api-key-view.js';
import { ApiKeysService } from './api-keys.service.js';
import { CreateApiKeyDto } from './dto/create-api-key.dto.js';
import { ApiProblems, BEARER_PROBLEMS, VALIDATION } from '../common/problem-details/api-problems.decorator.js';
import { ApiKeyDto, CreatedApiKeyDto } from './dto/api-key-answers.dto.js';

@ApiTags('management')
@ApiBearerAuth('bearer')
@ManagementEndpoint()
@Controller('api/v1/api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Get()
  @ApiOperation({ summary: "The team's API keys (never the secret)" })
  @ApiOkResponse({ type: [ApiKeyDto] })
  @ApiProblems(...BEARER_PROBLEMS)
  async list(@CurrentPrincipal() principal: UserPrincipal) {
    return (await this.apiKeys.listForTeam(principal.team.id)).map(apiKeyView);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an API key; the secret `key` is in this answer only' })
  @ApiCreatedResponse({ type: CreatedApiKeyDto })
  @ApiProblems(...BEARER_PROBLEMS, VALIDATION, 'payload_too_large', 'unsupported_media_type')
  async create(@CurrentPrincipal() principal: UserPrincipal, @Body() body: CreateApiKeyDto) {
    const { apiKey, key } = await this.apiKeys.create({ ...body, teamId: principal.team.id });
    return { ...apiKeyView(apiKey), key };
  }

  @Post(':id/revoke')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke an API key of the team (idempotent)' })
  @ApiOkResponse({ type: ApiKeyDto })
  @ApiProblems(...BEARER_PROBLEMS, 'not_found')
  async revoke(@CurrentPrincipal() principal: UserPrincipal, @Param('id') id: string) {
    return apiKeyView(await this.apiKeys.revokeForTeam(principal.team.id, id));
  }
}
