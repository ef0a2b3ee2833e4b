import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, answerIdAndEnvironment } from '../../audit/audited.decorator.js';
import { ManagementEndpoint, RequireFeatures } from '../../auth/access.decorators.js';
import { CurrentPrincipal, type Principal } from '../../auth/principal.js';
import { ApiProblems, BEARER_PROBLEMS, VALIDATION } from '../../common/problem-details/api-problems.decorator.js';
import { CreateOidcClientDto, UpdateOidcClientDto } from './dto/create-oidc-client.dto.js';
import { OidcClientDto, OidcClientListDto, OidcClientWithSecretDto } from './dto/oidc-client-answers.dto.js';
import { OidcClientsService } from './oidc-clients.service.js';

/** An audit entry's facts about a client: its client_id and name, never its secret (docs/audit.md). */
const describeClient = (client: Record<string, unknown>) => ({ clientId: client.clientId, name: client.name });

@ApiTags('oidc-clients')
@ApiBearerAuth('bearer')
@ManagementEndpoint()
@RequireFeatures('pro')
@Controller('api/v1/oidc-clients')
export class OidcClientsController {
  constructor(private readonly clients: OidcClientsService) {}

  @Get()
  @ApiOperation({ summary: "The team's OpenID Connect clients (never their secrets)" })
  @ApiOkResponse({ type: OidcClientListDto })
  @ApiProblems(...BEARER_PROBLEMS, 'feature_required')
  async list(@CurrentPrincipal() principal: Principal) {
    return { data: await this.clients.list(principal.team.id) };
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Register a client; a client_secret_* client gets its secret in this answer only' })
  @ApiCreatedResponse({ type: OidcClientWithSecretDto })
  @ApiProblems(...BEARER_PROBLEMS, 'feature_required', VALIDATION, 'payload_too_large', 'unsupported_media_type')
  @Audited('oidc_client.created', answerIdAndEnvironment(describeClient))
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateOidcClientDto) {
    return this.clients.create(principal.team.id, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One client' })
  @ApiOkResponse({ type: OidcClientDto })
  @ApiProblems(...BEARER_PROBLEMS, 'feature_required', 'not_found')
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.clients.get(principal.team.id, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change redirect URIs, name, providers, claims or keys' })
  @ApiOkResponse({ type: OidcClientDto })
  @ApiProblems(...BEARER_PROBLEMS, 'feature_required', VALIDATION, 'payload_too_large', 'unsupported_media_type', 'not_found')
  // The names of the fields changed, not their values: redirect URIs and keys are configuration, not facts to log.
  @Audited(
    'oidc_client.changed',
    answerIdAndEnvironment((client, body) => ({ ...describeClient(client), changed: Object.keys(body).sort() })),
  )
  update(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: UpdateOidcClientDto) {
    return this.clients.update(principal.team.id, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a client: its tokens stop working at once' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiProblems(...BEARER_PROBLEMS, 'feature_required', 'not_found')
  @Audited('oidc_client.deleted', answerIdAndEnvironment(describeClient), { noContent: true })
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    // The removed client is for the audit entry only; the client gets 204 without a body.
    return this.clients.remove(principal.team.id, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({ summary: 'A new client secret, in this answer only; the old one stops working at once' })
  @ApiOkResponse({ type: OidcClientWithSecretDto })
  @ApiProblems(...BEARER_PROBLEMS, 'feature_required', VALIDATION, 'not_found')
  @Audited('oidc_client.secret_rotated', answerIdAndEnvironment(describeClient))
  rotateSecret(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.clients.rotateSecret(principal.team.id, id);
  }
}
