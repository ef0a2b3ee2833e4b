import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, answerIdAndEnvironment } from '../audit/audited.decorator.js';
import { ManagementEndpoint } from '../auth/access.decorators.js';
import { CurrentPrincipal, type Principal } from '../auth/principal.js';
import { ApiProblems, BEARER_PROBLEMS, VALIDATION } from '../common/problem-details/api-problems.decorator.js';
import { CounterLinksService } from './counter-links.service.js';
import { CounterLinkDto, CounterLinkListDto, CreateCounterLinkDto, CreatedCounterLinkDto } from './dto/counter-link.dto.js';

const describeLink = (link: Record<string, unknown>) => ({ label: link.label, provider: link.provider });

/** The team's counter links, managed from the console (docs/idcard.md, "Counter links"). */
@ApiTags('counter-links')
@ApiBearerAuth('bearer')
@ManagementEndpoint()
@Controller('api/v1/counter-links')
export class CounterLinksController {
  constructor(private readonly links: CounterLinksService) {}

  @Get()
  @ApiOperation({ summary: "The team's counter links (never their tokens)" })
  @ApiOkResponse({ type: CounterLinkListDto })
  @ApiProblems(...BEARER_PROBLEMS)
  async list(@CurrentPrincipal() principal: Principal) {
    return { data: await this.links.list(principal.team.id) };
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'A counter link that verifies ID cards for one environment: its URL is shown once' })
  @ApiCreatedResponse({ type: CreatedCounterLinkDto })
  @ApiProblems(...BEARER_PROBLEMS, VALIDATION, 'unknown_provider', 'payload_too_large', 'unsupported_media_type')
  @Audited('counter_link.created', answerIdAndEnvironment(describeLink))
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateCounterLinkDto) {
    return this.links.create(principal.team.id, body);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke a counter link: its page refuses the next card' })
  @ApiOkResponse({ type: CounterLinkDto })
  @ApiProblems(...BEARER_PROBLEMS, 'not_found')
  @Audited('counter_link.revoked', answerIdAndEnvironment(describeLink))
  revoke(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.links.revoke(principal.team.id, id);
  }
}
