import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ManagementEndpoint } from '../common/access/access.decorators.js';
import { CurrentPrincipal, type UserPrincipal } from '../common/access/principal.js';
import { teamView } from '../teams/team-view.js';

@ApiTags('management')
@ApiBearerAuth('bearer')
@ManagementEndpoint()
@Controller('api/v1/me')
export class MeController {
  @Get()
  @ApiOperation({ summary: "The caller's user and team" })
  me(@CurrentPrincipal() principal: UserPrincipal) {
    const { user, team } = principal;
    return {
      user: { id: user.id, email: user.email, phone: user.phone, createdAt: user.createdAt },
      team: teamView(team),
    };
  }
}
