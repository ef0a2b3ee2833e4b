import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ManagementEndpoint } from '../auth/access.decorators.js';
import { CurrentPrincipal, type UserPrincipal } from '../auth/principal.js';
import { ApiProblems, BEARER_PROBLEMS, VALIDATION } from '../common/problem-details/api-problems.decorator.js';
import { StatsDto } from './dto/stats-answer.dto.js';
import { StatsQueryDto } from './dto/stats-query.dto.js';
import { StatsService } from './stats.service.js';

@ApiTags('management')
@ApiBearerAuth('bearer')
@ManagementEndpoint()
@Controller('api/v1/stats')
export class StatsController {
  constructor(private readonly stats: StatsService) {}

  @Get()
  @ApiOperation({ summary: "The team's figures for one environment and range: sessions, webhooks, key usage (docs/console.md)" })
  @ApiOkResponse({ type: StatsDto })
  @ApiProblems(...BEARER_PROBLEMS, VALIDATION)
  get(@CurrentPrincipal() principal: UserPrincipal, @Query() query: StatsQueryDto) {
    return this.stats.forTeam(principal.team.id, query.environment, query.range);
  }
}
