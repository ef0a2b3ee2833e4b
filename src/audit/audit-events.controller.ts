import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ManagementEndpoint } from '../auth/access.decorators.js';
import { CurrentPrincipal, type UserPrincipal } from '../auth/principal.js';
import { ApiProblems, BEARER_PROBLEMS, VALIDATION } from '../common/problem-details/api-problems.decorator.js';
import { ListingRequestDto } from '../listings/listing-request.dto.js';
import { ListingStore } from '../listings/listing.store.js';
import { AUDIT_LISTING } from './audit-listing.js';
import { AuditEventListingDto } from './dto/audit-answers.dto.js';

@ApiTags('management')
@ApiBearerAuth('bearer')
@ManagementEndpoint()
@Controller('api/v1/audit-events')
export class AuditEventsController {
  constructor(private readonly listings: ListingStore) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: "The team's audit log, tabular (docs/audit.md, docs/listings.md)" })
  @ApiOkResponse({ type: AuditEventListingDto })
  @ApiProblems(...BEARER_PROBLEMS, VALIDATION, 'payload_too_large', 'unsupported_media_type')
  async list(@CurrentPrincipal() principal: UserPrincipal, @Body() body: ListingRequestDto) {
    const page = await this.listings.page(AUDIT_LISTING, body, (p) => `a.team_id = ${p.add(principal.team.id)}`);
    return {
      ...page,
      rows: page.rows.map((row) => (typeof row.details === 'string' ? { ...row, details: JSON.parse(row.details) as unknown } : row)),
    };
  }
}
