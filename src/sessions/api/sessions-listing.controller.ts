import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import { ManagementEndpoint } from '../../auth/access.decorators.js';
import { CurrentPrincipal, type UserPrincipal } from '../../auth/principal.js';
import { ApiProblems, BEARER_PROBLEMS, VALIDATION } from '../../common/problem-details/api-problems.decorator.js';
import { SessionListingDto } from './dto/session-answers.dto.js';
import { ListingRequestDto } from '../../listings/listing-request.dto.js';
import { ListingStore } from '../../listings/listing.store.js';
import { SESSION_LISTING } from './session-listing.js';

@ApiTags('management')
@ApiBearerAuth('bearer')
@ManagementEndpoint()
@Controller('api/v1/sessions')
export class SessionsListingController {
  constructor(private readonly listings: ListingStore) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: "The team's sessions, tabular (docs/listings.md), without personal data" })
  @ApiOkResponse({ type: SessionListingDto })
  @ApiProblems(...BEARER_PROBLEMS, VALIDATION, 'payload_too_large', 'unsupported_media_type')
  list(@CurrentPrincipal() principal: UserPrincipal, @Body() body: ListingRequestDto) {
    return this.listings.page(SESSION_LISTING, body, (p) => `s.team_id = ${p.add(principal.team.id)}`);
  }
}
