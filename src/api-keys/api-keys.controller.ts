import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ManagementEndpoint } from '../common/access/access.decorators.js';
import { CurrentPrincipal, type UserPrincipal } from '../common/access/principal.js';
import { apiKeyView } from './api-key-view.js';
import { ApiKeysService } from './api-keys.service.js';
import { CreateApiKeyDto } from './dto/create-api-key.dto.js';

@ApiTags('management')
@ApiBearerAuth('bearer')
@ManagementEndpoint()
@Controller('api/v1/api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Get()
  @ApiOperation({ summary: "The team's API keys (never the secret)" })
  async list(@CurrentPrincipal() principal: UserPrincipal) {
    return (await this.apiKeys.listForTeam(principal.team.id)).map(apiKeyView);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an API key; the secret `key` is in this answer only' })
  async create(@CurrentPrincipal() principal: UserPrincipal, @Body() body: CreateApiKeyDto) {
    const { apiKey, key } = await this.apiKeys.create({ ...body, teamId: principal.team.id });
    return { ...apiKeyView(apiKey), key };
  }

  @Post(':id/revoke')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke an API key of the team (idempotent)' })
  async revoke(@CurrentPrincipal() principal: UserPrincipal, @Param('id') id: string) {
    return apiKeyView(await this.apiKeys.revokeForTeam(principal.team.id, id));
  }
}
