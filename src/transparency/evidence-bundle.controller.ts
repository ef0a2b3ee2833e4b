import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { KeyOrMemberEndpoint, Scopes } from '../auth/access.decorators.js';
import { CurrentPrincipal, type Principal } from '../auth/principal.js';
import { API_KEY_PROBLEMS, ApiProblems } from '../common/problem-details/api-problems.decorator.js';
import { EvidenceBundleDto } from './dto/evidence-bundle.dto.js';
import { EvidenceBundleService } from './evidence-bundle.service.js';

@ApiTags('sessions')
@ApiSecurity('apiKey')
@ApiBearerAuth('bearer')
@Controller('api/v1/sessions')
export class EvidenceBundleController {
  constructor(private readonly bundles: EvidenceBundleService) {}

  @Get(':sessionId/bundle')
  @KeyOrMemberEndpoint()
  @Scopes('sessions:read')
  // Personal data: never kept by a cache on the way.
  @Header('cache-control', 'no-store')
  @ApiOperation({
    summary: "A final session's evidence bundle, to verify offline with `npx eid-gateway verify-bundle` (docs/transparency.md)",
    description:
      "The result token, the keys that verify it, the provider's raw evidence, the signed verification report and an inclusion proof of the token in the transparency log. With an API key: sessions of its environment; with a team member's token: the team's. Until SESSION_PII_RETENTION purges the session (then 410).",
  })
  @ApiOkResponse({ type: EvidenceBundleDto })
  @ApiProblems(
    ...API_KEY_PROBLEMS,
    'invalid_token',
    'csrf_check_failed',
    'session_not_found',
    'session_not_final',
    'evidence_not_found',
    'evidence_purged',
  )
  bundle(@CurrentPrincipal() principal: Principal, @Param('sessionId') sessionId: string) {
    return this.bundles.bundleFor(principal, sessionId);
  }
}
