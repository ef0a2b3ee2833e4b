import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ManagementEndpoint } from '../auth/access.decorators.js';
import { CurrentPrincipal, type UserPrincipal } from '../auth/principal.js';
import { ApiProblems, BEARER_PROBLEMS } from '../common/problem-details/api-problems.decorator.js';
import { SessionTimelineDto } from './dto/session-timeline.dto.js';
import { SessionTimelineService } from './session-timeline.service.js';

@ApiTags('management')
@ApiBearerAuth('bearer')
@ManagementEndpoint()
@Controller('api/v1/sessions')
export class SessionTimelineController {
  constructor(private readonly timelines: SessionTimelineService) {}

  @Get(':sessionId/timeline')
  @ApiOperation({ summary: "A session's changes, webhook messages and evidence check, without personal data (docs/console.md)" })
  @ApiOkResponse({ type: SessionTimelineDto })
  @ApiProblems(...BEARER_PROBLEMS, 'session_not_found')
  get(@CurrentPrincipal() principal: UserPrincipal, @Param('sessionId') sessionId: string) {
    return this.timelines.forTeam(principal.team.id, sessionId);
  }
}
