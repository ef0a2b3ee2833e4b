import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import { ManagementEndpoint } from '../auth/access.decorators.js';
import { CurrentPrincipal, type UserPrincipal } from '../auth/principal.js';
import { teamView } from '../teams/team-view.js';
import { ApiProblems, BEARER_PROBLEMS } from '../common/problem-details/api-problems.decorator.js';
import { MeDto } from './dto/me.dto.js';

@ApiTags('management')
@ApiBearerAuth('bearer')
@ManagementEndpoint()
@Controller('api/v1/me')
export class MeController {
  @Get()
  @ApiOperation({ summary: "The caller's user and team" })
  @ApiOkResponse({ type: MeDto })
  @ApiProblems(...BEARER_PROBLEMS)
  me(@CurrentPrincipal() principal: UserPrincipal) {
    const { user, team } = principal;
    return {
      user: { id: user.id, email: user.email, phone: user.phone, createdAt: user.createdAt },
      team: teamView(team),
    };
  }
}
