import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, answerIdAndEnvironment } from '../../audit/audited.decorator.js';
import { ManagementEndpoint, RequireFeatures } from '../../auth/access.decorators.js';
import { CurrentPrincipal, type Principal } from '../../auth/principal.js';
import { ApiProblems, BEARER_PROBLEMS, VALIDATION } from '../../common/problem-details/api-problems.decorator.js';
import { CreateSamlServiceProviderDto, UpdateSamlServiceProviderDto } from './dto/create-saml-service-provider.dto.js';
import { SamlServiceProviderDto, SamlServiceProviderListDto } from './dto/saml-service-provider-answers.dto.js';
import { SamlServiceProvidersService } from './saml-service-providers.service.js';

/** An audit entry's facts about an SP: its entityID and name, never its certificates (docs/audit.md). */
const describeSp = (sp: Record<string, unknown>) => ({ entityId: sp.entityId, name: sp.name });

/** The team's SAML service providers, managed as its OIDC clients are (docs/saml.md). */
@ApiTags('saml-service-providers')
@ApiBearerAuth('bearer')
@ManagementEndpoint()
@RequireFeatures('pro')
@Controller('api/v1/saml-service-providers')
export class SamlServiceProvidersController {
  constructor(private readonly serviceProviders: SamlServiceProvidersService) {}

  @Get()
  @ApiOperation({ summary: "The team's SAML service providers" })
  @ApiOkResponse({ type: SamlServiceProviderListDto })
  @ApiProblems(...BEARER_PROBLEMS, 'feature_required')
  async list(@CurrentPrincipal() principal: Principal) {
    return { data: await this.serviceProviders.list(principal.team.id) };
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Register a service provider (its entityID, ACS URLs and certificates)' })
  @ApiCreatedResponse({ type: SamlServiceProviderDto })
  @ApiProblems(...BEARER_PROBLEMS, 'feature_required', VALIDATION, 'entity_id_taken', 'payload_too_large', 'unsupported_media_type')
  @Audited('saml_service_provider.created', answerIdAndEnvironment(describeSp))
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateSamlServiceProviderDto) {
    return this.serviceProviders.create(principal.team.id, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One service provider' })
  @ApiOkResponse({ type: SamlServiceProviderDto })
  @ApiProblems(...BEARER_PROBLEMS, 'feature_required', 'not_found')
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.serviceProviders.get(principal.team.id, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change the name, ACS URLs, certificates, providers or attributes' })
  @ApiOkResponse({ type: SamlServiceProviderDto })
  @ApiProblems(...BEARER_PROBLEMS, 'feature_required', VALIDATION, 'payload_too_large', 'unsupported_media_type', 'not_found')
  @Audited(
    'saml_service_provider.changed',
    answerIdAndEnvironment((sp, body) => ({ ...describeSp(sp), changed: Object.keys(body).sort() })),
  )
  update(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: UpdateSamlServiceProviderDto) {
    return this.serviceProviders.update(principal.team.id, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a service provider: its logins in progress end' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiProblems(...BEARER_PROBLEMS, 'feature_required', 'not_found')
  @Audited('saml_service_provider.deleted', answerIdAndEnvironment(describeSp), { noContent: true })
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.serviceProviders.remove(principal.team.id, id);
  }
}
